"""LP029-LP031: relevance classes hold a relevant document, do not overlap, never mix versions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from labelpool.findings import Finding
from labelpool.rules.view import KeyPath, View

if TYPE_CHECKING:  # a type only: corpus (and its jsonschema) stays off score's import path
    from labelpool.corpus import Versions

Locate = Callable[[KeyPath], tuple[int, int]]


def check(view: View) -> list[Finding]:
    relevant = set(view.get(("relevant_doc_ids",)) or ())
    out: list[Finding] = []
    home: dict[str, int] = {}
    for c, members in view.items(("relevant_classes",)):
        if not relevant.intersection(members):
            line, col = view.pos(("relevant_classes", c))
            out.append(
                Finding(
                    "",
                    line,
                    col,
                    "LP029",
                    f"relevant_classes[{c}]: no member is in relevant_doc_ids",
                )
            )
        for i, doc in enumerate(members):
            if doc in home and home[doc] != c:
                line, col = view.pos(("relevant_classes", c, i))
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


def supersession(
    classes: Sequence[Sequence[str]], versions: Versions, locate: Locate
) -> list[Finding]:
    """LP031 for one file's classes (``locate`` gives a keypath's position in that file)."""
    out: list[Finding] = []
    for c, members in enumerate(classes):
        for i, newer in enumerate(members):
            for older in members:
                if newer != older and versions.supersedes(newer, older):
                    line, col = locate(("relevant_classes", c, i))
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
