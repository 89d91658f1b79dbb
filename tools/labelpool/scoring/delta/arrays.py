"""The delta range and the judging cost over every question at once (numpy).

The same arithmetic as :func:`labelpool.scoring.delta.question.question_range` (the reference,
one question at a time, held equal to it by the tests), on the rows of both rankings as
arrays (:class:`labelpool.scoring.join.TopRows`): 9 s of Python loops at 10,000 questions in
0.1.0 become a few array passes. Per family (see :mod:`labelpool.scoring.delta.question`):

* ``R@k`` is exact: the delta ``(a - b + i - j) / (R + i + j + s)`` is a ratio of linear
  functions of the counts, so its extremes over the box of counts are at the box's corners
  (and at the points one step from the origin when ``R = 0``, where the origin itself is 0):
  27 candidates per question instead of every count.
* ``RR``: the empty set and every single shared unjudged document, reduced per question.
* Sums run left to right in the reference's order with libm's ``log2``, so every value is
  the reference's to the last bit (the golden outputs hold them).
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.runs import arrow_array, numpy_of, ranks_within
from labelpool.scoring.delta.question import METHODS, DeltaRange, JudgeCost
from labelpool.scoring.join import TopRows
from labelpool.scoring.qrels import in_sorted

Bound = Callable[[TopRows], tuple[np.ndarray, np.ndarray]]


def _count(qi: np.ndarray, nq: int) -> np.ndarray:
    return np.bincount(qi, minlength=nq).astype(np.int64)


def _shared(
    b: TopRows, c: TopRows, b_rows: np.ndarray | slice, c_rows: np.ndarray | slice
) -> tuple[np.ndarray, np.ndarray]:
    """Which of the rows ``b_rows`` of ``b`` and ``c_rows`` of ``c`` hold a document the other
    side holds for the same question (two boolean masks)."""
    if b.codes is not None and c.codes is not None and b.vocab is not None and c.vocab is not None:
        # one code space for both runs from their distinct ids (a hash lookup over the
        # vocabularies, not a dictionary encoding of every row's string)
        c_to_b, width = _common_codes(b.vocab, c.vocab)
        codes_b, codes_c = b.codes[b_rows], c_to_b[c.codes[c_rows]]
    else:
        docs = [_pick(b.docs, b_rows), _pick(c.docs, c_rows)]
        codes = numpy_of(pc.dictionary_encode(pa.concat_arrays(docs)).indices).astype(np.int64)
        width = int(codes.max()) + 1 if len(codes) else 1
        codes_b, codes_c = codes[: len(docs[0])], codes[len(docs[0]) :]
    kb = b.qi[b_rows] * width + codes_b
    kc = c.qi[c_rows] * width + codes_c
    return _member(kb, kc), _member(kc, kb)


def _pick(docs: pa.Array, rows: np.ndarray | slice) -> pa.Array:
    return docs[rows] if isinstance(rows, slice) else docs.take(arrow_array(rows))


# the last few (baseline vocabulary, challenger vocabulary, mapping, width); weak references,
# so that the runs' vocabularies are freed with their runs
_COMMON: list[tuple[weakref.ref[pa.Array], weakref.ref[pa.Array], np.ndarray, int]] = []


def _common_codes(b_vocab: pa.Array, c_vocab: pa.Array) -> tuple[np.ndarray, int]:
    """Each of ``c_vocab``'s ids as a code of ``b_vocab`` (its index there, else
    ``len(b_vocab)`` + its own index), and the width of that code space: equal ids get equal
    codes, distinct ids distinct ones (both vocabularies hold distinct ids)."""
    for b_held, c_held, mapping, width in _COMMON:
        if b_held() is b_vocab and c_held() is c_vocab:
            return mapping, width
    at = numpy_of(pc.index_in(c_vocab, value_set=b_vocab), fill=-1).astype(np.int64)
    own = len(b_vocab) + np.arange(len(c_vocab), dtype=np.int64)
    mapping = np.where(at >= 0, at, own)
    width = max(len(b_vocab) + len(c_vocab), 1)
    _COMMON.append((weakref.ref(b_vocab), weakref.ref(c_vocab), mapping, width))
    del _COMMON[:-2]
    return mapping, width


def _member(keys: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Which ``keys`` are in ``other`` (a sorted search: ``np.isin`` hashes, 30x slower on a
    million keys here)."""
    return in_sorted(keys, np.sort(other))


def _first_rank(qi: np.ndarray, rank: np.ndarray, nq: int) -> np.ndarray:
    """The smallest rank per question (0: none)."""
    big = np.iinfo(np.int64).max
    out = np.full(nq, big, dtype=np.int64)
    np.minimum.at(out, qi, rank)
    out[out == big] = 0
    return out


