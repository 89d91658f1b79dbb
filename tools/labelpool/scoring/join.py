"""A run joined to the qrels: the rows that can matter, with their grades.

The join of (question, document) to grades is vectorised: the run's distinct document ids are
looked up in the labels' dictionary with ``pyarrow.compute.index_in`` and (question, code)
pairs are matched with ``np.searchsorted``. Only rows that can matter (each question's top
``depth`` and the labelled documents) become per-row arrays, so 7 million run lines cost a few
hundred thousand rows of arithmetic.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.runs import Run, arrow_array, numpy_of, ranks_within
from labelpool.scoring.measures.ranked import Ranked
from labelpool.scoring.qrels import UNJUDGED, Qrels

# the last few (run, labels' dictionary) lookups; a weak reference to the run, so that a run
# read and scored is freed (the dictionary is the labels' own, shared by reduced label sets)
_LOOKUPS: list[tuple[weakref.ref[Run], pa.Array, np.ndarray]] = []


def _in_labels(run: Run, qrels: Qrels) -> np.ndarray:
    """Each run document's code in the labels' dictionary (-1: not labelled), int32; a hash
    lookup over the run's distinct ids, kept for the last few pairs of run and dictionary
    (compare joins one run up to a dozen times; bias joins each run to every reduced set,
    whose arrays keep the full set's dictionary)."""
    for r, vocab, codes in _LOOKUPS:
        if r() is run and vocab is qrels.vocab:
            return codes
    found_at = pc.index_in(run.doc_vocab, value_set=qrels.vocab)  # null: not labelled
    codes = numpy_of(found_at, fill=-1).astype(np.int32, copy=False)
    _LOOKUPS.append((weakref.ref(run), qrels.vocab, codes))
    del _LOOKUPS[:-4]
    return codes


@dataclass(frozen=True, eq=False)
class Joined:
    ranked: Ranked
    not_in_labels: int
    missing_from_run: int
    run_qi: np.ndarray  # scored-question index of each run question (-1: not in labels)


def join(
    run: Run, qrels: Qrels, depth: int, qids: np.ndarray | None = None, *, labelled: bool = True
) -> Joined:
    """The rows of ``run`` that can matter, restricted to the scored questions.

    Kept: every row in a question's top ``depth`` (the deepest cut-off asked for) and, with
    ``labelled``, every row whose document carries a label for its question (judged or marked
    unjudged); the other rows can change no measure, bound or rate, so millions of run lines
    shrink to the few that count before any per-row array is built. Positions stay the run's
    own. Without ``labelled`` only the top ``depth`` is kept (what a rate at ``depth`` reads).
    """
    if qids is None:
        qids = qrels.qids
    nq = len(qids)
    position = {str(q): i for i, q in enumerate(qids)}
    run_qi = np.array([position.get(str(q), -1) for q in run.qids], dtype=np.int64)
    counts = np.diff(run.offsets)
    starts = run.offsets[:-1]
    # the labels' question index of each scored question, for the grade lookup
    label_index = {str(q): i for i, q in enumerate(qrels.qids)}
    to_label = np.array([label_index.get(str(q), -1) for q in qids], dtype=np.int64)
    # run vocabulary -> labels vocabulary (a hash lookup over distinct ids only)
    in_labels = _in_labels(run, qrels)
    scored = run_qi >= 0
    width = max(len(qrels.vocab), 1)
    wanted = np.zeros(len(run), dtype=bool)
    top_n = np.where(scored, np.minimum(counts, depth), 0)
    wanted[np.repeat(starts, top_n) + ranks_within(top_n)] = True
    if len(qrels.keys) and labelled:
        # rows whose document is labelled for their own question, found in slices of a
        # million rows so that no int64 array of the whole run is ever built
        per_q = np.where(scored, to_label[np.maximum(run_qi, 0)], -1).astype(np.int32)
        row_lq = np.repeat(per_q, counts)
        step = 1 << 20
        for lo in range(0, len(run), step):
            part_code = in_labels[run.doc_codes[lo : lo + step]]
            part_lq = row_lq[lo : lo + step]
            cand = np.flatnonzero((part_code >= 0) & (part_lq >= 0))
            key = part_lq[cand].astype(np.int64) * width + part_code[cand]
            at = np.minimum(np.searchsorted(qrels.keys, key), len(qrels.keys) - 1)
            wanted[lo + cand[qrels.keys[at] == key]] = True
        del row_lq
    rows = np.flatnonzero(wanted).astype(np.int64)
    del wanted
    run_q = np.searchsorted(run.offsets, rows, side="right") - 1
    row_qi = run_qi[run_q]
    pos = rows - starts[run_q]
    if len(row_qi) and bool((np.diff(row_qi) < 0).any()):
        order = np.lexsort((pos, row_qi))  # questions asked for in another order
        rows, row_qi, pos = rows[order], row_qi[order], pos[order]
    row_code = in_labels[run.doc_codes[rows]].astype(np.int64)
    lq = to_label[row_qi] if len(row_qi) else np.zeros(0, dtype=np.int64)
    row_key = lq * width + row_code
    if len(qrels.keys):
        at = np.minimum(np.searchsorted(qrels.keys, row_key), len(qrels.keys) - 1)
        found = (row_code >= 0) & (lq >= 0) & (qrels.keys[at] == row_key)
        grade = np.where(found, qrels.grade[at], UNJUDGED)
        target = np.where(found, qrels.target[at], -1)
        lift = np.where(found, qrels.lift[at], 0)
    else:
        grade = np.full(len(rows), UNJUDGED, dtype=np.int64)
        target = np.full(len(rows), -1, dtype=np.int64)
        lift = np.zeros(len(rows), dtype=np.int64)
    judged = grade != UNJUDGED
    gain = np.where(judged, grade, 0)
    # A relevance target is earned once: by its first member retrieved.
    has_target = np.flatnonzero(target >= 0)
    if len(has_target):
        _, first = np.unique(target[has_target], return_index=True)
        repeat = np.ones(len(has_target), dtype=bool)
        repeat[first] = False
        gain[has_target[repeat]] = 0
    returned = np.zeros(nq, dtype=np.int64)
    returned[run_qi[scored]] = counts[scored]
    if qids is qrels.qids:
        ideal_q, ideal_g = qrels.ideal_q, qrels.ideal_g
    else:
        back = np.full(len(qrels.qids), -1, dtype=np.int64)
        back[to_label[to_label >= 0]] = np.flatnonzero(to_label >= 0)
        mapped = back[qrels.ideal_q] if len(qrels.ideal_q) else qrels.ideal_q
        ideal_q, ideal_g = mapped[mapped >= 0], qrels.ideal_g[mapped >= 0]
    ranked = Ranked(nq, row_qi, pos, gain, judged, returned, ideal_q, ideal_g, lift)
    answered = np.zeros(nq, dtype=bool)
    answered[run_qi[scored]] = True
    return Joined(
        ranked=ranked,
        not_in_labels=sum(1 for q in run.qids if str(q) not in qrels.label_ids),
        missing_from_run=int((~answered).sum()),
        run_qi=run_qi,
    )


@dataclass(frozen=True, eq=False)
class TopRows:
    """Each scored question's ranking cut at a depth, with what the labels say of each row
    (rows sorted by question, then rank): what the delta range and the judging cost read.

    Held compactly (a whole-ranking cut of a 100,000-question run is ten million rows): the
    grade, target, lift and document code columns are int32, and the document ids are
    taken from the run's vocabulary only when asked for (:attr:`docs`)."""

    nq: int
    qi: np.ndarray  # int64: question index of each row
    rank: np.ndarray  # int64: 1-based rank
    judged: np.ndarray  # bool: the document carries a judgment
    grade: np.ndarray  # int32: its grade (0 when unjudged)
    target: np.ndarray  # int32: its relevance target (-1: none)
    length: np.ndarray  # int64 per question: rows kept
    # int32: each row's document as an index into ``vocab`` (the run's distinct ids), so
    # that two rankings' documents are matched as integers (None: only ``docs``)
    codes: np.ndarray | None = None
    vocab: pa.Array | None = None
    # int32: an unjudged open dispute's highest deciding grade (0: any other row)
    lift: np.ndarray | None = None
    ids: pa.Array | None = None  # the document ids as given (None: taken from ``vocab``)

    @cached_property
    def docs(self) -> pa.Array:
        """The document id of each row (built on first use from ``codes`` and ``vocab``)."""
        if self.ids is not None:
            return self.ids
        assert self.codes is not None and self.vocab is not None
        return self.vocab.take(arrow_array(self.codes.astype(np.int64)))


def top_rows(run: Run, qrels: Qrels, depth: int | None, qids: np.ndarray) -> TopRows:
    """The top ``depth`` rows (every row for None) of ``run`` for each of ``qids``."""
    nq = len(qids)
    position = {str(q): i for i, q in enumerate(qids)}
    run_qi = np.array([position.get(str(q), -1) for q in run.qids], dtype=np.int64)
    label_index = {str(q): i for i, q in enumerate(qrels.qids)}
    to_label = np.array([label_index.get(str(q), -1) for q in qids], dtype=np.int64)
    counts = np.diff(run.offsets)
    scored = run_qi >= 0
    kept = np.where(scored, counts if depth is None else np.minimum(counts, depth), 0)
    rows = np.repeat(run.offsets[:-1], kept) + ranks_within(kept)
    row_qi = np.repeat(run_qi, kept)
    rank = ranks_within(kept) + 1
    if len(row_qi) and bool((np.diff(row_qi) < 0).any()):
        order = np.lexsort((rank, row_qi))
        rows, row_qi, rank = rows[order], row_qi[order], rank[order]
    in_labels = _in_labels(run, qrels)
    codes = run.doc_codes[rows]
    del rows
    row_code = in_labels[codes] if len(codes) else np.zeros(0, dtype=np.int64)
    lq = to_label[row_qi] if len(row_qi) else np.zeros(0, dtype=np.int64)
    width = max(len(qrels.vocab), 1)
    n = len(codes)
    grade = np.full(n, UNJUDGED, dtype=np.int32)
    target = np.full(n, -1, dtype=np.int32)
    lift = np.zeros(n, dtype=np.int32)
    if len(qrels.keys) and n:
        key = lq * width + row_code
        at = np.minimum(np.searchsorted(qrels.keys, key), len(qrels.keys) - 1)
        found = (row_code >= 0) & (lq >= 0) & (qrels.keys[at] == key)
        del key, lq, row_code
        hit = np.flatnonzero(found)
        del found
        at = at[hit]
        grade[hit] = qrels.grade[at]
        target[hit] = qrels.target[at]
        lift[hit] = qrels.lift[at]
        del hit, at
    judged = grade != UNJUDGED
    grade[~judged] = 0
    target[~judged] = -1
    length = np.zeros(nq, dtype=np.int64)
    length[run_qi[scored]] = kept[scored]
    return TopRows(
        nq=nq,
        qi=row_qi,
        rank=rank,
        judged=judged,
        grade=grade,
        target=target,
        length=length,
        lift=lift,
        codes=codes,
        vocab=run.doc_vocab,
    )
