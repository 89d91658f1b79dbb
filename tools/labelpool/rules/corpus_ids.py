"""LP038: judged ids missing from the configured corpus (stale ids after re-chunking)."""

from __future__ import annotations

from collections.abc import Container, Sequence

from labelpool.findings import Finding


def check(docs: Sequence[tuple[str, int, int]], corpus_ids: Container[str]) -> list[Finding]:
    """Findings for one file's judged ids (doc, line, col) that the corpus lacks."""
    return [
        Finding("", line, col, "LP038",
                f"{doc} is not in the corpus (re-chunked or renamed?)", "warning")
        for doc, line, col in docs
        if doc not in corpus_ids
    ]
