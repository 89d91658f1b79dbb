"""LP029-LP031, LP061-LP062: relevance classes hold a judged document, do not overlap, never mix
versions; a proposed class names two documents or more and waits for review.

A class is a list of ids or a mapping with ``members`` (and ``proposed`` while it is a
proposal: :func:`labelpool.model.class_item`); :func:`entries` gives both forms with the key
path of their members, so that a finding names the member's own line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from labelpool.findings import Finding
from labelpool.model import class_item
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


def members_path(item: Any, index: int) -> KeyPath:
    """The key path of the members' list of ``relevant_classes[index]`` (either form)."""
    if isinstance(item, dict):
        return ("relevant_classes", index, "members")
    return ("relevant_classes", index)


def entries(raw: Any) -> Iterator[Entry]:
    """Every class of a ``relevant_classes`` value (plain data), accepted and proposed."""
    for c, item in enumerate(raw if isinstance(raw, list) else ()):
        members, proposal = class_item(item)
        yield Entry(c, members, members_path(item, c), proposal is not None)


def accepted(raw: Any) -> list[list[Any]]:
    """The members of every accepted class (what scoring reads)."""
    return [e.members for e in entries(raw) if not e.proposed]


def check(view: View) -> list[Finding]:
    relevant = set(view.get(("relevant_doc_ids",)) or ())
    judged = relevant | set(view.get(("judged_ids",)) or ())
    out: list[Finding] = []
    home: dict[str, int] = {}
    for entry in entries(view.get(("relevant_classes",))):
        c, members = entry.index, entry.members
        if entry.proposed and len(members) < 2:
            line, col = view.pos(entry.path)
            message = f"relevant_classes[{c}]: a proposed class names two documents or more"
            out.append(Finding("", line, col, "LP061", message))
        if entry.proposed:
            line, col = view.pos(("relevant_classes", c, "proposed"))
            message = (
                f"relevant_classes[{c}]: proposed class {', '.join(map(str, members))} waits "
                "for review (delete the `proposed:` line to accept it, the entry to reject it)"
            )
            out.append(Finding("", line, col, "LP062", message))
        elif not judged.intersection(members):
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


def supersession(classes: Sequence[Any], versions: Versions, locate: Locate) -> list[Finding]:
    """LP031 for one file's classes, accepted and proposed, as written in its
    ``relevant_classes`` (``locate`` gives a keypath's position in that file)."""
    out: list[Finding] = []
    for entry in entries(list(classes)):
        c, members = entry.index, entry.members
        for i, newer in enumerate(members):
            for older in members:
                if newer != older and versions.supersedes(newer, older):
                    line, col = locate((*entry.path, i))
                    out.append(
                        Finding(
                            "",
                            line,
                            col,
                            "LP031",
                            f"relevant_classes[{c}]: {newer} supersedes {older}; "
                            "a class must not mix versions (keep the current one)",
                        )
                    )
    return out
