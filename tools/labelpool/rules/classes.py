"""LP029-LP031, LP061-LP062, LP064: relevance classes hold a judged document, do not overlap,
never mix versions; a proposed class names two documents or more and waits for review; an
extension names a member of an accepted class.

A class is a list of ids or a mapping with ``members`` (and ``proposed`` while it is a
proposal: :func:`labelpool.model.class_item`); a mapping with ``extends: MEMBER`` is an
extension: its members join the accepted class holding MEMBER (once its ``proposed`` line is
deleted). :func:`entries` gives every form with the key path of its members, so that a
finding names the member's own line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from labelpool.findings import Finding
from labelpool.model import class_extends, class_item, fold_accepted
from labelpool.rules.view import KeyPath, View

if TYPE_CHECKING:  # a type only: corpus (and its jsonschema) stays off score's import path
    from labelpool.corpus import Versions

Locate = Callable[[KeyPath], tuple[int, int]]


@dataclass(frozen=True)
class Entry:
    index: int  # in ``relevant_classes``
    members: list[Any]
    path: KeyPath  # of the members' list
    proposed: bool
    extends: Any = None  # an extension: the member of the accepted class it joins


def members_path(item: Any, index: int) -> KeyPath:
    """The key path of the members' list of ``relevant_classes[index]`` (either form)."""
    if isinstance(item, dict):
        return ("relevant_classes", index, "members")
    return ("relevant_classes", index)


def entries(raw: Any) -> Iterator[Entry]:
    """Every class of a ``relevant_classes`` value (plain data), accepted and proposed."""
    for c, item in enumerate(raw if isinstance(raw, list) else ()):
        members, proposal = class_item(item)
        yield Entry(c, members, members_path(item, c), proposal is not None, class_extends(item))


def accepted(raw: Any) -> list[list[Any]]:
    """The members of every accepted class (what scoring reads), accepted extensions folded
    into their class."""
    return fold_accepted(raw)


def extended(all_entries: Sequence[Entry], entry: Entry) -> Entry | None:
    """The accepted class (not an extension) that the extension ``entry`` joins, else None."""
    return next(
        (
            e
            for e in all_entries
            if not e.proposed and e.extends is None and entry.extends in e.members
        ),
        None,
    )


def check(view: View) -> list[Finding]:
    relevant = set(view.get(("relevant_doc_ids",)) or ())
    judged = relevant | set(view.get(("judged_ids",)) or ())
    out: list[Finding] = []
    home: dict[str, int] = {}
    every = list(entries(view.get(("relevant_classes",))))
    for entry in every:
        c, members = entry.index, entry.members
        if entry.proposed and entry.extends is None and len(members) < 2:
            line, col = view.pos(entry.path)
            message = f"relevant_classes[{c}]: a proposed class names two documents or more"
            out.append(Finding("", line, col, "LP061", message))
        if entry.extends is not None:
            out.extend(_extension(view, every, entry))
        if entry.proposed:
            line, col = view.pos(("relevant_classes", c, "proposed"))
            what = (
                f"proposed class {', '.join(map(str, members))}"
                if entry.extends is None
                else f"proposed extension {', '.join(map(str, members))} of the class of "
                f"{entry.extends}"
            )
            message = (
                f"relevant_classes[{c}]: {what} waits "
                "for review (delete the `proposed:` line to accept it, the entry to reject it)"
            )
            out.append(Finding("", line, col, "LP062", message))
        elif entry.extends is None and not judged.intersection(members):
            line, col = view.pos(("relevant_classes", c))
            out.append(
                Finding(
                    "",
                    line,
                    col,
                    "LP029",
                    f"relevant_classes[{c}]: no member is judged (in relevant_doc_ids or "
                    "judged_ids); a class carries its judged members' grade",
                )
            )
        for i, doc in enumerate(members):
            if doc in home and home[doc] != c:
                line, col = view.pos((*entry.path, i))
                out.append(
                    Finding(
                        "",
                        line,
                        col,
                        "LP030",
                        f"relevant_classes[{c}]: {doc} is also in "
                        f"relevant_classes[{home[doc]}]; merge the two classes",
                    )
                )
            home.setdefault(doc, c)
    return out


def _extension(view: View, every: Sequence[Entry], entry: Entry) -> list[Finding]:
    """LP064: an extension's ``extends`` names a member of an accepted class (LP030 says
    when one of its members is in that class already)."""
    if extended(every, entry) is not None:
        return []
    line, col = view.pos(("relevant_classes", entry.index, "extends"))
    message = (
        f"relevant_classes[{entry.index}]: extends {entry.extends}, which no accepted class "
        "holds (its class was changed or removed since the proposal: delete the entry, or "
        "propose again)"
    )
    return [Finding("", line, col, "LP064", message)]


def supersession(classes: Sequence[Any], versions: Versions, locate: Locate) -> list[Finding]:
    """LP031 for one file's classes, accepted and proposed, as written in its
    ``relevant_classes`` (``locate`` gives a keypath's position in that file); an extension's
    members with every member of the class it extends too."""
    out: list[Finding] = []
    every = list(entries(list(classes)))
    for entry in every:
        c, members = entry.index, entry.members
        others: list[Any] = list(members)
        if entry.extends is not None:
            home = extended(every, entry)
            others += home.members if home is not None else []
        for i, newer in enumerate(members):
            for older in others:
                pairs = (
                    ((newer, older), (older, newer)) if older not in members else ((newer, older),)
                )
                for a, b in pairs:
                    if a != b and versions.supersedes(a, b):
                        line, col = locate((*entry.path, i))
                        out.append(
                            Finding(
                                "",
                                line,
                                col,
                                "LP031",
                                f"relevant_classes[{c}]: {a} supersedes {b}; "
                                "a class must not mix versions (keep the current one)",
                            )
                        )
    return out
