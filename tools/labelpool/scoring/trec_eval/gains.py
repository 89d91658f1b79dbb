"""trec_eval's gain measures: ``ndcg`` (``dcg``, ``ideal_dcg``), ``ndcg_rel``, ``Rndcg``, ``G``,
``ndcg_cut`` and ``rbp`` (``m_ndcg.c`` ... ``m_rbp.c``, with ``gain_init.c``'s gain table).

The gain of a grade is the grade unless a ``grade=gain`` parameter says otherwise; the table is
sorted by gain with trec_eval's comparator (the difference truncated to an int) and walked from
the top to give the ideal ranking, each grade repeated as often as the qrels hold it, up to the
first gain that is not positive. ``ndcg_cut`` ignores parameters and the relevance level and
uses the grades as gains. ``rbp`` squeezes the gains into [0, 1] when one lies outside (as
trec_eval 10.0 compiled by its Makefile does: the minimum and maximum start at 0).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from labelpool.scoring.trec_eval.catalogue import Selected
from labelpool.scoring.trec_eval.chunk import (
    Chunk,
    at_rank,
    divide,
    log2_any,
    log2_int,
    running,
    total,
)
from labelpool.scoring.trec_eval.cnum import atol
from labelpool.scoring.trec_eval.counting import powers

Columns = list[np.ndarray]
Entry = tuple[int, float, int]  # (grade, gain, judged documents with that grade)
_VALID_INT = re.compile(r"^[+-]?[0-9]+$")


def _compare(a: Entry, b: Entry) -> int:
    return int(a[1] - b[1])  # gain_init.c: (int) (gain1 - gain2)


def entries(s: Selected, counts: np.ndarray, num_levels: int) -> list[Entry]:
    """``setup_gains``: the parameter grades, then every grade 0..num_levels-1, sorted."""
    out: list[list[float]] = [
        [atol(name), value, 0] for name, value in s.pairs if _VALID_INT.match(name)
    ]
    for grade in range(num_levels):
        for e in out:
            if e[0] == grade:
                e[2] = int(counts[grade])
                break
        else:
            out.append([grade, float(grade), int(counts[grade])])
    ranked = sorted(
        ((int(g), float(v), int(n)) for g, v, n in out), key=functools.cmp_to_key(_compare)
    )
    return ranked


def _gain_of(table: list[Entry], grade: int) -> float:
    for g, value, _ in table:
        if g == grade:
            return value
    return 0.0


def _ideal(table: list[Entry]) -> list[float]:
    """The ideal ranking's gains, up to the first that is not positive."""
    out: list[float] = []
    for _, value, count in reversed(table):
        if count == 0:
            continue
        if value <= 0.0:
            break
        out.extend([value] * count)
    return out


class _Gains:
    """Per question of a chunk: the gain of each retrieved document and the ideal gains."""

    def __init__(self, c: Chunk, s: Selected, normalise: bool = False) -> None:
        grades = np.arange(-2, c.levels.shape[1])
        lookup = np.zeros((c.m, len(grades)))
        ideals: list[list[float]] = []
        self.first = np.zeros(c.m)  # gain of the top entry (trec_eval's starting ideal gain)
        for q in range(c.m):
            table = entries(s, c.levels[q], int(c.num_rel_levels[q]))
            if normalise:
                table = _squeeze(table)
            lookup[q] = [_gain_of(table, int(g)) for g in grades]
            ideals.append(_ideal(table))
            self.first[q] = table[-1][1] if table else 0.0
        col = np.clip(c.rel + 2, 0, len(grades) - 1)
        self.gain = np.where(c.valid, lookup[np.arange(c.m)[:, None], col], 0.0)
        self.p = np.array([len(i) for i in ideals], dtype=np.int64)
        width = max(int(self.p.max()) if c.m else 0, c.width) + 1
        self.ideal = np.zeros((c.m, width))
        for q, values in enumerate(ideals):
            self.ideal[q, : len(values)] = values


def _squeeze(table: list[Entry]) -> list[Entry]:
    low = min([0.0, *(v for _, v, _ in table)])
    high = max([0.0, *(v for _, v, _ in table)])
    if low < 0 or high > 1:
        return [(g, (v - low) / (high - low), n) for g, v, n in table]
    return table


def _discount(width: int) -> np.ndarray:
    return log2_int(np.arange(2, width + 2))[None, :]


def _dcgs(c: Chunk, g: _Gains) -> tuple[np.ndarray, np.ndarray]:
    """(results DCG terms, ideal DCG terms), both as wide as the ideal matrix."""
    width = g.ideal.shape[1]
    gain = np.zeros((c.m, width))
    gain[:, : c.width] = g.gain
    disc = _discount(width)
    return gain / disc, g.ideal / disc