def _first(*ranks: np.ndarray) -> np.ndarray:
    """Elementwise the smallest non-zero rank (0: none)."""
    big = np.iinfo(np.int64).max
    stacked = np.stack([np.where(r > 0, r, big) for r in ranks])
    out = stacked.min(axis=0)
    return np.where(out == big, 0, out)


def _rr(rank: np.ndarray) -> np.ndarray:
    return np.where(rank > 0, 1.0 / np.maximum(rank, 1), 0.0)


def _hits(r: TopRows, level: int) -> np.ndarray:
    """Rows that are the first retrieval of a relevant target of grade >= ``level``."""
    rows = np.flatnonzero((r.target >= 0) & (r.grade > 0) & (r.grade >= level))
    _, first = np.unique(r.target[rows], return_index=True)
    out = np.zeros(len(r.qi), dtype=bool)
    out[rows[first]] = True
    return out


def _ratio_bounds(
    num_min: np.ndarray, num_max: np.ndarray, den_min: np.ndarray, den_max: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(den_max > 0, num_min / np.where(den_max > 0, den_max, 1), 0.0)
        high = np.where(
            den_min > 0,
            np.minimum(1.0, num_max / np.where(den_min > 0, den_min, 1)),
            np.where(num_max > 0, 1.0, 0.0),
        )
    return low, high


def _log2_from_2(n: int) -> np.ndarray:
    """``out[r] = math.log2(r + 1)`` for ``r < n`` (libm's, as the reference's sums use)."""
    return np.array([math.log2(r + 1) if r else 1.0 for r in range(n)], dtype=np.float64)


def _idcg_with(
    ideal_q: np.ndarray,
    ideal_g: np.ndarray,
    extra: np.ndarray,
    grade: int,
    cut: int | None,
    more: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Ideal DCG per question of the ideal grades plus ``extra[q]`` documents of ``grade``
    (and the (question, grade) pairs ``more``), summed left to right over the grades sorted
    descending (the reference's order and float operations, so the sums are the same to the
    last bit)."""
    nq = len(extra)
    more_q, more_g = more if more is not None else (ideal_q[:0], ideal_g[:0])
    q = np.concatenate([ideal_q, np.repeat(np.arange(nq, dtype=np.int64), extra), more_q])
    g = np.concatenate([ideal_g, np.full(int(extra.sum()), grade, dtype=np.int64), more_g])
    order = np.lexsort((-g, q))
    q, g = q[order], g[order]
    pos = ranks_within(_count(q, nq))
    if cut is not None:
        keep = pos < cut
        q, g, pos = q[keep], g[keep], pos[keep]
    log2 = _log2_from_2(int(pos.max(initial=0)) + 3)
    out: np.ndarray = np.bincount(q, weights=g / log2[pos + 1], minlength=nq)
    return out


def ranges(
    family: str,
    cutoff: int | None,
    b: TopRows,
    c: TopRows,
    ideal: tuple[np.ndarray, np.ndarray],
    relevance_level: int = 1,
    disputes: tuple[np.ndarray, np.ndarray] | None = None,
) -> DeltaRange:
    """The range of ``challenger - baseline`` for every question and its mean (the rows of
    both cut at the measure's depth ``cutoff``; ``ideal`` the labels' relevance targets as
    (question index, grade) arrays; ``disputes`` the open disputes left unjudged as (question
    index, highest deciding grade), in the rankings or not: ``Qrels.open_q``, ``open_g``)."""
    if family not in METHODS:
        raise ValueError(f"no delta range for measure family {family!r}")
    nq, level = b.nq, relevance_level
    ub_rows, uc_rows = np.flatnonzero(~b.judged), np.flatnonzero(~c.judged)
    in_c, in_b = _shared(b, c, ub_rows, uc_rows)
    ub, uc = _count(b.qi[ub_rows], nq), _count(c.qi[uc_rows], nq)
    shared = _count(b.qi[ub_rows[in_c]], nq)
    ub_ex, uc_ex = ub - shared, uc - shared
    lb = b.lift if b.lift is not None else np.zeros(len(b.qi), dtype=np.int64)
    lc = c.lift if c.lift is not None else np.zeros(len(c.qi), dtype=np.int64)
    open_q, open_g = disputes if disputes is not None else (ideal[0][:0], ideal[1][:0])
    if family == "Judged":
        with np.errstate(divide="ignore", invalid="ignore"):
            sb = np.where(b.length > 0, (b.length - ub) / np.maximum(b.length, 1), 0.0)
            sc = np.where(c.length > 0, (c.length - uc) / np.maximum(c.length, 1), 0.0)
        low = high = sc - sb
    elif family in ("P", "Success", "RR", "R"):
        hb, hc = _hits(b, level), _hits(c, level)
        jb, jc = _count(b.qi[hb], nq), _count(c.qi[hc], nq)
        if family == "P":
            k = np.full(nq, cutoff) if cutoff else np.maximum(np.maximum(b.length, c.length), 1)
            low, high = (jc - jb - ub_ex) / k, (jc + uc_ex - jb) / k
        elif family == "Success":
            high = ((jc > 0) | (uc_ex > 0)).astype(np.float64) - (jb > 0)
            low = (jc > 0).astype(np.float64) - ((jb > 0) | (ub_ex > 0))
            some = shared > 0
            high = np.where(some, np.maximum(high, 0.0), high)
            low = np.where(some, np.minimum(low, 0.0), low)
        elif family == "RR":
            low, high = _rr_range(b, c, hb, hc, ub_rows, uc_rows, in_c, in_b)
        else:
            total = _count(ideal[0][ideal[1] >= max(level, 1)], nq)
            # open disputes relevant at the level in no ranking: only the denominator grows
            can = max(level, 1)
            in_union = (
                _count(b.qi[ub_rows[lb[ub_rows] >= can]], nq)
                + _count(c.qi[uc_rows[lc[uc_rows] >= can]], nq)
                - _count(b.qi[ub_rows[in_c & (lb[ub_rows] >= can)]], nq)
            )
            outside = _count(open_q[open_g >= can], nq) - in_union
            low, high = _recall_range(jc - jb, total, uc_ex, ub_ex, shared, outside)
    else:
        # plain unjudged documents of the union; every open dispute of the question, in the
        # rankings or not, counts at its highest grade in the denominator's bound
        plain_shared = _count(b.qi[ub_rows[in_c & (lb[ub_rows] == 0)]], nq)
        n_union = (
            _count(b.qi[ub_rows[lb[ub_rows] == 0]], nq)
            + _count(c.qi[uc_rows[lc[uc_rows] == 0]], nq)
            - plain_shared
        )
        if family == "nDCG":
            bound = _ndcg_bounds(ideal, n_union, cutoff, level, (open_q, open_g))
        else:
            bound = _ap_bounds(ideal, n_union, level, (open_q, open_g))
        low_b, high_b = bound(b)
        low_c, high_c = bound(c)
        low, high = low_c - high_b, high_c - low_b
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    return DeltaRange(
        low=sum(low.tolist()) / nq if nq else 0.0,  # left to right, as the reference
        high=sum(high.tolist()) / nq if nq else 0.0,
        method=METHODS[family],
        per_question=tuple(zip(low.tolist(), high.tolist(), strict=True)),
    )


def _rr_range(
    b: TopRows,
    c: TopRows,
    hb: np.ndarray,
    hc: np.ndarray,
    ub_rows: np.ndarray,
    uc_rows: np.ndarray,
    in_c: np.ndarray,
    in_b: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    nq = b.nq
    fb, fc = _first_rank(b.qi[hb], b.rank[hb], nq), _first_rank(c.qi[hc], c.rank[hc], nq)
    bx, cx = ub_rows[~in_c], uc_rows[~in_b]
    fb_ex = _first(fb, _first_rank(b.qi[bx], b.rank[bx], nq))
    fc_ex = _first(fc, _first_rank(c.qi[cx], c.rank[cx], nq))
    high = _rr(fc_ex) - _rr(fb)  # no shared document relevant
    low = _rr(fc) - _rr(fb_ex)
    # one shared document relevant: pair its two ranks (same document, same question)
    sb_rows, sc_rows = ub_rows[in_c], uc_rows[in_b]
    if len(sb_rows):
        sb_rows = sb_rows[_by_question_and_doc(b, sb_rows)]
        sc_rows = sc_rows[_by_question_and_doc(c, sc_rows)]
        q = b.qi[sb_rows]
        sb, sc = b.rank[sb_rows], c.rank[sc_rows]
        up = _rr(_first(fc_ex[q], sc)) - _rr(_first(fb[q], sb))
        down = _rr(_first(fc[q], sc)) - _rr(_first(fb_ex[q], sb))
        np.maximum.at(high, q, up)
        np.minimum.at(low, q, down)
    return low, high


def _docs_of(r: TopRows, rows: np.ndarray) -> pa.Array:
    """The document ids of ``rows`` (taken from the vocabulary: not every row's id built)."""
    if r.codes is None or r.vocab is None:
        return r.docs.take(arrow_array(rows))
    return r.vocab.take(arrow_array(r.codes[rows].astype(np.int64)))


def _by_question_and_doc(r: TopRows, rows: np.ndarray) -> np.ndarray:
    """The order of ``rows`` by question, then document id."""
    table = pa.Table.from_arrays([arrow_array(r.qi[rows]), _docs_of(r, rows)], names=["q", "d"])
    keys = [("q", "ascending"), ("d", "ascending")]
    return numpy_of(pc.sort_indices(table, sort_keys=keys)).astype(np.int64)


def _recall_range(
    d: np.ndarray,
    total: np.ndarray,
    i_max: np.ndarray,
    j_max: np.ndarray,
    s_max: np.ndarray,
    x_max: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    low = np.full(len(d), np.inf)
    high = np.full(len(d), -np.inf)
    corners = [(np.zeros_like(m), np.minimum(m, 1), m) for m in (i_max, j_max, s_max, x_max)]
    for i, j, s, x in itertools.product(*corners):
        den = total + i + j + s + x
        value = np.where(den > 0, (d + i - j) / np.where(den > 0, den, 1), 0.0)
        low, high = np.minimum(low, value), np.maximum(high, value)
    return low, high


def _ndcg_bounds(
    ideal: tuple[np.ndarray, np.ndarray],
    n_union: np.ndarray,
    cutoff: int | None,
    level: int,
    disputes: tuple[np.ndarray, np.ndarray],
) -> Bound:
    g_new = max(level, 1)
    nq = len(n_union)
    iq, ig = ideal
    i_min = _idcg_with(iq, ig, np.zeros(nq, dtype=np.int64), g_new, cutoff)
    i_max = _idcg_with(iq, ig, n_union, g_new, cutoff, disputes)

    def bound(r: TopRows) -> tuple[np.ndarray, np.ndarray]:
        h = _hits(r, 1)
        log2 = _log2_from_2(int(r.rank.max(initial=0)) + 2)[r.rank]
        d_min = np.bincount(r.qi[h], weights=r.grade[h] / log2[h], minlength=nq)
        u = ~r.judged
        lift = np.full(len(r.qi), g_new, dtype=np.int64)
        if r.lift is not None:
            lift = np.where(r.lift > 0, r.lift, lift)
        d_max = d_min + np.bincount(r.qi[u], weights=lift[u] / log2[u], minlength=nq)
        return _ratio_bounds(d_min, d_max, i_min, i_max)

    return bound


def _ap_bounds(
    ideal: tuple[np.ndarray, np.ndarray],
    n_union: np.ndarray,
    level: int,
    disputes: tuple[np.ndarray, np.ndarray],
) -> Bound:
    nq = len(n_union)
    can = max(level, 1)
    total = _count(ideal[0][ideal[1] >= can], nq).astype(np.float64)
    open_relevant = _count(disputes[0][disputes[1] >= can], nq).astype(np.float64)

    def ap_sum(r: TopRows, rows: np.ndarray) -> np.ndarray:
        q = r.qi[rows]  # rows in question, then rank order
        pos = ranks_within(_count(q, nq))
        return np.bincount(q, weights=(pos + 1.0) / r.rank[rows], minlength=nq)

    def bound(r: TopRows) -> tuple[np.ndarray, np.ndarray]:
        h = _hits(r, level)
        s_min = ap_sum(r, np.flatnonzero(h))
        may = ~r.judged if r.lift is None else ~r.judged & ((r.lift == 0) | (r.lift >= can))
        s_max = ap_sum(r, np.flatnonzero(h | may))
        return _ratio_bounds(s_min, s_max, total, total + n_union + open_relevant)

    return bound


def cost(b: TopRows, c: TopRows) -> JudgeCost:
    """The batch ``pool`` would make: unjudged documents in the union of both top-k lists."""
    nq = b.nq
    # every row: a basic slice, so that the codes and question columns are views, not
    # copies (a whole-ranking cut is ten million rows at 100,000 questions)
    everything = slice(None)
    in_c, _ = _shared(b, c, everything, everything)
    union = b.length + c.length - _count(b.qi[in_c], nq)
    unjudged_shared = _count(b.qi[in_c & ~b.judged], nq)
    n = _count(b.qi[~b.judged], nq) + _count(c.qi[~c.judged], nq) - unjudged_shared
    size = int(union.sum())
    documents = int(n.sum())
    disputed = 0
    if b.lift is not None and c.lift is not None:  # open disputes among them
        open_b, open_c = ~b.judged & (b.lift > 0), ~c.judged & (c.lift > 0)
        disputed = int(open_b.sum() + open_c.sum() - (in_c & open_b).sum())
    return JudgeCost(
        documents=documents,
        questions=int((n > 0).sum()),
        fraction=documents / size if size else 0.0,
        disputed=disputed,
    )
