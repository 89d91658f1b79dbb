"""The panel: every document with verdicts by at least two judges, as a matrix.

One row (a *unit*) per (question, document), one column per judge, the judge's grade or NaN
where that judge gave none; ``question`` maps each row to its question (the bootstrap resamples
questions, so that the documents of one question, which one judge saw together, stay together).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Panel:
    judges: tuple[str, ...]
    questions: tuple[str, ...]
    docs: tuple[str, ...]  # the document of each row
    question: np.ndarray  # (units,) int64: index into ``questions``
    grades: np.ndarray  # (units, judges) float64, NaN: no verdict

    @property
    def units(self) -> int:
        return int(self.grades.shape[0])

    @property
    def scale(self) -> int:
        """Number of grade categories: 0 .. the highest grade given (at least 0 and 1)."""
        present = self.grades[~np.isnan(self.grades)]
        top = int(present.max()) if present.size else 0
        return max(top, 1) + 1


def build(
    judges: Sequence[str],
    questions: Sequence[str],
    rows: Sequence[tuple[int, str, Sequence[float]]],
) -> Panel:
    """A panel from ``rows``: (question index, document, one grade or NaN per judge)."""
    grades = np.full((len(rows), len(judges)), np.nan)
    for i, (_, _, gs) in enumerate(rows):
        grades[i] = gs
    return Panel(
        judges=tuple(judges),
        questions=tuple(questions),
        docs=tuple(r[1] for r in rows),
        question=np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
        grades=grades,
    )


def value_counts(grades: np.ndarray, scale: int) -> np.ndarray:
    """(units, scale) int64: how many judges gave each grade to each unit."""
    out = np.zeros((grades.shape[0], scale), dtype=np.int64)
    rows, cols = np.nonzero(~np.isnan(grades))
    np.add.at(out, (rows, grades[rows, cols].astype(np.int64)), 1)
    return out
