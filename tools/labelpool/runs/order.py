"""Rows into trec_eval order: score descending, ties by document id descending.

The rank column is ignored. Questions and documents are dictionary-encoded first (hash,
multi-threaded C++), so the rest works on integers. Run files are nearly always written
grouped by question and in rank order; that is checked in one vectorised pass, and then only
the question blocks are reordered. Otherwise pyarrow sorts all rows (question, score
descending, doc id descending).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.errors import InputError
from labelpool.runs.arrow import arrow_array, numpy_of, ranks_within

# (int32 codes, dictionary) of one column
Encoded = tuple[np.ndarray, pa.Array]


class DuplicateFound(InputError):
    """A document appears twice for one question (control flow: the readers that catch it,
    :mod:`labelpool.runs.read` and :mod:`labelpool.runs.stream`, name the lines)."""

    def __init__(self, message: str = "a document appears twice for one question") -> None:
        super().__init__(message)


def order(
    qid: Encoded | pa.Array, doc: Encoded | pa.Array, scores: np.ndarray, check_duplicates: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, pa.Array, np.ndarray]:
    """Put rows in trec_eval order; check duplicates; (qids, offsets, doc codes, vocabulary,
    scores). A duplicate raises :class:`DuplicateFound` when ``check_duplicates``."""
    scores = np.asarray(scores, dtype=np.float64)
    q_codes, q_dict = qid if isinstance(qid, tuple) else _encode(qid)
    qrank = _sort_ranks(q_dict)
    row_q = qrank[q_codes]
    qids = np.asarray(q_dict.take(pc.sort_indices(q_dict)).to_pylist(), dtype=object)
    del qid, q_codes
    codes, vocab = doc if isinstance(doc, tuple) else _encode(doc)
    del doc
    permutation = _presorted_order(row_q, scores, codes, vocab, len(qids))
    if permutation is None:
        doc_rank = _sort_ranks(vocab)[codes]
        table = pa.Table.from_arrays(
            [
                arrow_array(row_q.astype(np.int64)),
                arrow_array(scores),
                arrow_array(doc_rank.astype(np.int64)),
            ],
            names=["q", "score", "doc"],
        )
        del doc_rank
        permutation = numpy_of(
            pc.sort_indices(
                table,
                sort_keys=[("q", "ascending"), ("score", "descending"), ("doc", "descending")],
            )
        ).astype(np.int64)
        del table
    if permutation is not False:
        row_q, scores, codes = row_q[permutation], scores[permutation], codes[permutation]
    counts = np.bincount(row_q, minlength=len(qids)).astype(np.int64)
    offsets = np.zeros(len(qids) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    if check_duplicates:
        _check_duplicates(row_q, codes, len(vocab))
    return qids, offsets, codes, vocab, scores


def _encode(values: pa.Array) -> Encoded:
    encoded = pc.dictionary_encode(values)
    return numpy_of(encoded.indices).astype(np.int32, copy=False), encoded.dictionary


def _sort_ranks(values: pa.Array) -> np.ndarray:
    """Rank (int32, 0-based) of each entry of a small array of distinct strings, ascending."""
    out = np.empty(len(values), dtype=np.int32)
    out[numpy_of(pc.sort_indices(values)).astype(np.int64)] = np.arange(len(values), dtype=np.int32)
    return out


def _presorted_order(
    row_q: np.ndarray, scores: np.ndarray, codes: np.ndarray, vocab: pa.Array, nq: int
) -> np.ndarray | Literal[False] | None:
    """Rows already grouped by question and in trec order within each group: the block
    permutation (``False`` when none is needed); ``None`` when a full sort is needed."""
    n = len(row_q)
    if n < 2:
        return False
    change = row_q[1:] != row_q[:-1]
    if int(change.sum()) != nq - 1:
        return None  # a question's rows are not contiguous
    same = ~change
    s0, s1 = scores[:-1], scores[1:]
    if bool((same & (s0 < s1)).any()):
        return None
    tied = np.flatnonzero(same & (s0 == s1))
    if len(tied):
        left = vocab.take(arrow_array(codes[tied].astype(np.int64)))
        right = vocab.take(arrow_array(codes[tied + 1].astype(np.int64)))
        if not pc.all(pc.greater(left, right)).as_py():
            return None
    starts = np.concatenate([[0], np.flatnonzero(change) + 1]).astype(np.int64)
    block_q = row_q[starts]
    if bool((block_q[1:] > block_q[:-1]).all()):
        return False
    counts = np.diff(np.concatenate([starts, [n]]))
    by_q = np.argsort(block_q, kind="stable")
    rows: np.ndarray = np.repeat(starts[by_q], counts[by_q]) + ranks_within(counts[by_q])
    return rows.astype(np.int64)


def _check_duplicates(row_q: np.ndarray, codes: np.ndarray, n_vocab: int) -> None:
    """Raise :class:`DuplicateFound` when a doc id appears twice for one question."""
    if len(codes) < 2:
        return
    width = max(n_vocab, 1)
    small = int(row_q.max()) * width + width < 2**31
    key: np.ndarray = row_q.astype(np.int32 if small else np.int64)
    key *= width
    key += codes
    key.sort()
    if bool((key[1:] == key[:-1]).any()):
        raise DuplicateFound()
