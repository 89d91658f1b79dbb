"""trec_eval's ``form_res_rels``: each question's retrieved relevance list, built for all
questions at once.

The qrels are the rows ``labelpool export trec`` writes (:func:`labelpool.model.qrels_rows`):
every judged document with its grade (class members the class's grade) and every
pooled-but-unjudged one as -1; a question is evaluated when it has at least one such row, as
trec_eval evaluates every question of its qrels file. The run is already in trec_eval's order
(score descending, ties by document id descending; :mod:`labelpool.runs.order`).

Each retrieved document gets trec_eval's relevance value: its grade (>= 0), :data:`NONPOOL`
(-1, not in the qrels) or :data:`UNJUDGED` (-2, in the qrels with a negative grade). Options:
``max_depth`` (``-M``: only the first N documents), ``judged_only`` (``-J``: unjudged documents
dropped after the cut, ranks closed up), ``complete`` (``-c``: a question the run lacks gets
trec_eval's one-document stand-in ranking, ``ceci_nest_pas_un_docno``).
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.model import QrelsRow
from labelpool.runs import Run, numpy_of, ranks_within

NONPOOL = -1  # trec_eval RELVALUE_NONPOOL
UNJUDGED = -2  # trec_eval RELVALUE_UNJUDGED
PAD = -9  # beyond the end of a ranking (never a relevance value)
BOGUS_DOC = "ceci_nest_pas_un_docno"  # trec_eval's stand-in for a question the run lacks
CELLS = 1 << 19  # cells of one chunk's (questions x ranks) matrices


@dataclass(frozen=True, eq=False)
class Lists:
    """Every evaluated question's relevance list, flattened in (question, rank) order."""

    qids: tuple[str, ...]  # the qrels questions evaluated, in strcmp order
    qi: np.ndarray  # int64 question index of each retrieved row
    rel: np.ndarray  # int64 relevance value of each row (grade, NONPOOL, UNJUDGED)
    num_ret: np.ndarray  # int64 per question
    rel_levels: np.ndarray  # int64 (questions, levels): judged qrels documents per grade
    stand_in: np.ndarray  # bool per question: the run lacks it (-c's stand-in ranking)
    judged_grades: np.ndarray  # int64 per question: qrels rows with a grade >= 0

    def chunks(self) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
        """(question slice, rel matrix padded with PAD, num_ret) for blocks of questions."""
        nq = len(self.qids)
        starts = np.concatenate([[0], np.cumsum(self.num_ret)])
        lo = 0
        while lo < nq:
            hi = lo + 1
            width = int(self.num_ret[lo])
            while hi < nq and max(width, int(self.num_ret[hi])) * (hi + 1 - lo) <= CELLS:
                width = max(width, int(self.num_ret[hi]))
                hi += 1
            width = max(width, 1)
            rows = slice(int(starts[lo]), int(starts[hi]))
            qi = self.qi[rows] - lo
            pos = np.arange(len(qi), dtype=np.int64) - (starts[lo:hi] - starts[lo])[qi]
            matrix = np.full((hi - lo, width), PAD, dtype=np.int64)
            matrix[qi, pos] = self.rel[rows]
            yield slice(lo, hi), matrix, self.num_ret[lo:hi]
            lo = hi


