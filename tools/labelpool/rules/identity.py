"""LP022-LP024: the id names the file, ids are unique across files, ids are NFC."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from labelpool.findings import Finding
from labelpool.rules.classes import entries
from labelpool.rules.view import KeyPath, View


def fold(qid: str) -> str:
    """The form two ids must not share: NFC, then case-folded."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", qid).casefold())


def stem_mismatch(qid: str, line: int, col: int, stem: str) -> list[Finding]:
    if qid == stem:
        return []
    return [
        Finding(
            "",
            line,
            col,
            "LP022",
            f"id: {qid} does not match the file name {stem}; rename the file to "
            f"{qid}.yaml or fix the id",
        )
    ]


def non_nfc(view: View) -> list[Finding]:
    out: list[Finding] = []
    qid = view.get(("id",))
    if isinstance(qid, str) and not unicodedata.is_normalized("NFC", qid):
        line, col = view.pos(("id",))
        out.append(Finding("", line, col, "LP024", "id: not in Unicode NFC form"))
    lists: list[tuple[KeyPath, str]] = [
        ((key,), key) for key in ("relevant_doc_ids", "judged_ids", "pooled_unjudged_ids")
    ]
    lists += [
        (e.path, f"relevant_classes[{e.index}]") for e in entries(view.get(("relevant_classes",)))
    ]
    for keypath, label in lists:
        docs = view.get(keypath)
        if not isinstance(docs, list) or "".join(map(str, docs)).isascii():
            continue
        for i, doc in enumerate(docs):
            if (
                isinstance(doc, str)
                and not doc.isascii()
                and not unicodedata.is_normalized("NFC", doc)
            ):
                line, col = view.pos((*keypath, i))
                out.append(
                    Finding("", line, col, "LP024", f"{label}: {doc!r} is not in Unicode NFC form")
                )
    return out


def duplicates(ids: Sequence[tuple[str, str, int, int]]) -> list[Finding]:
    """LP023 over (path, id, line, col) of every label file: one finding per file involved."""
    groups: dict[str, list[tuple[str, str, int, int]]] = {}
    for entry in ids:
        groups.setdefault(fold(entry[1]), []).append(entry)
    out: list[Finding] = []
    for group in groups.values():
        if len(group) < 2:
            continue
        for path, qid, line, col in group:
            others = ", ".join(f"{p} ({q})" for p, q, _, _ in group if p != path)
            out.append(Finding(path, line, col, "LP023", f"id: {qid} is also used by {others}"))
    return out
