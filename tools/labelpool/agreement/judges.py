"""Per judge: how often the judge is the odd one out, and the judge's grades.

The odd one out of a document with three or more verdicts is the judge whose grade differs
while every other judge of it gave one and the same grade (on 0 1 2 nobody is singled out). A
document with two verdicts that disagree cannot say which judge is odd: it is counted, for
both, as a disagreement of two (``split``), not as odd one out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from labelpool.agreement.panel import Panel


@dataclass(frozen=True)
class JudgeRow:
    judge: str
    documents: int  # documents of the panel this judge graded
    questions: int
    odd_one_out: int  # ... of ``of`` documents with three or more verdicts
    of: int
    split: int  # documents with two verdicts where the other judge gave another grade
    grades: tuple[int, ...]  # how many of each grade of the panel (``Panel.values``)


def rows(panel: Panel) -> list[JudgeRow]:
    grades, question = panel.grades, panel.question
    present = ~np.isnan(grades)
    verdicts = present.sum(axis=1)
    out = []
    for j, judge in enumerate(panel.judges):
        mine = present[:, j]
        others = np.delete(grades, j, axis=1)
        with np.errstate(invalid="ignore"):
            low = np.nanmin(np.where(np.isnan(others), np.inf, others), axis=1)
            high = np.nanmax(np.where(np.isnan(others), -np.inf, others), axis=1)
        own = grades[:, j]
        many = mine & (verdicts >= 3)
        two = mine & (verdicts == 2)
        counts = np.bincount(np.searchsorted(panel.values, own[mine]), minlength=panel.values.size)
        out.append(
            JudgeRow(
                judge=judge,
                documents=int(mine.sum()),
                questions=int(np.unique(question[mine]).size),
                odd_one_out=int((many & (low == high) & (low != own)).sum()),
                of=int(many.sum()),
                split=int((two & (low != own)).sum()),
                grades=tuple(int(c) for c in counts),
            )
        )
    return out
