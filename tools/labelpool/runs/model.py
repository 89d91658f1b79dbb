"""A run in memory: one system's ranked documents for every question, in trec_eval order."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from labelpool.runs.arrow import arrow_array, ranks_within


@dataclass(frozen=True, eq=False)
class Run:
    """One system's ranked documents for every question, in trec_eval order."""

    name: str
    path: Path
    sha256: str
    qids: np.ndarray
    offsets: np.ndarray
    doc_codes: np.ndarray  # int32: each row's document as an index into ``doc_vocab``
    doc_vocab: pa.Array  # the run's distinct document ids (pyarrow strings, no order)
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.doc_codes)

    @cached_property
    def docs(self) -> pa.Array:
        """Document ids of every row in ranked order (a pyarrow string array)."""
        return self.doc_vocab.take(arrow_array(self.doc_codes.astype("int64")))

    @cached_property
    def qid_set(self) -> frozenset[str]:
        return frozenset(str(q) for q in self.qids)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {str(q): i for i, q in enumerate(self.qids)}

    def qid_index(self, qid: str) -> int | None:
        return self._index.get(qid)

    def ranking(self, qid: str) -> list[str]:
        """Document ids for ``qid`` in trec_eval order (empty when the run lacks it)."""
        i = self._index.get(qid)
        if i is None:
            return []
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        rows = self.doc_codes[a:b].astype("int64")
        return [str(d) for d in self.doc_vocab.take(arrow_array(rows)).to_pylist()]

    def top(self, k: int) -> dict[str, list[str]]:
        """The first ``k`` documents of every question, in trec_eval order."""
        counts = np.minimum(np.diff(self.offsets), max(k, 0))
        if len(counts) == 0:
            return {}
        starts = self.offsets[:-1]
        rows = np.repeat(starts, counts) + ranks_within(counts)
        codes = self.doc_codes[rows].astype(np.int64)
        docs = self.doc_vocab.take(arrow_array(codes)).to_pylist()
        out: dict[str, list[str]] = {}
        pos = 0
        for q, c in zip(self.qids, counts, strict=True):
            out[str(q)] = docs[pos : pos + int(c)]
            pos += int(c)
        return out

    @cached_property
    def tied_questions(self) -> tuple[str, ...]:
        """Questions with two or more documents whose scores are all equal (order = doc id)."""
        n = np.diff(self.offsets)
        if len(n) == 0:
            return ()
        starts = self.offsets[:-1]
        has = n >= 2
        mx = _segment_reduce(np.maximum, self.scores, starts, n, -np.inf)
        mn = _segment_reduce(np.minimum, self.scores, starts, n, np.inf)
        tied = has & (mx == mn)
        return tuple(str(q) for q in self.qids[tied])


def _segment_reduce(
    ufunc: Any, values: np.ndarray, starts: np.ndarray, counts: np.ndarray, empty: float
) -> np.ndarray:
    out = np.full(len(counts), empty)
    nonempty = counts > 0
    if nonempty.any():
        out[nonempty] = ufunc.reduceat(values, starts[nonempty])
    return out
