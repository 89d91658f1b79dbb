"""The rows every measure reads, and the two transformations the scorer applies to them.

The input of every family's arithmetic is a :class:`Ranked`: the rows of all rankings, grouped
by question in rank order, each with its gain (a class member earns the class's grade only
where it is the class's first member retrieved; later members have gain 0), whether it carries
a judgment, and per question the ideal gains (one entry per relevance target, a class counted
once). Everything is vectorised over every question at once (numpy; no per-question loops).

* :func:`condensed` ``(ranked) -> Ranked``: unjudged rows dropped, ranks closed up (the
  judged-only list; trec_eval ``-J``).
* :func:`optimistic` ``(ranked, depth, relevance_level) -> Ranked``: every unjudged row in the
  top ``depth`` relevant at grade ``max(relevance_level, 1)`` (an open dispute under
  ``disputes = "bounds"`` at its highest deciding grade, ``Ranked.lift``), the ideal gaining a
  target of that grade for each. Raw is the pessimistic side *for the returned documents only*:
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
    # int64: an unjudged open dispute's highest deciding grade (0: any other row; None: none)
    lift: np.ndarray | None = None


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
    lift = ~r.judged & (r.pos < depth)
    grade = np.full(len(r.qi), max(relevance_level, 1), dtype=np.int64)
    if r.lift is not None:  # an open dispute: its highest deciding grade
        grade = np.where(r.lift > 0, r.lift, grade)
    gain = np.where(lift, grade, r.gain)
    ideal_q = np.concatenate([r.ideal_q, r.qi[lift]])
    ideal_g = np.concatenate([r.ideal_g, grade[lift]])
    return Ranked(r.nq, r.qi, r.pos, gain, r.judged, r.returned, ideal_q, ideal_g, r.lift)


# ---------------------------------------------------------------- shared by the families


def count(qi: np.ndarray, nq: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Rows (or their ``weights``) summed per question, as float64."""
    return np.bincount(qi, weights=weights, minlength=nq).astype(np.float64)


def divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den``, 0 where ``den`` is 0."""
    out = np.zeros(len(num), dtype=np.float64)
    ok = den > 0
    out[ok] = num[ok] / den[ok]
    return out


def within(r: Ranked, depth: int | None) -> np.ndarray:
    """Rows in the top ``depth`` of their question (every row for None)."""
    return np.ones(len(r.pos), dtype=bool) if depth is None else r.pos < depth


def relevant(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    """Rows in the top ``depth`` that earn a grade of at least ``relevance_level``."""
    rows: np.ndarray = (r.gain >= relevance_level) & (r.gain > 0) & within(r, depth)
    return rows


def relevant_targets(r: Ranked, relevance_level: int) -> np.ndarray:
    """Relevance targets of at least ``relevance_level`` per question (float64)."""
    return count(r.ideal_q[r.ideal_g >= max(relevance_level, 1)], r.nq)
