"""What scoring reads of each label, as Arrow columns: one row a label.

:func:`of_labels` ``(labels) -> pa.Table`` projects :class:`~labelpool.model.Label` objects to
the columns of :data:`SCHEMA`; the label index keeps these columns per blob, so that a warm
read serves them without building a label, and :mod:`labelpool.scoring.qrels` builds its
judgment arrays from them. :class:`Columns` is that table for one label set, aligned with the
set's questions (row ``i`` is the ``i``-th question), with the questions scoring reads.

* ``id``: the question id;
* ``judged``, ``relevant``: ``judged_ids`` and ``relevant_doc_ids`` as written;
* ``graded``, ``grade``: the documents of ``grades`` and their grades, in the file's order;
* ``members``, ``sizes``: the accepted classes' members, chained, and each class's size;
* ``marked``: the documents unjudged whatever else is said (``pooled_unjudged_ids``, then
  the pending batches' documents, each once), empty for a label without either;
* ``pending``: how many documents wait in a pending batch;
* ``is_judged``: :attr:`Label.is_judged`;
* ``resolves``: whether resolving verdicts could change the label (a record of judges, or a
  machine judge): a set where any row says so is scored through its labels;
* ``pool_system``, ``pool_k``, ``pool_run``: each pool entry's system, depth (null: ``k:
  null``) and recorded run blob (null: none), in the file's order (``compare``'s pool counts,
  ``bias``'s pooled systems, the runs as pooled that ``bias`` and provenance read).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.model import MACHINE, Label

IDS = pa.list_(pa.string())
SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("judged", IDS),
        ("relevant", IDS),
        ("graded", IDS),
        ("grade", pa.list_(pa.int64())),
        ("members", IDS),
        ("sizes", pa.list_(pa.int64())),
        ("marked", IDS),
        ("pending", pa.int64()),
        ("is_judged", pa.bool_()),
        ("resolves", pa.bool_()),
        ("pool_system", IDS),
        ("pool_k", pa.list_(pa.int64())),
        ("pool_run", IDS),
    ]
)


def of(labels: Mapping[str, Label]) -> Columns | None:
    """The columns a label set carries (a read through the label index), else None."""
    cols = getattr(labels, "columns", None)
    return cols if isinstance(cols, Columns) else None


def marked(label: Label) -> tuple[str, ...]:
    """:attr:`Label.unjudged_marked` in a fixed order (pooled-unjudged, then pending)."""
    if not label.pooled_unjudged_ids and not label.pending:
        return ()
    pending = (d.doc for b in label.pending for d in b.docs)
    return tuple(dict.fromkeys(chain(label.pooled_unjudged_ids, pending)))


def _lists(
    values: (
        list[tuple[str, ...]]
        | list[tuple[str | None, ...]]
        | list[tuple[int, ...]]
        | list[tuple[int | None, ...]]
    ),
    kind: pa.DataType,
) -> pa.Array:
    counts = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    offsets = np.zeros(len(values) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    flat = pa.array(list(chain.from_iterable(values)), kind)
    return pa.ListArray.from_arrays(pa.array(offsets), flat)


def of_labels(labels: Iterable[Label]) -> pa.Table:
    """The columns of ``labels``, one row each, in their order."""
    labs = list(labels)
    classes = [lab.relevant_classes for lab in labs]
    return pa.table(
        [
            pa.array([lab.id for lab in labs], pa.string()),
            _lists([lab.judged_ids for lab in labs], pa.string()),
            _lists([lab.relevant_doc_ids for lab in labs], pa.string()),
            _lists([tuple(lab.grades) for lab in labs], pa.string()),
            _lists([tuple(lab.grades.values()) for lab in labs], pa.int64()),
            _lists([tuple(chain.from_iterable(c)) for c in classes], pa.string()),
            _lists([tuple(map(len, c)) for c in classes], pa.int64()),
            _lists([marked(lab) for lab in labs], pa.string()),
            pa.array([len(lab.pending_ids) if lab.pending else 0 for lab in labs], pa.int64()),
            pa.array([lab.is_judged for lab in labs], pa.bool_()),
            pa.array([bool(lab.verdicts) or lab.judge_kind == MACHINE for lab in labs]),
            _lists([tuple(p.system for p in lab.pool) for lab in labs], pa.string()),
            _lists([tuple(p.k for p in lab.pool) for lab in labs], pa.int64()),
            _lists([tuple(p.run for p in lab.pool) for lab in labs], pa.string()),
        ],
        schema=SCHEMA,
    )


def flat(column: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, pa.Array]:
    """(row of each value, the values) of one list column: its lists chained."""
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not len(array):
        return np.zeros(0, dtype=np.int64), array.flatten()
    offsets = np.frombuffer(
        array.buffers()[1], dtype=np.int32, count=len(array) + 1, offset=array.offset * 4
    )
    counts = np.diff(offsets).astype(np.int64)
    return np.repeat(np.arange(len(array), dtype=np.int64), counts), array.flatten()


@dataclass(frozen=True, eq=False)
class Columns:
    """The columns of one label set: row ``i`` is the set's ``i``-th question; ``blobs``, when
    known, the git blob id of each row's file (what the arrays' cache patches by)."""

    table: pa.Table
    blobs: pa.Array | None = None  # strings, aligned with the rows

    @cached_property
    def row_of(self) -> Mapping[str, int]:
        return {q: i for i, q in enumerate(self.table.column("id").to_pylist())}

    @cached_property
    def resolves(self) -> bool:
        """Whether any label holds a record of judges or names a machine judge."""
        return bool(pc.any(self.table.column("resolves")).as_py())

    @cached_property
    def scored_rows(self) -> np.ndarray:
        """The rows of the judged questions, ordered by id (code point: UTF-8 byte order)."""
        judged = np.flatnonzero(_bools(self.table.column("is_judged")))
        ids = self.table.column("id").take(pa.array(judged))
        order = pc.sort_indices(ids).to_numpy(zero_copy_only=False)
        out: np.ndarray = judged[order]
        return out

    def ids(self, rows: np.ndarray) -> np.ndarray:
        """The question ids of ``rows``, as an object array of ``str``."""
        taken = self.table.column("id").take(pa.array(rows, pa.int64()))
        return np.array(taken.to_pylist(), dtype=object)

    def rows(self, qids: Sequence[str] | np.ndarray) -> np.ndarray:
        row_of = self.row_of
        return np.fromiter((row_of[str(q)] for q in qids), dtype=np.int64, count=len(qids))

    def not_judged(self) -> int:
        return len(self.table) - int(_bools(self.table.column("is_judged")).sum())


def _bools(column: pa.ChunkedArray) -> np.ndarray:
    return np.asarray(column.to_pylist(), dtype=bool) if len(column) else np.zeros(0, bool)
