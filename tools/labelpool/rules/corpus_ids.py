"""LP038: judged ids missing from the configured corpus (stale ids after re-chunking)."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

from labelpool.findings import Finding
from labelpool.rules.classes import entries
from labelpool.rules.view import KeyPath


def check(
    lists: Mapping[str, Sequence[str]],
    classes: Sequence[Any],
    corpus_ids: Container[str],
    locate: Callable[[KeyPath], tuple[int, int]],
) -> list[Finding]:
    """Findings for one file's judged ids that the corpus lacks (first occurrence of each);
    ``classes`` as written, proposals too."""
    out: list[Finding] = []
    seen: set[str] = set()
    where: list[tuple[KeyPath, Sequence[str]]] = [((k,), v) for k, v in lists.items()]
    where += [(e.path, e.members) for e in entries(list(classes))]
    for keypath, docs in where:
        for i, doc in enumerate(docs):
            if doc in seen or doc in corpus_ids:
                continue
            seen.add(doc)
            line, col = locate((*keypath, i))
            out.append(
                Finding(
                    "",
                    line,
                    col,
                    "LP038",
                    f"{doc} is not in the corpus (re-chunked or renamed?)",
                    "warning",
                )
            )
    return out
