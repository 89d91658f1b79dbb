"""A statistic as sums over questions: a block of per-question features and a function of
their sums.

Every statistic of ``labelpool agreement`` is a function of sums over documents (a coincidence
matrix, a confusion matrix, counts of agreeing pairs). Summed per question first, the sums of a
bootstrap replicate (questions drawn with replacement) are a matrix product ``W @ values``
(``W``: how often each question was drawn), for every replicate at once
(:mod:`labelpool.agreement.bootstrap`). A block keeps only the questions that have features
(``rows``), so that a pair of judges who shared a few questions costs a few rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Finish = Callable[[np.ndarray], np.ndarray]
"""Sums ``(..., features)`` -> the statistic ``(...)``, NaN where it is undefined."""


@dataclass(frozen=True, eq=False)
class Block:
    rows: np.ndarray  # (r,) int64: the questions with features, ascending
    values: np.ndarray  # (r, features) float64: each question's sums
    finish: Finish

    def point(self) -> float:
        """The statistic over every question (NaN: undefined)."""
        return float(self.finish(self.values.sum(axis=0)[None, :])[0])

    def again(self, finish: Finish) -> Block:
        """The same sums, another statistic (the bootstrap draws them once)."""
        return Block(self.rows, self.values, finish)


def by_question(question: np.ndarray, per_unit: np.ndarray, finish: Finish) -> Block:
    """A block from per-unit features (``(units, features)``) summed per question."""
    rows, inverse = np.unique(question, return_inverse=True)
    values = np.zeros((rows.size, per_unit.shape[1]))
    np.add.at(values, inverse.reshape(-1), per_unit)
    return Block(rows.astype(np.int64), values, finish)


def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den``, NaN where ``den`` is 0 (no warning)."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), den)
    out = np.full(num.shape, np.nan)
    np.divide(num, den, out=out, where=den != 0)
    return out
