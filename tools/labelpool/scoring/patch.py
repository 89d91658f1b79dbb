"""The judgment arrays of a label set patched from those of another that differs in a few
questions (the arrays' cache, :mod:`labelpool.scoring.stored`, holds the last set's arrays).

Each question's label is known by the blob id of its file (:attr:`Columns.blobs`): a question
whose blob is the same keeps its rows; the rows of a question changed, added or removed are
dropped and the changed and added questions' arrays are built alone (the same
:func:`~labelpool.scoring.qrels.build_table` on those rows) and merged in. Documents new to the
dictionary are appended to it (the codes of the others stay), and every key is re-keyed to the
new width (``qi * len(vocab) + code``) and question order. A relevance target keeps its id;
the new questions' targets take ids after every old one (ids are only compared for equality).
The patched arrays give every score a fresh build gives: the same (question, document)
judgments, the same targets up to their ids, the same ideal gains; the dictionary may hold
documents no question labels any more, which no lookup finds under a question.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.columns import Columns
from labelpool.runs import numpy_of
from labelpool.scoring.qrels import Qrels, build_table

SHARE = 0.05  # patch while the questions changed are at most this share of the set's
STALE = 0.25  # and the documents no question labels any more at most this share of the dictionary


def patched(old: Qrels, old_blobs: pa.Array, cols: Columns) -> Qrels | None:
    """The arrays of the judged questions of ``cols`` patched from ``old`` (the arrays of the
    questions ``old.qids`` whose files had the blob ids ``old_blobs``); None when too much
    changed (a fresh build is then as quick) or the blob ids are unknown."""
    if cols.blobs is None or cols.resolves or len(old_blobs) != len(old.qids):
        return None
    if len(old.open_q):  # arrays read through labels with a record of judges
        return None
    rows = cols.scored_rows
    qids = cols.ids(rows)
    ids = cols.table.column("id").take(pa.array(rows, pa.int64())).combine_chunks()
    blobs = cols.blobs.take(pa.array(rows, pa.int64()))
    old_ids = pa.array([str(q) for q in old.qids], pa.string())
    nq, old_nq = len(ids), len(old_ids)
    at = numpy_of(pc.index_in(ids, value_set=old_ids), fill=-1).astype(np.int64)
    named = at >= 0
    same = named.copy()
    if old_nq:
        old_blob = old_blobs.cast(pa.string()).take(pa.array(np.maximum(at, 0)))
        equal = pc.equal(old_blob, blobs.cast(pa.string())).cast(pa.int8())
        same &= numpy_of(equal, fill=0).astype(bool)
    fresh = np.flatnonzero(~same)
    new_qi = np.full(old_nq + 1, -1, dtype=np.int64)  # old question -> new (-1: dropped)
    new_qi[at[same]] = np.flatnonzero(same)
    if len(fresh) + old_nq - int(named.sum()) > SHARE * max(nq, old_nq, 1):
        return None  # questions changed, added and removed
    sub = build_table(
        cols.table.take(pa.array(rows[fresh], pa.int64())),
        qids[fresh],
        [{}] * len(fresh),
        0,
        frozenset(),
    )
    # the dictionary: the old one, then the changed questions' documents it lacks
    old_width = max(len(old.vocab), 1)
    code_of = np.full(len(sub.vocab), -1, dtype=np.int64)
    if len(sub.vocab):
        wanted = sub.vocab.cast(old.vocab.type)
        where = numpy_of(pc.index_in(old.vocab, value_set=wanted), fill=-1).astype(np.int64)
        hits = np.flatnonzero(where >= 0)
        code_of[where[hits]] = hits
    missing = np.flatnonzero(code_of < 0)
    code_of[missing] = len(old.vocab) + np.arange(len(missing), dtype=np.int64)
    vocab = old.vocab
    if len(missing):
        vocab = pa.concat_arrays([old.vocab, sub.vocab.take(pa.array(missing)).cast(vocab.type)])
    width = max(len(vocab), 1)
    # each new question's rows: an old question's block as it was (codes unchanged), or
    # its block of the arrays built here; runs of consecutive blocks are copied as one slice
    old_start = np.searchsorted(old.keys, np.arange(old_nq + 1, dtype=np.int64) * old_width)
    sub_width = max(len(sub.vocab), 1)
    sub_q, sub_code = np.divmod(sub.keys, sub_width)
    sub_code = code_of[sub_code]
    order = np.lexsort((sub_code, sub_q))
    sub_q, sub_code = sub_q[order], sub_code[order]
    sub_start = np.searchsorted(sub_q, np.arange(len(fresh) + 1, dtype=np.int64))
    counts = np.empty(nq, dtype=np.int64)
    counts[same] = np.diff(old_start)[at[same]]
    counts[fresh] = np.diff(sub_start)
    pieces = _pieces(same, at, old_start, sub_start)
    old_code = old.keys - (old.keys // old_width) * old_width
    top = int(old.target.max()) + 1 if len(old.target) else 0
    sub_target = np.where(sub.target >= 0, sub.target + top, -1)[order]

    def merged(kept: np.ndarray, new: np.ndarray) -> np.ndarray:
        parts = [(kept if from_old else new)[a:b] for from_old, a, b in pieces]
        return np.concatenate(parts) if parts else kept[:0]

    code = merged(old_code, sub_code)
    used = np.zeros(width, dtype=bool)
    used[code] = True
    if len(vocab) - int(used.sum()) > STALE * width:
        return None
    out = np.repeat(np.arange(nq, dtype=np.int64), counts) * width + code
    ideal_kept = new_qi[old.ideal_q] if len(old.ideal_q) else old.ideal_q
    return Qrels(
        qids=qids,
        vocab=vocab,
        keys=out,
        grade=merged(old.grade, sub.grade[order]),
        target=merged(old.target, sub_target),
        ideal_q=np.concatenate([ideal_kept[ideal_kept >= 0], fresh[sub.ideal_q]]),
        ideal_g=np.concatenate([old.ideal_g[ideal_kept >= 0], sub.ideal_g]),
        pending_docs=int(pc.sum(cols.table.column("pending").take(pa.array(rows))).as_py() or 0),
        not_judged=cols.not_judged(),
        label_ids=frozenset(cols.row_of),
        lift=merged(old.lift, sub.lift[order]),
        open_q=old.open_q[:0],
        open_g=old.open_g[:0],
    )


def _pieces(
    same: np.ndarray, at: np.ndarray, old_start: np.ndarray, sub_start: np.ndarray
) -> list[tuple[bool, int, int]]:
    """The slices (of the old arrays, or of those built here) whose concatenation gives the
    rows of the new questions in order: one slice per run of questions taken from one side
    in a row (an old run: old questions consecutive too)."""
    nq = len(same)
    if not nq:
        return []
    brk = np.ones(nq, dtype=bool)
    brk[1:] = (same[1:] != same[:-1]) | (same[1:] & (at[1:] != at[:-1] + 1))
    firsts = np.flatnonzero(brk)
    lasts = np.append(firsts[1:], nq) - 1
    sub_of = np.cumsum(~same) - 1  # each fresh question's index among the fresh ones
    out = []
    for first, last in zip(firsts.tolist(), lasts.tolist(), strict=True):
        if same[first]:
            out.append((True, int(old_start[at[first]]), int(old_start[at[last] + 1])))
        else:
            out.append((False, int(sub_start[sub_of[first]]), int(sub_start[sub_of[last] + 1])))
    return out