def ndcg(c: Chunk, s: Selected) -> Columns:
    g = _Gains(c, s)
    results, ideal = _dcgs(c, g)
    dcg, idcg = total(results), total(ideal)
    if s.name == "dcg":
        return [dcg]
    if s.name == "ideal_dcg":
        return [idcg]
    return [np.where(idcg > 0.0, divide(dcg, idcg), 0.0)]


def ndcg_rel(c: Chunk, s: Selected) -> Columns:
    g = _Gains(c, s)
    results, ideal = _dcgs(c, g)
    run_dcg, run_idcg = running(results), running(ideal)
    hit = np.zeros(run_dcg.shape, dtype=bool)
    hit[:, : c.width] = g.gain > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(hit, run_dcg / run_idcg, 0.0)
        out = total(terms)
        missed = (g.p - hit.sum(axis=1)).astype(np.float64)
        out = out + missed * total(results) / total(ideal)
        value = out / g.p.astype(np.float64)
    return [np.where(out > 0.0, value, 0.0)]


def rndcg(c: Chunk, s: Selected) -> Columns:
    g = _Gains(c, s)
    results, ideal = _dcgs(c, g)
    width = results.shape[1]
    before_dcg = np.zeros((c.m, width))
    before_idcg = np.zeros((c.m, width))
    before_dcg[:, 1:] = running(results)[:, :-1]
    before_idcg[:, 1:] = running(ideal)[:, :-1]
    pos = np.arange(width)[None, :]
    current = np.where(pos < g.p[:, None], g.ideal, 0.0)
    previous = np.concatenate([g.first[:, None], current[:, :-1]], axis=1)
    walked = (g.first > 0.0)[:, None] & (pos <= g.p[:, None])
    event = walked & (current != previous) & (before_idcg > 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = total(np.where(event, before_dcg / before_idcg, 0.0))
        count = event.sum(axis=1)
        ended = np.where(g.first > 0.0, np.minimum(c.n, g.p + 1), 0)
        idcg = total(ideal)
        extra = (ended < c.n) & (idcg > 0.0)
        out = np.where(extra, out + total(results) / idcg, out)
        count = count + extra
        value = out / count.astype(np.float64)
    value = np.where(np.isnan(value), -np.nan, value)
    return [np.where(c.num_rel > 0, value, 0.0)]


def g_measure(c: Chunk, s: Selected) -> Columns:
    g = _Gains(c, s)
    if c.width == 0:
        return [np.zeros(c.m)]
    ideal = np.where(np.arange(g.ideal.shape[1])[None, :] < g.p[:, None], g.ideal, 0.0)
    cost = np.maximum(ideal[:, : c.width], 1.0)
    cost = np.where(c.valid, cost, 0.0)
    sum_cost = running(cost)
    sum_results = running(g.gain)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(g.gain != 0, g.gain / log2_any((2 + sum_cost) - sum_results), 0.0)
    sum_ideal = total(ideal)
    return [np.where(sum_ideal > 0.0, divide(total(terms), sum_ideal), 0.0)]


def ndcg_cut(c: Chunk, s: Selected) -> Columns:
    gain = np.where(c.rel > 0, c.rel, 0).astype(np.float64)
    dcg = running(gain / _discount(c.width)) if c.width else np.zeros((c.m, 1))
    ideals = []
    for q in range(c.m):
        top = int(c.num_rel_levels[q])
        ideals.append([float(v) for v in range(top - 1, 0, -1) for _ in range(int(c.levels[q, v]))])
    size = max([len(i) for i in ideals] + [1])
    ideal = np.zeros((c.m, size))
    for q, values in enumerate(ideals):
        ideal[q, : len(values)] = values
    p = np.array([len(i) for i in ideals], dtype=np.int64)
    idcg = running(ideal / _discount(size))
    out: Columns = []
    for k in s.cutoffs:
        num = at_rank(dcg, np.minimum(c.n, k))
        den = at_rank(idcg, np.minimum(p, k))
        out.append(np.where(den > 0.0, divide(num, den), num))
    return out


def rbp(c: Chunk, s: Selected) -> Columns:
    p = s.pair("p", 0.9)
    g = _Gains(c, s, normalise=True)
    weights = powers(p, c.width + 1)[None, : c.width]
    terms = np.where(g.gain != 0, g.gain * weights, 0.0)
    return [(1.0 - p) * total(terms)]
