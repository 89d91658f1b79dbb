"""trec_eval's interpolated precisions: ``iprec_at_recall``, ``11pt_avg`` (``lround`` of
recall times R, as 10.0; 9.0.x added 0.9 and truncated) and ``Rprec_mult``.

trec_eval walks each ranking backwards keeping the best precision seen so far; the value at
the k-th relevant document is the maximum precision at its rank or below (a reversed running
maximum, exact). Cut-offs are matched in the order trec_eval's loop meets them, so an
``11pt_avg`` given unsorted recall points averages what trec_eval averages.
"""

from __future__ import annotations

import math

import numpy as np

from labelpool.scoring.trec_eval.catalogue import Selected
from labelpool.scoring.trec_eval.chunk import Chunk, at_rank
from labelpool.scoring.trec_eval.cnum import lround, trunc_long

Columns = list[np.ndarray]


def _best_precision(c: Chunk) -> np.ndarray:
    """Best precision at each rank or below it (-inf beyond the ranking)."""
    with np.errstate(invalid="ignore"):
        prec = np.where(c.valid, c.cum / c.rank, -np.inf)
    return np.maximum.accumulate(prec[:, ::-1], axis=1)[:, ::-1]


def _at_relevant(c: Chunk, best: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``best`` at the rank of each question's k-th relevant document (k >= 1)."""
    where = np.argmax(c.cum >= np.maximum(k, 1)[:, None], axis=1)
    return best[np.arange(c.m), where] if c.width else np.zeros(c.m)


def _final(c: Chunk, best: np.ndarray) -> np.ndarray:
    """The best precision when the backward walk ends: at the first relevant document, or
    ``num_rel_ret / num_ret`` (0.0 / 0 is NaN, as in trec_eval) when none was retrieved."""
    nrr = c.num_rel_ret
    at_first = _at_relevant(c, best, np.ones(c.m, dtype=np.int64))
    with np.errstate(invalid="ignore", divide="ignore"):
        fallback = nrr / c.n.astype(np.float64)
    fallback = np.where(np.isnan(fallback), -math.nan, fallback)
    return np.where(nrr > 0, at_first, fallback)


def _walk(c: Chunk, points: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(value, counted) per (question, point), as trec_eval's loop assigns them."""
    cuts = lround(np.asarray(points)[None, :] * c.num_rel[:, None].astype(np.float64))
    best = _best_precision(c)
    final = _final(c, best)
    nrr = c.num_rel_ret
    values = np.zeros(cuts.shape)
    counted = np.zeros(cuts.shape, dtype=bool)
    skipping = np.ones(c.m, dtype=bool)
    stalled = np.zeros(c.m, dtype=bool)
    current = nrr.copy()
    for j in range(cuts.shape[1] - 1, -1, -1):
        cut = cuts[:, j]
        skipping &= cut > nrr
        active = ~skipping
        match = active & ~stalled & (cut >= 1) & (cut <= current)
        stalled |= active & ~match
        values[:, j] = np.where(match, _at_relevant(c, best, cut), 0.0)
        values[:, j] = np.where(active & stalled, final, values[:, j])
        counted[:, j] = active
        current = np.where(match, cut, current)
    return values, counted


def iprec_at_recall(c: Chunk, s: Selected) -> Columns:
    values, _ = _walk(c, s.values)
    return [values[:, j] for j in range(values.shape[1])]


def eleven_pt_avg(c: Chunk, s: Selected) -> Columns:
    values, counted = _walk(c, s.values)
    out = np.zeros(c.m)
    for j in range(values.shape[1] - 1, -1, -1):  # the order trec_eval adds them in
        out = np.where(counted[:, j], out + values[:, j], out)
    return [out / float(len(s.values))]


def rprec_mult(c: Chunk, s: Selected) -> Columns:
    out: Columns = []
    for p in s.values:
        cut = trunc_long(p * c.num_rel.astype(np.float64) + 0.9)
        beyond = cut > c.n
        inside = at_rank(c.cum, np.clip(cut, 0, None)) / np.maximum(cut, 1).astype(np.float64)
        value = np.where(beyond, c.num_rel_ret / np.maximum(cut, 1).astype(np.float64), inside)
        out.append(np.where(cut >= 1, value, 0.0))
    return out
