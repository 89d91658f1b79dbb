"""What the two careful line readers (TREC, JSON Lines) share: lines, ids, scores, duplicates.

Lines are read in blocks of a MiB (:func:`read_lines`): a line break is LF, CRLF or a lone CR
(as pyarrow's CSV reader, the fast path, counts them), a UTF-8 byte order mark at the start
is dropped, blank lines are skipped (whole blank blocks without a Python loop), and a line
longer than :data:`MAX_LINE` is an error before it is held whole (:mod:`labelpool.textlines`,
the line reader ``import`` shares). The first problem in file order stops the reading.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from labelpool import textlines
from labelpool.runs import gzipped
from labelpool.runs.errors import RunError

EMPTY = "empty run file (no ranked documents)"
MAX_LINE = textlines.MAX_LINE  # bytes
BOM = textlines.BOM
# A decimal number as runs write them (not "1_000" or "0x1p3"); "inf" and "nan" are read to
# be refused as not finite.
_NUMBER = re.compile(
    rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)", re.IGNORECASE
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# The rows read so far: question, document and score columns.
Columns = tuple[list[str], list[str], list[float]]


def read_lines(path: Path, gz: bool) -> Iterator[tuple[int, bytes]]:
    """(1-based physical line number, line without its break) of every non-blank line."""
    with gzipped.opened(path, gz) as handle:
        yield from split_lines(path, gzipped.Blocks(path, gz, handle))


def split_lines(
    path: Path, read: Callable[[], bytes], *, final: bool = True
) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of the blocks ``read()`` returns (until an empty one); with
    ``final=False`` an unfinished last line is left out (a file's head). The one bounded
    line reader (:func:`labelpool.textlines.split_lines`), its error a :class:`RunError`."""
    return textlines.split_lines(
        read, lambda number: RunError(path, number, too_long()), final=final
    )


def too_long() -> str:
    return textlines.too_long("a run file")


def id_text(path: Path, number: int, raw: bytes, what: str) -> str:
    """A question or document id: UTF-8 without control characters."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RunError(path, number, f"{what} is not valid UTF-8 ({exc.reason})") from None
    return checked_id(path, number, text, what)


def checked_id(path: Path, number: int, text: str, what: str) -> str:
    """``text``, or the :class:`RunError` of an id holding a control character."""
    bad = _CONTROL.search(text)
    if bad:
        raise RunError(
            path, number, f"{what} {text!r} holds the control character U+{ord(bad[0]):04X}"
        )
    return text


def score_of(path: Path, number: int, raw: bytes) -> float:
    """A finite decimal score, or the :class:`RunError` of line ``number``."""
    try:
        shown = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RunError(path, number, f"score is not valid UTF-8 ({exc.reason})") from None
    if len(raw) > 64:
        shown = shown[:60] + "..."
    if not _NUMBER.fullmatch(raw):
        raise RunError(path, number, f"score {shown!r} is not a number")
    value = float(raw)
    if not math.isfinite(value):
        raise RunError(path, number, f"score {shown!r} is not a finite number")
    return value


def add_row(
    columns: Columns,
    seen: dict[tuple[str, str], int],
    path: Path,
    number: int,
    row: tuple[str, str, float],
) -> None:
    """Append one (question, document, score) row; a document seen before for the question
    raises a :class:`RunError` naming both lines."""
    qid, doc, score = row
    first = seen.setdefault((qid, doc), number)
    if first != number:
        raise RunError(
            path,
            number,
            f"document {doc!r} appears twice for question {qid!r} (lines {first} and {number})",
        )
    columns[0].append(qid)
    columns[1].append(doc)
    columns[2].append(score)


def non_empty(path: Path, columns: Columns) -> Columns:
    """``columns``, or the :class:`RunError` of a file with no ranked document."""
    if not columns[0]:
        raise RunError(path, 1, EMPTY)
    return columns
