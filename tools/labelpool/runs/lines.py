"""What the two careful line readers (TREC, JSON Lines) share: lines, scores, duplicates."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

from labelpool.runs.errors import RunError

EMPTY = "empty run file (no ranked documents)"

# The rows read so far: question, document and score columns.
Columns = tuple[list[str], list[str], list[float]]


def lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(1-based physical line number, raw line) of every line."""
    yield from enumerate(data.split(b"\n"), start=1)


def score_of(path: Path, number: int, text: str) -> float:
    """A finite score, or the :class:`RunError` of line ``number``."""
    try:
        value = float(text)
    except ValueError:
        raise RunError(path, number, f"score {text!r} is not a number") from None
    if not math.isfinite(value):
        raise RunError(path, number, f"score {text!r} is not a finite number")
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
