"""LP025-LP028, LP040: relevant within judged, no duplicates, grades' scope, code-point order."""

from __future__ import annotations

import itertools
from collections.abc import Container, Iterable, Sequence
from typing import Any

from labelpool.findings import Finding
from labelpool.rules.classes import accepted, entries
from labelpool.rules.schema import dotted
from labelpool.rules.view import KeyPath, View

DOC_LISTS = ("relevant_doc_ids", "judged_ids", "pooled_unjudged_ids")


def _doc_lists(view: View) -> list[KeyPath]:
    paths: list[KeyPath] = [(k,) for k in DOC_LISTS if isinstance(view.get((k,)), list)]
    paths.extend(e.path for e in entries(view.get(("relevant_classes",))))
    for b, batch in enumerate(view.get(("pending",)) or []):
        if isinstance(batch, dict) and isinstance(batch.get("systems"), list):
            paths.append(("pending", b, "systems"))
    return paths


def _label(keypath: KeyPath) -> str:
    return dotted(keypath)


def duplicates(view: View) -> list[Finding]:
    out: list[Finding] = []
    for keypath in _doc_lists(view):
        seen: dict[Any, int] = {}
        for i, item in view.items(keypath):
            if item in seen:
                line, col = view.pos((*keypath, i))
                out.append(
                    Finding(
                        "",
                        line,
                        col,
                        "LP026",
                        f"{_label(keypath)}: {item} is listed twice (first as item "
                        f"{seen[item] + 1})",
                    )
                )
            else:
                seen[item] = i
    for b, batch in enumerate(view.get(("pending",)) or []):
        seen_docs: set[str] = set()
        for i, doc in enumerate(batch.get("docs") or []):
            if doc.get("doc") in seen_docs:
                line, col = view.pos(("pending", b, "docs", i))
                out.append(
                    Finding(
                        "", line, col, "LP026", f"pending[{b}].docs: {doc['doc']} is listed twice"
                    )
                )
            seen_docs.add(doc.get("doc"))
    return out


def order(view: View) -> list[Finding]:
    out: list[Finding] = []
    for keypath in _doc_lists(view):
        if keypath[0] == "pending":
            continue
        items = view.get(keypath)
        i = _first_descent(items)
        if i is not None:
            message = (
                f"{_label(keypath)}: {items[i]} comes before {items[i - 1]} in code-point order"
            )
            out.append(_unordered(view, (*keypath, i), message))
    classes = [c for c in entries(view.get(("relevant_classes",))) if c.extends is None]
    firsts = [c.members[0] if c.members else "" for c in classes]
    i = _first_descent(firsts)
    if i is not None:
        message = (
            f"relevant_classes: the class starting with {firsts[i]} comes before "
            f"the one starting with {firsts[i - 1]}"
        )
        out.append(_unordered(view, ("relevant_classes", classes[i].index), message))
    return out


def _first_descent(items: Sequence[Any]) -> int | None:
    """The index of the first item smaller than the one before it (None: in order)."""
    for i, (prev, item) in enumerate(itertools.pairwise(items)):
        if item < prev:
            return i + 1
    return None


def _unordered(view: View, keypath: KeyPath, message: str) -> Finding:
    line, col = view.pos(keypath)
    return Finding("", line, col, "LP028", f"{message}; `labelpool fmt` fixes it", "warning")


def unjudged_relevant(relevant: Iterable[Any], judged: Container[Any]) -> list[int]:
    """LP025: indexes of the relevant documents that are not judged."""
    return [i for i, doc in enumerate(relevant) if doc not in judged]


def judged_pooled_unjudged(pooled_unjudged: Iterable[Any], judged: Container[Any]) -> list[int]:
    """LP040: indexes of the pooled-unjudged documents that are judged (``judged_ids`` and
    class members)."""
    return [i for i, doc in enumerate(pooled_unjudged) if doc in judged]


def graded_out_of_scope(
    grades: Iterable[Any], relevant: Iterable[Any], classes: Iterable[Iterable[Any]]
) -> list[Any]:
    """LP027: graded documents neither relevant nor in a relevance class."""
    allowed = set(relevant)
    allowed |= {d for c in classes for d in c}
    return [doc for doc in grades if doc not in allowed]


def _at(view: View, keypath: KeyPath, rule: str, message: str, key: bool = False) -> Finding:
    """The finding ``rule`` at the node on ``keypath`` (its key's node with ``key``)."""
    line, col = view.pos(keypath, key=key)
    return Finding("", line, col, rule, message)


def within_judged(view: View) -> list[Finding]:
    judged = set(view.get(("judged_ids",)) or ())
    out: list[Finding] = []
    relevant = view.get(("relevant_doc_ids",)) or []
    for i in unjudged_relevant(relevant, judged):
        message = f"relevant_doc_ids: {relevant[i]} is not in judged_ids (add it there)"
        out.append(_at(view, ("relevant_doc_ids", i), "LP025", message))
    judged |= {d for c in accepted(view.get(("relevant_classes",))) for d in c}
    pooled = view.get(("pooled_unjudged_ids",)) or []
    for i in judged_pooled_unjudged(pooled, judged):
        message = f"pooled_unjudged_ids: {pooled[i]} is judged; remove it from pooled_unjudged_ids"
        out.append(_at(view, ("pooled_unjudged_ids", i), "LP040", message))
    return out


def grades_scope(view: View) -> list[Finding]:
    out_of_scope = graded_out_of_scope(
        view.get(("grades",)) or {},
        view.get(("relevant_doc_ids",)) or (),
        accepted(view.get(("relevant_classes",))),
    )
    return [
        _at(
            view,
            ("grades", doc),
            "LP027",
            f"grades: {doc} is neither relevant nor in a relevance class "
            "(a judged-irrelevant document has grade 0 and no entry here)",
            key=True,
        )
        for doc in out_of_scope
    ]


def check(view: View) -> list[Finding]:
    return duplicates(view) + order(view) + within_judged(view) + grades_scope(view)
