"""A block of questions as (question x rank) matrices, and what every measure reads from it.

trec_eval sums term by term in rank order; a running sum along a matrix row
(``np.cumsum(axis=1)``) is that same sequence of additions, so every value here is the double
trec_eval computes, not merely close to it (``np.sum`` would add pairwise and could differ in
the last bit, enough to flip a fourth decimal). Logarithms come from the C library
(:func:`math.log2`), as trec_eval's do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from labelpool.scoring.trec_eval.lists import NONPOOL, PAD, UNJUDGED

_LOG2: list[np.ndarray] = [np.zeros(0)]


def log2_int(values: np.ndarray) -> np.ndarray:
    """``log2`` of non-negative integers (as doubles) through the C library, via a table."""
    top = int(values.max()) + 1 if values.size else 1
    table = _LOG2[0]
    if len(table) < top:
        size = max(top, 2 * len(table), 4096)
        with np.errstate(divide="ignore"):
            table = np.array([math.log2(i) if i else -math.inf for i in range(size)])
        _LOG2[0] = table
    return table[values.astype(np.int64)]


def log2_any(values: np.ndarray) -> np.ndarray:
    """``log2`` of any doubles through the C library (integers take the table)."""
    if values.size and np.all(values == np.floor(values)) and values.min() >= 0:
        return log2_int(values)
    flat = [math.log2(v) if v > 0 else (-math.inf if v == 0 else math.nan) for v in values.flat]
    return np.array(flat, dtype=np.float64).reshape(values.shape)


def running(terms: np.ndarray) -> np.ndarray:
    """Running sums along each row, added one term at a time (as trec_eval's loops)."""
    return np.cumsum(terms, axis=1)


def total(terms: np.ndarray) -> np.ndarray:
    """Each row's sum, added one term at a time in rank order."""
    if terms.shape[1] == 0:
        return np.zeros(terms.shape[0])
    return np.cumsum(terms, axis=1)[:, -1]


def at_rank(matrix: np.ndarray, count: np.ndarray) -> np.ndarray:
    """``matrix[q, count[q] - 1]`` (the running value after ``count`` ranks), 0 for count 0."""
    idx = np.clip(count - 1, 0, matrix.shape[1] - 1)
    out = matrix[np.arange(matrix.shape[0]), idx]
    return np.where(count > 0, out, 0).astype(matrix.dtype)


def divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` where ``den`` is not 0, else 0 (trec_eval's guarded divisions)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    ok = den != 0
    np.divide(num, den, out=out, where=ok)
    return out


@dataclass(frozen=True, eq=False)
class Chunk:
    """Questions ``rel.shape[0]``, ranks ``rel.shape[1]``; PAD beyond each ranking."""

    rel: np.ndarray  # int64 (questions, ranks)
    n: np.ndarray  # int64 num_ret per question
    levels: np.ndarray  # int64 (questions, grades): judged qrels documents per grade
    level: int  # relevance level (-l)
    judged_grades: np.ndarray  # int64 per question: qrels rows with a grade >= 0

    @property
    def m(self) -> int:
        return int(self.rel.shape[0])

    @property
    def width(self) -> int:
        return int(self.rel.shape[1])

    @cached_property
    def valid(self) -> np.ndarray:
        out: np.ndarray = self.rel != PAD
        return out

    @cached_property
    def rank(self) -> np.ndarray:
        """1-based rank of each column, as doubles."""
        return np.arange(1, self.width + 1, dtype=np.float64)

    @cached_property
    def isrel(self) -> np.ndarray:
        out: np.ndarray = self.rel >= self.level
        return out

    @cached_property
    def cum(self) -> np.ndarray:
        """Relevant documents in the top i+1 (int64)."""
        return np.cumsum(self.isrel, axis=1, dtype=np.int64)

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        return at_rank(self.cum, self.n)

    @cached_property
    def num_rel(self) -> np.ndarray:
        out: np.ndarray = self.levels[:, max(self.level, 0) :].sum(axis=1)
        return out

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """Judged qrels documents below the relevance level (bpref's denominator)."""
        out: np.ndarray = self.levels[:, : max(self.level, 0)].sum(axis=1)
        return out

    @cached_property
    def nonrel(self) -> np.ndarray:
        """Judged retrieved documents below the relevance level."""
        out: np.ndarray = (self.rel >= 0) & (self.rel < self.level)
        return out

    @cached_property
    def unjudged(self) -> np.ndarray:
        """Retrieved documents without a judgment (not in the pool, or pooled unjudged)."""
        out: np.ndarray = (self.rel == NONPOOL) | (self.rel == UNJUDGED)
        return out

    @cached_property
    def num_rel_levels(self) -> np.ndarray:
        """1 + the highest grade with a judged qrels document (0: none)."""
        present = self.levels > 0
        top = self.levels.shape[1] - np.argmax(present[:, ::-1], axis=1)
        return np.where(present.any(axis=1), top, 0).astype(np.int64)

    def count_at(self, cut: int) -> np.ndarray:
        """Relevant documents in the top ``min(cut, num_ret)``."""
        return at_rank(self.cum, np.minimum(self.n, cut))

    @cached_property
    def ap_terms(self) -> np.ndarray:
        """``rel_so_far / rank`` at each relevant document, 0 elsewhere (map's terms)."""
        return np.where(self.isrel, self.cum / self.rank, 0.0)
