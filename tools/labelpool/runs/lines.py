"""What the two careful line readers (TREC, JSON Lines) share: lines, ids, scores, duplicates.

Lines are read in blocks of a MiB (:func:`read_lines`): a line break is LF, CRLF or a lone CR
(as pyarrow's CSV reader, the fast path, counts them), a UTF-8 byte order mark at the start
is dropped, blank lines are skipped (whole blank blocks without a Python loop), and a line
longer than :data:`MAX_LINE` is an error before it is held whole. The first problem in file
order stops the reading.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from labelpool.runs import gzipped
from labelpool.runs.errors import RunError

EMPTY = "empty run file (no ranked documents)"
MAX_LINE = 1 << 20  # bytes
BOM = b"\xef\xbb\xbf"
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
    ``final=False`` an unfinished last line is left out (a file's head)."""
    number = 0  # lines finished so far
    pending = b""
    first = True
    while True:
        block = read()
        if first:
            first = False
            if block.startswith(BOM):
                block = block[len(BOM) :]
        if not block:
            break
        data = pending + block if pending else block
        if b"\r" in data[:-1]:  # CRLF and lone CR are line breaks (a final CR waits)
            data = data[:-1].replace(b"\r\n", b"\n").replace(b"\r", b"\n") + data[-1:]
        cut = data.rfind(b"\n")
        if cut < 0:
            pending = data
        else:
            body, pending = data[:cut], data[cut + 1 :]
            if body.isspace() or not body:
                number += body.count(b"\n") + 1
            else:
                for raw in body.split(b"\n"):
                    number += 1
                    if len(raw) > MAX_LINE:
                        raise RunError(path, number, too_long())
                    if raw and not raw.isspace():
                        yield number, raw
        if len(pending) > MAX_LINE:
            if not pending.isspace():
                raise RunError(path, number + 1, too_long())
            pending = b" "  # a blank start of a line: what follows counts
    if final and pending and not pending.isspace():
        yield number + 1, pending.rstrip(b"\r")


def too_long() -> str:
    return f"line longer than {MAX_LINE // (1 << 20)} MiB (not a run file?)"


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
