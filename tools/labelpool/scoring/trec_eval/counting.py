"""trec_eval's measures of counts, cut-offs and precisions (``m_map.c``, ``m_P.c``,
``m_bpref.c``, ``m_infap.c``, ...): one function per measure, over a :class:`Chunk`, one array
per output column. Each follows its C file's arithmetic operation by operation."""

from __future__ import annotations

import math

import numpy as np

from labelpool.scoring.trec_eval.catalogue import Selected
from labelpool.scoring.trec_eval.chunk import Chunk, at_rank, divide, log2_int, running, total

MIN_GEO_MEAN = 0.00001
INFAP_EPSILON = 0.00001

Columns = list[np.ndarray]


def _f(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float64)


def num_ret(c: Chunk, s: Selected) -> Columns:
    return [_f(c.n)]


def num_rel(c: Chunk, s: Selected) -> Columns:
    return [_f(c.num_rel)]


def num_rel_ret(c: Chunk, s: Selected) -> Columns:
    return [_f(c.num_rel_ret)]


def num_q(c: Chunk, s: Selected) -> Columns:
    return [np.ones(c.m)]


def num_nonrel_judged_ret(c: Chunk, s: Selected) -> Columns:
    return [_f((c.nonrel & c.valid).sum(axis=1))]


def _ap(c: Chunk) -> np.ndarray:
    return np.where(c.num_rel_ret > 0, divide(total(c.ap_terms), c.num_rel), 0.0)


def map_(c: Chunk, s: Selected) -> Columns:
    return [_ap(c)]


def _log(values: np.ndarray) -> np.ndarray:
    """C's ``log`` (the C library's, as trec_eval)."""
    return np.array([math.log(v) for v in values], dtype=np.float64)


def gm_map(c: Chunk, s: Selected) -> Columns:
    return [_log(np.maximum(_ap(c), MIN_GEO_MEAN))]


def rprec(c: Chunk, s: Selected) -> Columns:
    look = np.minimum(c.n, c.num_rel)
    return [np.where(look > 0, divide(at_rank(c.cum, look), c.num_rel), 0.0)]


def _bpref(c: Chunk) -> np.ndarray:
    nonrel_so_far = np.cumsum(c.nonrel, axis=1, dtype=np.int64)
    r = c.num_rel[:, None]
    den = np.minimum(c.num_nonrel[:, None], r).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = 1.0 - np.minimum(nonrel_so_far, r) / den
    terms = np.where(c.isrel, np.where(nonrel_so_far > 0, frac, 1.0), 0.0)
    out = total(terms)
    return np.where(c.num_rel > 0, divide(out, c.num_rel), out)


def bpref(c: Chunk, s: Selected) -> Columns:
    return [_bpref(c)]


def gm_bpref(c: Chunk, s: Selected) -> Columns:
    return [_log(np.maximum(_bpref(c), MIN_GEO_MEAN))]


def recip_rank(c: Chunk, s: Selected) -> Columns:
    first = np.argmax(c.isrel, axis=1)
    found = c.isrel.any(axis=1)
    return [np.where(found, 1.0 / (first + 1.0), 0.0)]


def precision(c: Chunk, s: Selected) -> Columns:
    return [c.count_at(k) / float(k) for k in s.cutoffs]


def recall(c: Chunk, s: Selected) -> Columns:
    return [divide(c.count_at(k), c.num_rel) for k in s.cutoffs]


def relative_p(c: Chunk, s: Selected) -> Columns:
    return [divide(c.count_at(k), np.minimum(k, c.num_rel)) for k in s.cutoffs]


def success(c: Chunk, s: Selected) -> Columns:
    return [(c.count_at(k) > 0).astype(np.float64) for k in s.cutoffs]


def map_cut(c: Chunk, s: Selected) -> Columns:
    sums = running(c.ap_terms)
    return [divide(at_rank(sums, np.minimum(c.n, k)), c.num_rel) for k in s.cutoffs]


def unj(c: Chunk, s: Selected) -> Columns:
    unjudged = np.cumsum(c.unjudged, axis=1, dtype=np.int64)
    return [at_rank(unjudged, np.minimum(c.n, k)) / float(k) for k in s.cutoffs]


