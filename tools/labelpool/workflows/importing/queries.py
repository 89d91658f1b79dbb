"""Question texts for ``import``: by id, from a TSV, JSON Lines, a JSON list or TREC topics.

* TSV: ``qid<TAB>text`` lines.
* JSON Lines: one ``{qid|id|_id, text|query}`` object per line (BEIR's ``queries.jsonl``).
* JSON: a list of ``{qid|id|_id, text|query}`` objects, or TREC CAsT's nested topics
  ``[{"number": 106, "turn": [{"number": 1, "manual_rewritten_utterance": ..., ...}]}]``:
  one question per turn, id ``<topic number>_<turn number>``, text from
  ``manual_rewritten_utterance``, else ``raw_utterance``.
* TREC topics: ``<top><num>...<title>...</top>`` or ``<topic number="...">`` blocks.

``text_field`` names the field the text comes from (JSON and JSON Lines only): every object
must then carry it. Every error names the file and the line of the object or line at fault.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
import re
from pathlib import Path
from typing import Any

from labelpool.workflows.importing.input import (
    ImportFailed,
    ImportUsageError,
    check_text,
    head,
    joined,
    json_object,
    lines,
    quoted,
    read_text,
)

ID_FIELDS = ("qid", "id", "_id")
TEXT_FIELDS = ("text", "query")
CAST_TEXT_FIELDS = ("manual_rewritten_utterance", "raw_utterance")


def read_queries(path: Path, text_field: str | None = None) -> dict[str, str]:
    """Question texts by id (whitespace collapsed), in file order; the format is told by the
    first character that is not blank: ``<`` TREC topics, ``[`` JSON, ``{`` JSON Lines,
    anything else TSV. A JSON list is read whole (it may be one long line); the line formats
    by bounded lines (:func:`~labelpool.workflows.importing.input.lines`). A text validate
    would refuse (a control or bidirectional character) is refused at its line."""
    first = head(path).lstrip()[:1].decode("ascii", "replace")
    if text_field is not None and first not in ("[", "{"):
        raise ImportUsageError(
            "--text-field applies to JSON and JSON Lines questions; "
            "this file reads as " + ("TREC topics" if first == "<" else "TSV `qid<TAB>text`"),
            path=path,
        )
    if first == "[":
        return _read_json(path, read_text(path), text_field)
    numbered = list(lines(path, "a questions file"))
    if first == "<":
        return _read_topics(path, joined(numbered))
    if first == "{":
        try:
            return _read_jsonl(path, numbered, text_field)
        except ImportFailed as exc:
            if exc.line == 1 and len(numbered) > 1 and _one_object(joined(numbered)):
                raise ImportFailed(
                    "one JSON object over many lines; expected JSON Lines (one question "
                    "object a line) or a JSON list of questions",
                    path=path,
                    line=1,
                    column=1,
                ) from None
            raise
    out: dict[str, str] = {}
    for n, line in numbered:
        if not line.strip():
            continue
        qid, tab, rest = line.partition("\t")
        if not tab:
            raise ImportFailed("expected `qid<TAB>text`", path=path, line=n, column=1)
        _put(out, path, n, qid.strip(), rest)
    return out


def _one_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):  # JSONDecodeError, an integer of 4,300 digits
        return False


def _put(out: dict[str, str], path: Path, n: int, qid: str, text: str) -> None:
    if qid in out:
        raise ImportFailed(
            f"question {quoted(qid, repr)} appears twice", path=path, line=n, column=1
        )
    collapsed = " ".join(text.split())
    check_text(collapsed, f"question {quoted(qid, repr)}: the text", path, n)
    out[qid] = collapsed


# --------------------------------------------------------------------------- JSON Lines


def _read_jsonl(
    path: Path, numbered: list[tuple[int, str]], text_field: str | None
) -> dict[str, str]:
    out: dict[str, str] = {}
    for n, line in numbered:
        if not line.strip():
            continue
        record = json_object(line, path, n)
        qid, text = _flat(record, text_field, path, n)
        _put(out, path, n, qid, text)
    return out


def _flat(record: dict[str, Any], text_field: str | None, path: Path, n: int) -> tuple[str, str]:
    """Id and text of a ``{qid|id|_id, text|query}`` object."""
    key = next((k for k in ID_FIELDS if k in record), None)
    if key is None:
        raise ImportFailed(
            "expected a question id: `qid`, `id` or `_id`", path=path, line=n, column=1
        )
    qid = _id_value(record[key], key, path, n)
    fields = (text_field,) if text_field is not None else TEXT_FIELDS
    return qid, _text(record, fields, f"question {qid!r}", path, n)


def _id_value(value: object, key: str, path: Path, n: int) -> str:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise ImportFailed(
        f"`{key}` must be a string or an integer, not {json.dumps(value)[:40]}",
        path=path,
        line=n,
        column=1,
    )


def _text(record: dict[str, Any], fields: tuple[str, ...], what: str, path: Path, n: int) -> str:
    """The first of ``fields`` the object holds, as a non-empty string."""
    for key in fields:
        if key not in record:
            continue
        value = record[key]
        if not isinstance(value, str) or not value.strip():
            raise ImportFailed(
                f"{what}: `{key}` must be a non-empty string", path=path, line=n, column=1
            )
        return value
    wanted = " or ".join(f"`{k}`" for k in fields)
    raise ImportFailed(f"{what} has no {wanted}", path=path, line=n, column=1)


# --------------------------------------------------------------------------- JSON


class _Located(dict[str, Any]):
    """A JSON object and the line its ``{`` is on."""

    line: int = 1


class _LocatingDecoder(json.JSONDecoder):
    """Python's own JSON scanner, told to build objects through a function that notes the
    line each starts on (the C scanner takes no such function)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._build = vars(json.decoder)["JSONObject"]
        self.parse_object = self._parse_object
        self.scan_once = vars(json.scanner)["py_make_scanner"](self)

    def _parse_object(self, s_and_end: tuple[str, int], *args: Any) -> tuple[_Located, int]:
        obj, end = self._build(s_and_end, *args)
        located = _Located(obj)
        located.line = bisect.bisect_right(self._starts, s_and_end[1] - 1)
        return located, end


def _load_located(path: Path, text: str) -> Any:
    """``json.loads(text)`` with every object a :class:`_Located`."""
    try:
        return _LocatingDecoder(text).decode(text)
    except json.JSONDecodeError as exc:
        raise ImportFailed(
            f"invalid JSON: {exc.msg}", path=path, line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise ImportFailed("JSON nested too deeply", path=path, line=1, column=1) from None
    except ValueError:  # an integer of more than 4,300 digits
        raise ImportFailed(
            "invalid JSON: a number too long to read", path=path, line=1, column=1
        ) from None


def _line(value: object) -> int:
    return value.line if isinstance(value, _Located) else 1


def _read_json(path: Path, text: str, text_field: str | None) -> dict[str, str]:
    data = _load_located(path, text)
    if not isinstance(data, list) or not data:
        raise ImportFailed(
            "expected a non-empty JSON list of questions or of CAsT topics",
            path=path,
            line=1,
            column=1,
        )
    nested = isinstance(data[0], dict) and "turn" in data[0]
    out: dict[str, str] = {}
    for i, item in enumerate(data):
        if not isinstance(item, _Located):
            raise ImportFailed(
                f"item {i + 1} of the list is not a JSON object", path=path, line=1, column=1
            )
        if nested:
            for qid, turn in _turns(item, path):
                fields = (text_field,) if text_field is not None else CAST_TEXT_FIELDS
                _put(out, path, turn.line, qid, _text(turn, fields, f"turn {qid}", path, turn.line))
        else:
            qid, value = _flat(item, text_field, path, item.line)
            _put(out, path, item.line, qid, value)
    return out


def _turns(topic: _Located, path: Path) -> list[tuple[str, _Located]]:
    """``(<topic>_<turn>, turn object)`` of a CAsT topic."""
    if "number" not in topic:
        raise ImportFailed("a CAsT topic without `number`", path=path, line=topic.line, column=1)
    number = _id_value(topic["number"], "number", path, topic.line)
    turns = topic.get("turn")
    if not isinstance(turns, list):
        raise ImportFailed(
            f"topic {number}: `turn` must be a list of turns (CAsT topics)",
            path=path,
            line=topic.line,
            column=1,
        )
    out: list[tuple[str, _Located]] = []
    for turn in turns:
        if not isinstance(turn, _Located) or "number" not in turn:
            raise ImportFailed(
                f"topic {number}: a turn is not an object with a `number`",
                path=path,
                line=_line(turn) if isinstance(turn, _Located) else topic.line,
                column=1,
            )
        out.append((f"{number}_{_id_value(turn['number'], 'number', path, turn.line)}", turn))
    return out


# --------------------------------------------------------------------------- TREC topics

_TOP_RE = re.compile(r"<top>(.*?)</top>", re.DOTALL | re.IGNORECASE)
_TOPIC_RE = re.compile(r"<topic\s+number=\"([^\"]+)\"[^>]*>(.*?)</topic>", re.DOTALL | re.I)
_NUM_RE = re.compile(r"<num>\s*(?:Number:)?\s*(.*?)\s*(?:</num>|<|$)", re.DOTALL | re.I)
_TITLE_RE = re.compile(r"<(title|query)>\s*(?:Topic:)?(.*?)(?:</\1>|<|$)", re.DOTALL | re.I)


def _read_topics(path: Path, text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    blocks: list[tuple[int, str | None, str]] = [
        (m.start(), None, m.group(1)) for m in _TOP_RE.finditer(text)
    ] + [(m.start(), m.group(1), m.group(2)) for m in _TOPIC_RE.finditer(text)]
    if not blocks:
        raise ImportFailed("no <top> or <topic> blocks found", path=path, line=1, column=1)
    for start, number, body in sorted(blocks):
        n = text.count("\n", 0, start) + 1
        if number is None:
            num = _NUM_RE.search(body)
            if not num or not num.group(1).strip():
                raise ImportFailed("topic without <num>", path=path, line=n, column=1)
            number = num.group(1)
        title = _TITLE_RE.search(body)
        if not title or not title.group(2).strip():
            raise ImportFailed(
                f"topic {number.strip()!r} without <title>", path=path, line=n, column=1
            )
        _put(out, path, n, number.strip(), title.group(2))
    return out
