"""Every figure of ``labelpool agreement`` from a panel, each with its weighting, its 95%
bootstrap interval (questions resampled) and the documents, questions and judges behind it.

A figure that is undefined has ``value`` None and a ``reason`` (never NaN): no document with
two verdicts, or every verdict the same value (chance disagreement 0: alpha and kappa divide by
it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from labelpool.agreement import alpha, gwet, kappa
from labelpool.agreement.blocks import Block, by_question, safe_divide
from labelpool.agreement.bootstrap import interval, replicates_of
from labelpool.agreement.judges import JudgeRow, rows
from labelpool.agreement.panel import Panel, categories, relevance, value_counts

NO_PAIRS = "no document with two verdicts"
ONE_VALUE = "all verdicts agree on one value: no disagreement expected by chance"
ONE_GRADE_EACH = "both judges gave one and the same value throughout: no chance disagreement"
GRADES = "grades"
RELEVANCE = "relevance"  # relevant (grade 1 or more) or not


@dataclass(frozen=True)
class Figure:
    statistic: str  # "Krippendorff's alpha"
    weighting: str  # what it compares and how: "ordinal metric, grades"
    value: float | None
    reason: str | None  # why ``value`` is None
    interval: tuple[float, float] | None  # 95% bootstrap, questions resampled
    documents: int
    questions: int
    judges: int


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    documents: int  # documents both judged
    questions: int
    confusion: tuple[tuple[int, ...], ...]  # rows: first's grade, columns: second's
    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class Summary:
    values: tuple[int, ...]  # the grades given (the categories)
    documents: int
    questions: int
    judges: int
    figures: tuple[Figure, ...]
    pairs: tuple[Pair, ...]
    judge_rows: tuple[JudgeRow, ...]
    replicates: int
    seed: int


@dataclass(frozen=True)
class _Spec:
    """A figure before its numbers: the statistic's block and what stands behind it."""

    statistic: str
    weighting: str
    block: Block
    undefined: str
    documents: int
    questions: int
    judges: int


def _raw_block(question: np.ndarray, counts: np.ndarray) -> Block:
    """Agreeing pairs of verdicts over all pairs, summed over documents."""
    counts = counts.astype(np.float64)
    r = counts.sum(axis=1)
    per_unit = np.column_stack([(counts * (counts - 1)).sum(axis=1), r * (r - 1)])
    return by_question(question, per_unit, lambda s: safe_divide(s[..., 0], s[..., 1]))


def _overall(panel: Panel, pairable: np.ndarray) -> list[_Spec]:
    question = panel.question[pairable]
    values = panel.values
    counts = value_counts(panel.grades[pairable], values)
    relevant = relevance(counts, values)
    two = np.array([0, 1])
    docs = int(pairable.sum())
    questions = int(np.unique(question).size)
    judges = int((~np.isnan(panel.grades[pairable])).any(axis=0).sum())

    def spec(statistic: str, weighting: str, block: Block, undefined: str) -> _Spec:
        return _Spec(statistic, weighting, block, undefined, docs, questions, judges)

    return [
        spec(
            "Krippendorff's alpha",
            f"ordinal, {GRADES}",
            alpha.block(question, counts, alpha.ORDINAL),
            ONE_VALUE,
        ),
        spec(
            "Krippendorff's alpha",
            f"nominal, {RELEVANCE}",
            alpha.block(question, relevant, alpha.NOMINAL),
            ONE_VALUE,
        ),
        spec(
            "Gwet's AC2",
            f"quadratic weights, {GRADES}",
            gwet.block(question, counts, values, gwet.QUADRATIC),
            ONE_VALUE,
        ),
        spec(
            "Gwet's AC1",
            f"unweighted, {RELEVANCE}",
            gwet.block(question, relevant, two, gwet.IDENTITY),
            ONE_VALUE,
        ),
        spec(
            "raw agreement",
            GRADES,
            _raw_block(question, counts),
            NO_PAIRS,
        ),
        spec(
            "raw agreement",
            RELEVANCE,
            _raw_block(question, relevant),
            NO_PAIRS,
        ),
    ]


def _pair(panel: Panel, i: int, j: int) -> tuple[np.ndarray, list[_Spec]] | None:
    both = ~np.isnan(panel.grades[:, i]) & ~np.isnan(panel.grades[:, j])
    if not both.any():
        return None
    values = panel.values
    indices = categories(panel.grades[both][:, [i, j]], values)
    a, b = indices[:, 0], indices[:, 1]
    question = panel.question[both]
    grades = kappa.confusion_block(question, a, b, values)
    docs, questions = int(both.sum()), int(np.unique(question).size)

    def spec(statistic: str, weighting: str, name: str, threshold: bool, why: str) -> _Spec:
        block = kappa.statistic(grades, values, name, threshold)
        return _Spec(statistic, weighting, block, why, docs, questions, 2)

    specs = [
        spec("raw agreement", GRADES, "raw", False, NO_PAIRS),
        spec("raw agreement", RELEVANCE, "raw", True, NO_PAIRS),
        spec("Cohen's kappa", f"unweighted, {RELEVANCE}", kappa.PLAIN, True, ONE_GRADE_EACH),
        spec(
            "Cohen's kappa", f"quadratic weights, {GRADES}", kappa.QUADRATIC, False, ONE_GRADE_EACH
        ),
    ]
    return kappa.confusion(a, b, values.size), specs


def _figure(spec: _Spec, replicates: np.ndarray) -> Figure:
    """``spec``'s figure; no interval from fewer than two questions (every resample the same)."""
    value = spec.block.point() if spec.documents else math.nan
    defined = not math.isnan(value)
    return Figure(
        statistic=spec.statistic,
        weighting=spec.weighting,
        value=value if defined else None,
        reason=None if defined else (spec.undefined if spec.documents else NO_PAIRS),
        interval=interval(replicates) if defined and spec.questions >= 2 else None,
        documents=spec.documents,
        questions=spec.questions,
        judges=spec.judges,
    )


def summarise(panel: Panel, replicates: int = 1000, seed: int = 0) -> Summary:
    """Every figure of the panel; ``replicates`` bootstrap resamples of its questions."""
    pairable = (~np.isnan(panel.grades)).sum(axis=1) >= 2
    overall = _overall(panel, pairable)
    pairs: list[tuple[int, int, np.ndarray, list[_Spec]]] = []
    for i, j in combinations(range(len(panel.judges)), 2):
        found = _pair(panel, i, j)
        if found is not None:
            pairs.append((i, j, *found))
    specs = overall + [s for *_, specs in pairs for s in specs]
    drawn = replicates_of([s.block for s in specs], len(panel.questions), replicates, seed)
    figures = [_figure(s, r) for s, r in zip(specs, drawn, strict=True)]
    out_pairs = []
    at = len(overall)
    for i, j, confusion, pair_specs in pairs:
        mine = figures[at : at + len(pair_specs)]
        at += len(pair_specs)
        out_pairs.append(
            Pair(
                first=panel.judges[i],
                second=panel.judges[j],
                documents=pair_specs[0].documents,
                questions=pair_specs[0].questions,
                confusion=tuple(tuple(int(c) for c in row) for row in confusion),
                figures=tuple(mine),
            )
        )
    return Summary(
        values=tuple(int(v) for v in panel.values),
        documents=int(pairable.sum()),
        questions=int(np.unique(panel.question[pairable]).size),
        judges=overall[0].judges,
        figures=tuple(figures[: len(overall)]),
        pairs=tuple(out_pairs),
        judge_rows=tuple(rows(panel)),
        replicates=replicates,
        seed=seed,
    )
