"""A run grouped by question, read in windows: a run larger than memory can be scored.

:func:`windows` ``(path, rows) -> Iterator[Run]`` reads a clean TREC file (the fast path's
layout: one space or one tab between fields) with pyarrow's streaming CSV reader, 1 MiB
blocks at a time, and yields a :class:`~labelpool.runs.model.Run` for each window of about
``rows`` rows that ends on a question boundary (the last question read is carried into the
next window). Every question is in exactly one window, so per-question scores of the windows
put together are the scores of the whole run, and the memory held is one window and the
largest question.

:class:`Unstreamable` is control flow between this module and the score workflow, never an
error shown: a file this reader cannot take (not one of its layouts, a line the careful reader
must judge, a duplicate to name, a question met again after another: not grouped) is read
whole by :func:`labelpool.runs.read_run` instead, which accepts it or names the line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from labelpool.errors import LabelpoolError
from labelpool.runs import gzipped
from labelpool.runs.arrow import arrow_array, numpy_of
from labelpool.runs.fast import columns_of, csv_options, layout
from labelpool.runs.model import Run
from labelpool.runs.naming import system_name
from labelpool.runs.order import DuplicateFound, order
from labelpool.runs.read import careful_head

WINDOW_ROWS = 1 << 20  # about 50 MiB of parsed rows


class Unstreamable(LabelpoolError):
    """This file is read whole instead (the reason is the message)."""


def windows(
    path: Path, rows: int = WINDOW_ROWS, name: str | None = None, block: int = 1 << 20
) -> Iterator[Run]:
    """The run at ``path`` in windows of about ``rows`` rows (parsed ``block`` bytes at a
    time), each ending on a question boundary; raises :class:`Unstreamable` (possibly after
    some windows) when the file must be read whole, and
    :class:`~labelpool.runs.errors.RunError` for an error in its first 64 KiB."""
    path = Path(path)
    gz, head, whole = gzipped.head(path)
    if whole:
        raise Unstreamable("small enough to read whole")
    careful_head(path, head, False)  # an error in the head is named at once
    shape = layout(head)
    if shape is None:
        raise Unstreamable("not one space or one tab between fields")
    read, parse, convert = csv_options(*shape, block)
    system = name if name else system_name(path)
    seen: set[str] = set()
    held: list[pa.RecordBatch] = []
    held_rows = 0
    try:
        source = pa.input_stream(str(path), compression="gzip") if gz else str(path)
        reader = pacsv.open_csv(
            source, read_options=read, parse_options=parse, convert_options=convert
        )
        for batch in reader:
            held.append(batch)
            held_rows += batch.num_rows
            if held_rows < rows:
                continue
            table = pa.Table.from_batches(held)
            cut = _last_question_start(table)
            if cut == 0:
                continue  # one question so far: read on
            yield _window(path, system, table.slice(0, cut), seen)
            rest = table.slice(cut)
            held, held_rows = rest.to_batches(), rest.num_rows
    except (pa.ArrowException, OSError) as exc:
        raise Unstreamable(f"not read by the streaming reader ({exc})") from None
    if held_rows:
        yield _window(path, system, pa.Table.from_batches(held), seen)


def _last_question_start(table: pa.Table) -> int:
    """The row where the table's last question begins (0: the table is one question)."""
    chunks = [c for c in table.column("qid").chunks if len(c)]
    last = str(chunks[-1].dictionary[int(numpy_of(chunks[-1].indices)[-1])])
    end = int(table.num_rows)
    for chunk in reversed(chunks):  # each parse block has its own small dictionary
        is_last = np.array([str(v) == last for v in chunk.dictionary], dtype=bool)
        differ = np.flatnonzero(~is_last[numpy_of(chunk.indices)])
        if len(differ):
            return end - len(chunk) + int(differ[-1]) + 1
        end -= len(chunk)
    return 0


def _window(path: Path, system: str, table: pa.Table, seen: set[str]) -> Run:
    """One window's rows as a :class:`Run` in trec_eval order."""
    columns = columns_of(table)
    del table
    if columns is None:
        raise Unstreamable("a row the careful reader must judge")
    (q_codes, q_dict), doc, scores = columns
    # a parse block's dictionary also names the questions of the rows cut off: drop them
    used = np.zeros(len(q_dict), dtype=bool)
    used[q_codes] = True
    if not used.all():
        q_codes = (np.cumsum(used) - 1).astype(np.int32)[q_codes]
        q_dict = q_dict.filter(arrow_array(used))
    qid = (q_codes, q_dict)
    try:
        qids, offsets, codes, vocab, ordered = order(qid, doc, scores, check_duplicates=True)
    except DuplicateFound:
        raise Unstreamable("a duplicate document to name") from None
    names = {str(q) for q in qids}
    if names & seen:
        raise Unstreamable("not grouped by question")
    seen |= names
    return Run(
        name=system,
        path=path,
        sha256="",
        qids=qids,
        offsets=offsets,
        doc_codes=codes,
        doc_vocab=vocab,
        scores=ordered,
    )
