"""Vectorised measure arithmetic over every question at once (numpy; no per-question loops).

The input is a :class:`Ranked`: the rows of all rankings, grouped by question in rank order,
each with its gain (a class member earns the class's grade only where it is the class's first
member retrieved; later members have gain 0), whether it carries a judgment, and per question
the ideal gains (one entry per relevance target, a class counted once).

* :func:`per_query` ``(measure, ranked, relevance_level, k) -> np.ndarray``: one value per
  question. Agrees with trec_eval (``P_k recall_k ndcg_cut_k recip_rank map map_cut_k
  success_k``) to 1e-9 when there are no classes.
* :func:`condensed` ``(ranked) -> Ranked``: unjudged rows dropped, ranks closed up (the
  judged-only list; trec_eval ``-J``).
* :func:`optimistic` ``(ranked, depth, relevance_level) -> Ranked``: every unjudged row in the
  top ``depth`` relevant at grade ``max(relevance_level, 1)``, the ideal gaining as many
  targets of that grade. Raw is the pessimistic side *for the returned documents only*:
  neither side bounds what documents the system did not return (and nobody judged) could do.

Per-measure optimistic values (``u`` = unjudged documents in the top k, ``a`` = relevant
ones, ``R`` = relevant targets): P@k ``(a+u)/k``; R@k ``(a+u)/(R+u)``; nDCG@k unjudged get
the grade ``max(level, 1)`` and the ideal gains ``u`` such entries; RR@k the first relevant
*or unjudged* document; AP(@k) unjudged in the top k are relevant and ``R+u`` divides;
Success@k 1 when any relevant or unjudged document is in the top k.

For P, R, RR and Success this is an upper bound of raw. For AP and nDCG it is the
all-relevant *scenario* the definition asks for, not a bound: each unjudged document also
joins the ideal ranking (or AP's denominator), so a system whose unjudged documents sit
below its relevant ones can score lower than raw (relevant at rank 1, unjudged at rank 3:
AP 1.0 raw, 0.83 optimistic). Read the pair as "what the pool could change", not as an
interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from labelpool.measures import Measure


@dataclass(frozen=True, eq=False)
class Ranked:
    """Rows of all rankings (sorted by question, then rank) and the ideal gains."""

    nq: int
    qi: np.ndarray  # int64: question index of each row
    pos: np.ndarray  # int64: 0-based rank within its question
    gain: np.ndarray  # int64: grade earned by the row (0: irrelevant, unjudged, repeat of class)
    judged: np.ndarray  # bool: the row's document carries a judgment
    returned: np.ndarray  # int64 per question: documents the run returned
    ideal_q: np.ndarray  # int64: question of each relevance target with grade > 0
    ideal_g: np.ndarray  # int64: that target's grade


def ranks(qi: np.ndarray, nq: int) -> tuple[np.ndarray, np.ndarray]:
    """(0-based position of each row within its question, rows per question); rows sorted."""
    counts = np.bincount(qi, minlength=nq).astype(np.int64)
    starts = np.cumsum(counts) - counts
    pos = np.arange(len(qi), dtype=np.int64) - starts[qi]
    return pos, counts


def condensed(r: Ranked) -> Ranked:
    keep = r.judged
    qi = r.qi[keep]
    pos, counts = ranks(qi, r.nq)
    return Ranked(r.nq, qi, pos, r.gain[keep], r.judged[keep], counts, r.ideal_q, r.ideal_g)


def optimistic(r: Ranked, depth: int, relevance_level: int) -> Ranked:
    grade = max(relevance_level, 1)
    lift = ~r.judged & (r.pos < depth)
    gain = np.where(lift, grade, r.gain)
    extra = np.bincount(r.qi[lift], minlength=r.nq)
    ideal_q = np.concatenate([r.ideal_q, np.repeat(np.arange(r.nq, dtype=np.int64), extra)])
    ideal_g = np.concatenate([r.ideal_g, np.full(int(extra.sum()), grade, dtype=np.int64)])
    return Ranked(r.nq, r.qi, r.pos, gain, r.judged, r.returned, ideal_q, ideal_g)


def _count(qi: np.ndarray, nq: int, weights: np.ndarray | None = None) -> np.ndarray:
    return np.bincount(qi, weights=weights, minlength=nq).astype(np.float64)


def _divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(len(num), dtype=np.float64)
    ok = den > 0
    out[ok] = num[ok] / den[ok]
    return out


def per_query(m: Measure, r: Ranked, relevance_level: int, k: int) -> np.ndarray:
    """Value of ``m`` for every question (``k``: the cut-off of measures given without one)."""
    depth = m.depth(k)
    within = np.ones(len(r.pos), dtype=bool) if depth is None else r.pos < depth
    rel = (r.gain >= relevance_level) & (r.gain > 0) & within
    n_rel = _count(r.ideal_q[r.ideal_g >= max(relevance_level, 1)], r.nq)
    family = m.family
    if family == "P":
        assert depth is not None
        return _count(r.qi[rel], r.nq) / depth
    if family == "R":
        return _divide(_count(r.qi[rel], r.nq), n_rel)
    if family == "Success":
        return (_count(r.qi[rel], r.nq) > 0).astype(np.float64)
    if family == "RR":
        out = np.zeros(r.nq, dtype=np.float64)
        q = r.qi[rel]
        first_q, first = np.unique(q, return_index=True)
        out[first_q] = 1.0 / (r.pos[rel][first] + 1)
        return out
    if family == "AP":
        q = r.qi[rel]
        pos = r.pos[rel]
        nth = np.arange(len(q), dtype=np.int64) - np.searchsorted(q, q, side="left") + 1
        return _divide(_count(q, r.nq, nth / (pos + 1)), n_rel)
    if family == "nDCG":
        assert depth is not None
        hit = within & (r.gain > 0)
        dcg = _count(r.qi[hit], r.nq, r.gain[hit] / np.log2(r.pos[hit] + 2))
        order = np.lexsort((-r.ideal_g, r.ideal_q))
        iq = r.ideal_q[order]
        ig = r.ideal_g[order]
        ipos = np.arange(len(iq), dtype=np.int64) - np.searchsorted(iq, iq, side="left")
        top = ipos < depth
        idcg = _count(iq[top], r.nq, ig[top] / np.log2(ipos[top] + 2))
        return _divide(dcg, idcg)
    if family == "Judged":
        assert depth is not None
        judged = _count(r.qi[r.judged & within], r.nq)
        return _divide(judged, np.minimum(r.returned, depth).astype(np.float64))
    raise ValueError(f"no arithmetic for measure family {family!r}")  # pragma: no cover