def build(
    run: Run,
    rows: list[QrelsRow],
    *,
    complete: bool = False,
    max_depth: int | None = None,
    judged_only: bool = False,
) -> tuple[Lists, list[str]]:
    """The relevance lists of ``run`` against the qrels ``rows``; also the qrels questions
    the run lacks (evaluated with the stand-in ranking when ``complete``, else left out)."""
    qids = sorted({q for q, _, _ in rows})
    index = {q: i for i, q in enumerate(qids)}
    row_q = np.array([index[q] for q, _, _ in rows], dtype=np.int64)
    grades = np.array([g for _, _, g in rows], dtype=np.int64)
    docs = pa.array([d for _, d, _ in rows], type=pa.string())
    nq = len(qids)
    run_index = [run.qid_index(q) for q in qids]
    missing = [q for q, i in zip(qids, run_index, strict=True) if i is None]
    stand_in = np.array([i is None for i in run_index], dtype=bool)
    counts = np.diff(run.offsets)
    starts = run.offsets[:-1]
    n = np.array([0 if i is None else int(counts[i]) for i in run_index], dtype=np.int64)
    first = np.array([0 if i is None else int(starts[i]) for i in run_index], dtype=np.int64)
    if max_depth is not None:
        n = np.minimum(n, max(max_depth, 0))
    run_rows = np.repeat(first, n) + ranks_within(n)
    qi = np.repeat(np.arange(nq, dtype=np.int64), n)
    # the qrels documents as codes of the run's vocabulary (null: the run never retrieved it)
    width = max(len(run.doc_vocab), 1)
    code = numpy_of(pc.index_in(docs, value_set=run.doc_vocab), fill=-1).astype(np.int64)
    known = code >= 0
    keys = row_q[known] * width + code[known]
    order = np.argsort(keys, kind="stable")
    keys, key_grade = keys[order], grades[known][order]
    rel = np.full(len(run_rows), NONPOOL, dtype=np.int64)
    if len(keys) and len(run_rows):
        wanted = qi * width + run.doc_codes[run_rows].astype(np.int64)
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        hit = keys[at] == wanted
        found = key_grade[at[hit]]
        # a negative grade in the qrels: in the pool, never judged
        rel[hit] = np.where(found < 0, UNJUDGED, found)
    if complete and stand_in.any():
        qi, rel, n = _stand_ins(qi, rel, n, stand_in, qids, rows, max_depth)
    if judged_only:
        keep = rel >= 0
        qi, rel = qi[keep], rel[keep]
        n = np.bincount(qi, minlength=nq).astype(np.int64)
    levels = int(grades.max()) + 1 if len(grades) and grades.max() >= 0 else 1
    judged = grades >= 0
    rel_levels = np.zeros((nq, levels), dtype=np.int64)
    np.add.at(rel_levels, (row_q[judged], grades[judged]), 1)
    judged_grades = np.bincount(row_q[judged], minlength=nq).astype(np.int64)
    lists = Lists(tuple(qids), qi, rel, n, rel_levels, stand_in, judged_grades)
    return lists, missing


def _stand_ins(
    qi: np.ndarray,
    rel: np.ndarray,
    n: np.ndarray,
    stand_in: np.ndarray,
    qids: list[str],
    rows: list[QrelsRow],
    max_depth: int | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Insert trec_eval's one-document ranking for each question the run lacks."""
    grade_of = {q: g for q, d, g in rows if d == BOGUS_DOC}
    depth = 1 if max_depth is None else min(1, max(max_depth, 0))
    n = n.copy()
    extra_q: list[int] = []
    extra_rel: list[int] = []
    for i in np.flatnonzero(stand_in):
        if depth:
            g = grade_of.get(qids[int(i)])
            extra_q.append(int(i))
            extra_rel.append(NONPOOL if g is None else (UNJUDGED if g < 0 else g))
            n[i] = 1
    all_q = np.concatenate([qi, np.asarray(extra_q, dtype=np.int64)])
    all_rel = np.concatenate([rel, np.asarray(extra_rel, dtype=np.int64)])
    order = np.argsort(all_q, kind="stable")
    return all_q[order], all_rel[order], n


def runid(run: Run) -> str:
    """The run tag trec_eval prints: the sixth field of the file's last content line (the
    system name for a JSON Lines run, which has no tag)."""
    path = Path(run.path)
    try:
        with path.open("rb") as handle:
            gz = handle.read(2) == b"\x1f\x8b"
        data = _gzip_tail(path) if gz else _tail(path)
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile):
        return run.name
    for line in reversed(data.splitlines()):
        body = line.lstrip()
        if not body or body.startswith(b"#"):
            continue
        fields = body.split()
        return fields[5].decode("utf-8", "replace") if len(fields) >= 6 else run.name
    return run.name


def _gzip_tail(path: Path, block: int = 1 << 16) -> bytes:
    """The last two blocks of a gzip file's content (read through once)."""
    last = b""
    with gzip.open(path, "rb") as handle:
        while chunk := handle.read(block):
            last = last[-block:] + chunk
    return last


def _tail(path: Path, block: int = 1 << 16) -> bytes:
    """The end of a plain file, long enough to hold its last content line."""
    with path.open("rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        start = max(0, size - block)
        while True:
            handle.seek(start)
            data = handle.read(size - start)
            content = [
                x for x in data.splitlines()[1:] if x.strip() and not x.lstrip().startswith(b"#")
            ]
            if start == 0 or content:
                return data
            start = max(0, start - block)