def infap(c: Chunk, s: Selected) -> Columns:
    rel_so_far = c.cum
    nonrel_so_far = np.cumsum(c.nonrel, axis=1, dtype=np.int64)
    pool_unjudged = np.cumsum(c.rel == -2, axis=1, dtype=np.int64)
    fj = np.arange(c.width, dtype=np.float64)[None, :]
    a = (rel_so_far - 1 + nonrel_so_far + pool_unjudged).astype(np.float64)
    b = (rel_so_far - 1).astype(np.float64) + INFAP_EPSILON
    d = (rel_so_far - 1 + nonrel_so_far).astype(np.float64) + 2 * INFAP_EPSILON
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (a / fj) * (b / d)
    terms = np.where(c.isrel, np.where(fj == 0, 1.0, later), 0.0)
    return [divide(total(terms), c.num_rel)]


def utility(c: Chunk, s: Selected) -> Columns:
    p = s.values
    a = c.num_rel_ret.astype(np.float64)
    value = (
        p[0] * a
        + p[1] * (c.n - c.num_rel_ret).astype(np.float64)
        + p[2] * (c.num_rel - c.num_rel_ret).astype(np.float64)
        + p[3] * (c.num_rel_ret - c.n - c.num_rel).astype(np.float64)
    )
    return [value]


def bin_g(c: Chunk, s: Selected) -> Columns:
    i = np.arange(c.width, dtype=np.int64)[None, :]
    with np.errstate(divide="ignore"):
        terms = np.where(c.isrel, 1.0 / log2_int(np.maximum(3 + i - c.cum, 0)), 0.0)
    return [np.where(c.num_rel_ret > 0, divide(total(terms), c.num_rel), 0.0)]


def set_p(c: Chunk, s: Selected) -> Columns:
    return [divide(c.num_rel_ret, c.n)]


def set_relative_p(c: Chunk, s: Selected) -> Columns:
    ok = (c.n > 0) & (c.num_rel > 0)
    return [np.where(ok, divide(c.num_rel_ret, np.minimum(c.n, c.num_rel)), 0.0)]


def set_recall(c: Chunk, s: Selected) -> Columns:
    return [divide(c.num_rel_ret, c.num_rel)]


def set_map(c: Chunk, s: Selected) -> Columns:
    a = c.num_rel_ret.astype(np.float64)
    den = c.n.astype(np.float64) * c.num_rel.astype(np.float64)
    return [divide(a * a, den)]


def set_f(c: Chunk, s: Selected) -> Columns:
    x = s.values[0]
    p = divide(c.num_rel_ret, c.n)
    r = divide(c.num_rel_ret, c.num_rel)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (x + 1.0) * p * r / (x * p + r)
    return [np.where(c.num_rel_ret > 0, value, 0.0)]


def rbp_resid(c: Chunk, s: Selected) -> Columns:
    p = s.pair("p", 0.9)
    powers = _powers(p, c.width + 1)
    unjudged = (c.rel < 0) & c.valid
    sums = total(np.where(unjudged, powers[None, : c.width], 0.0))
    tail = powers[c.n]
    value = tail + (1 - p) * sums
    return [np.where(unjudged.any(axis=1), value, 0.0)]


def _powers(p: float, count: int) -> np.ndarray:
    """``1, p, p*p, ...`` multiplied one at a time, as trec_eval's ``cur_p = cur_p * p``."""
    out = np.empty(count)
    value = 1.0
    for i in range(count):
        out[i] = value
        value = value * p
    return out


def powers(p: float, count: int) -> np.ndarray:
    return _powers(p, count)


def relstring(c: Chunk, s: Selected) -> list[str]:
    """The relevance values of the first N documents, one character each."""
    length = max(math.trunc(s.values[0]), 0) if s.values else 10
    out: list[str] = []
    for q in range(c.m):
        row = c.rel[q, : min(length, int(c.n[q]))]
        out.append("".join(_char(int(v)) for v in row))
    return out


def _char(rel: int) -> str:
    if rel > 9:
        return ">"
    if rel >= 0:
        return chr(ord("0") + rel)
    if rel == -1:
        return "-"
    if rel == -2:
        return "."
    return "<"
