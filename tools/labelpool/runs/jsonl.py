"""The JSON Lines reader: ``{"qid","doc_id","score"}`` rows, or ``{"qid","doc_ids":[...]}``
ranked lists (the list order is kept: descending synthetic scores)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from labelpool.runs.errors import RunError
from labelpool.runs.lines import Columns, add_row, checked_id, non_empty, score_of


def parse_jsonl(path: Path, lines: Iterable[tuple[int, bytes]]) -> Columns:
    """``{"qid","doc_id","score"}`` rows, or ``{"qid","doc_ids":[...]}`` ranked lists, over
    ``(number, line)`` pairs; stops at the first error."""
    return non_empty(path, parse_jsonl_rows(path, lines))


def parse_jsonl_rows(path: Path, lines: Iterable[tuple[int, bytes]]) -> Columns:
    """:func:`parse_jsonl` without the empty-file check (a file's head)."""
    columns: Columns = ([], [], [])
    seen: dict[tuple[str, str], int] = {}
    list_line: dict[str, int] = {}
    kind: str | None = None
    for number, raw in lines:
        try:
            obj = json.loads(raw)
        except ValueError as exc:  # also UnicodeDecodeError, and ints over 4,300 digits
            raise RunError(path, number, f"bad JSON: {exc}") from None
        except RecursionError:
            raise RunError(path, number, "bad JSON: nested too deeply") from None
        if not isinstance(obj, dict) or "qid" not in obj:
            raise RunError(path, number, 'expected an object with "qid"')
        qid = _id_text(path, number, obj["qid"], "qid")
        this = "lists" if "doc_ids" in obj else "rows"
        if kind is None:
            kind = this
        elif kind != this:
            raise RunError(
                path, number, 'mixes {"doc_ids": [...]} lists with {"doc_id", "score"} rows'
            )
        if this == "lists":
            ranked = obj["doc_ids"]
            if not isinstance(ranked, list):
                raise RunError(path, number, '"doc_ids" must be a list of document ids')
            if qid in list_line:
                raise RunError(
                    path,
                    number,
                    f"question {qid!r} is ranked twice (lines {list_line[qid]} and {number})",
                )
            list_line[qid] = number
            _add_list(columns, path, number, qid, ranked)
        else:
            if "doc_id" not in obj or "score" not in obj:
                raise RunError(path, number, 'expected "qid", "doc_id" and "score" (or "doc_ids")')
            doc = _id_text(path, number, obj["doc_id"], "doc_id")
            value = obj["score"]
            score = _score(path, number, value)
            add_row(columns, seen, path, number, (qid, doc, score))
    return columns


def _add_list(columns: Columns, path: Path, number: int, qid: str, ranked: list[Any]) -> None:
    """The rows of one ranked list (scores n, n-1, ..., 1)."""
    n = len(ranked)
    local: set[str] = set()
    for i, d in enumerate(ranked):
        doc = _id_text(path, number, d, "doc_ids item")
        if doc in local:
            raise RunError(
                path,
                number,
                f"document {doc!r} appears twice in the list of question {qid!r}",
            )
        local.add(doc)
        columns[0].append(qid)
        columns[1].append(doc)
        columns[2].append(float(n - i))


def _id_text(path: Path, number: int, value: Any, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RunError(path, number, f"{what} {_short(value)} is not a string")
    text = str(value)
    if not text or any(c.isspace() for c in text):
        raise RunError(path, number, f"{what} {_short(text)} is empty or contains whitespace")
    return checked_id(path, number, text, what)


def _score(path: Path, number: int, value: Any) -> float:
    """A JSON score: a finite number, or a string holding one."""
    if isinstance(value, str):
        return score_of(path, number, value.encode("utf-8", "replace"))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RunError(path, number, f"score {_short(value)} is not a number")
    try:
        score = float(value)
    except OverflowError:
        score = math.inf
    if not math.isfinite(score):
        raise RunError(path, number, f"score {_short(value)} is not a finite number")
    return score


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 64 else text[:60] + "..."
