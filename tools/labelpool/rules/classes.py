"""LP029-LP031: relevance classes hold a relevant document, do not overlap, never mix versions."""

from __future__ import annotations

from collections.abc import Sequence

from labelpool.findings import Finding
from labelpool.rules.view import View

# A class as per-file facts: its members with their positions (line, col).
ClassFacts = Sequence[tuple[str, int, int]]


def class_facts(view: View) -> list[list[tuple[str, int, int]]]:
    out: list[list[tuple[str, int, int]]] = []
    for c, _, _ in view.items(("relevant_classes",)):
        members = view.items(("relevant_classes", c))
        out.append([(doc, line, col) for _, doc, (line, col) in members])
    return out


def check(view: View) -> list[Finding]:
    relevant = set(view.get(("relevant_doc_ids",)) or ())
    out: list[Finding] = []
    home: dict[str, int] = {}
    for c, members, (line, col) in view.items(("relevant_classes",)):
        if not relevant.intersection(members):
            out.append(Finding("", line, col, "LP029",
                               f"relevant_classes[{c}]: no member is in relevant_doc_ids"))
        for _, doc, (dl, dc) in view.items(("relevant_classes", c)):
            if doc in home and home[doc] != c:
                out.append(Finding("", dl, dc, "LP030",
                                   f"relevant_classes[{c}]: {doc} is also in "
                                   f"relevant_classes[{home[doc]}]; merge the two classes"))
            home.setdefault(doc, c)
    return out


def supersession(classes: Sequence[ClassFacts], versions: object) -> list[Finding]:
    """LP031 for one file's classes; ``versions`` is a :class:`labelpool.corpus.Versions`."""
    from labelpool.corpus import Versions

    assert isinstance(versions, Versions)
    out: list[Finding] = []
    for c, members in enumerate(classes):
        for newer, line, col in members:
            for older, _, _ in members:
                if newer != older and versions.supersedes(newer, older):
                    out.append(Finding("", line, col, "LP031",
                                       f"relevant_classes[{c}]: {newer} supersedes {older}; "
                                       "a class must not mix versions (keep the current one)"))
    return out
