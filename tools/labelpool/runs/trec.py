"""The careful TREC reader: whitespace-separated like trec_eval, ``#`` comments, exact lines.

``qid Q0 docid rank score tag``, one row a line; fields are separated by runs of spaces and
tabs, fields after the sixth are ignored (as trec_eval), and only the question, the document
and the score are kept. Every file the fast path (:mod:`labelpool.runs.fast`) refuses is read
here, which either accepts it or raises a :class:`~labelpool.runs.errors.RunError` naming the
first bad physical line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from labelpool.runs.errors import RunError
from labelpool.runs.lines import Columns, add_row, id_text, non_empty, score_of

_FIELDS = re.compile(rb"[ \t]+")


def parse_trec(path: Path, lines: Iterable[tuple[int, bytes]]) -> Columns:
    """Line-by-line TREC reader over ``(number, line)`` pairs; stops at the first error."""
    return non_empty(path, parse_trec_rows(path, lines))


def parse_trec_rows(path: Path, lines: Iterable[tuple[int, bytes]]) -> Columns:
    """:func:`parse_trec` without the empty-file check (a file's head)."""
    columns: Columns = ([], [], [])
    seen: dict[tuple[str, str], int] = {}
    split = _FIELDS.split
    for number, raw in lines:
        fields = split(raw.strip(b" \t"))
        if fields[0].startswith(b"#") or fields == [b""]:
            continue
        if len(fields) < 6:
            raise RunError(
                path,
                number,
                f"expected 6 fields `qid Q0 docid rank score tag`, found {len(fields)}",
            )
        qid = id_text(path, number, fields[0], "question id")
        doc = id_text(path, number, fields[2], "document id")
        score = score_of(path, number, fields[4])
        add_row(columns, seen, path, number, (qid, doc, score))
    return columns
