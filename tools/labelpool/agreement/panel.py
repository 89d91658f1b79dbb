"""The panel: every document with verdicts by at least two judges, as a matrix.

One row (a *unit*) per (question, document), one column per judge, the judge's grade or NaN
where that judge gave none. Categories are the grades given on the panel (at most
:data:`MAX_CATEGORIES`, so that the per-question coincidence and confusion matrices stay
small); ``question`` maps each row to its question (the bootstrap resamples
questions, so that the documents of one question, which one judge saw together, stay together).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAX_CATEGORIES = 32


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
    def values(self) -> np.ndarray:
        """The categories: every grade given on the panel, ascending (int64; ``[0]`` when
        none is). Grades absent from the panel are no category (as the ``krippendorff``
        package's default value domain and irrCAC's categories)."""
        present = np.unique(self.grades[~np.isnan(self.grades)]).astype(np.int64)
        return present if present.size else np.zeros(1, dtype=np.int64)


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


def categories(grades: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each grade as its index in ``values`` (NaN stays NaN)."""
    out = np.full(grades.shape, np.nan)
    present = ~np.isnan(grades)
    out[present] = np.searchsorted(values, grades[present])
    return out


def value_counts(grades: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(units, len(values)) int64: how many judges gave each grade of ``values`` to each unit
    (every grade given must be one of ``values``)."""
    out = np.zeros((grades.shape[0], values.size), dtype=np.int64)
    rows, cols = np.nonzero(~np.isnan(grades))
    np.add.at(out, (rows, np.searchsorted(values, grades[rows, cols])), 1)
    return out


def relevance(counts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(units, 2): verdicts below the relevance threshold (grade 0) and at or above it."""
    relevant = values >= 1
    return np.column_stack([counts[:, ~relevant].sum(axis=1), counts[:, relevant].sum(axis=1)])
