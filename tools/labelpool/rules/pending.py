"""LP034-LP035: pending verdicts resolved before merging; a duplicate-of names another document."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from labelpool.findings import Finding
from labelpool.rules.view import View


def self_duplicates(data: Any) -> Iterator[tuple[int, int, Any]]:
    """(batch index, entry index, document) of each pending entry whose verdict names the
    document itself as its duplicate, in plain label data (LP035; what :func:`check` reports,
    and what :func:`labelpool.rules.written.first_new_error` asks of a text about to be
    written)."""
    pending = data.get("pending") if isinstance(data, dict) else None
    for b, batch in enumerate(pending if isinstance(pending, list) else ()):
        docs = batch.get("docs") if isinstance(batch, dict) else None
        for i, doc in enumerate(docs if isinstance(docs, list) else ()):
            verdict = doc.get("verdict") if isinstance(doc, dict) else None
            if isinstance(verdict, dict) and verdict.get("duplicate-of") == doc.get("doc"):
                yield b, i, doc.get("doc")


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    for b, batch in view.items(("pending",)):
        for i, doc in view.items(("pending", b, "docs")):
            if doc.get("verdict") is None:
                line, col = view.pos(("pending", b, "docs", i))
                out.append(
                    Finding(
                        "",
                        line,
                        col,
                        "LP034",
                        f"pending[{b}] ({batch.get('batch')}): {doc.get('doc')} has no verdict yet",
                    )
                )
    for b, i, doc_id in self_duplicates(view.data):
        vline, vcol = view.pos(("pending", b, "docs", i, "verdict"))
        out.append(
            Finding(
                "",
                vline,
                vcol,
                "LP035",
                f"pending[{b}].docs[{i}]: {doc_id} cannot be a duplicate of itself",
            )
        )
    return out
