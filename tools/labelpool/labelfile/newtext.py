"""A new label file's text written directly, byte for byte what the ruamel dump of
:func:`labelpool.labelfile.new.new_label_text` writes, for the common case.

The dump costs about 10 ms a file (``import`` of 10,000 questions spent most of its time
there); this writer costs a few microseconds. It answers None for anything it is not sure
to write exactly as the dump does (a scalar ruamel would double-quote, wrap or write as a
complex key; a grade or ``k`` that is not a plain int), and the caller then dumps through
ruamel. A property test holds the two equal (``tests/unit/labelfile/test_newtext.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from labelpool.yamlfile.quoting import needs_quotes
from labelpool.yamlfile.textcheck import ESCAPE_RE

# Characters ruamel writes as they are inside single quotes (its "printable" set without the
# line breaks NEL, LS, PS, the BOM and characters beyond the BMP, which are left to ruamel).
_WRITTEN_AS_IS = re.compile("[ -~\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*")
MAX_VALUE = 1000  # longer scalars are left to ruamel (it wraps lines past its width)
MAX_KEY = 100  # ruamel writes a longer key (from about 120 characters) as a complex key `? k`


@dataclass(frozen=True)
class PoolEntry:
    """The ``pool`` entry of a new label: which system's top k, when (None: unknown)."""

    system: str
    k: int | None
    date: str | None


@dataclass(frozen=True)
class NewLabel:
    """What a new label file says (:func:`labelpool.labelfile.new.new_label_text`), for both
    of its writers: this module's and the ruamel dump."""

    qid: str
    question: str
    relevant: tuple[str, ...] = ()
    judged: tuple[str, ...] = ()
    grades: Mapping[str, int] = field(default_factory=dict)
    pooled_unjudged: tuple[str, ...] = ()
    pool: PoolEntry | None = None  # written only when something was judged or pooled


def _scalar(value: str, limit: int = MAX_VALUE) -> str | None:
    """``value`` as the dump writes it (plain, or single-quoted when plain would be
    misread), or None."""
    if len(value) > limit or not _WRITTEN_AS_IS.fullmatch(value) or ESCAPE_RE.search(value):
        return None
    if not needs_quotes(value):
        return value
    return "'" + value.replace("'", "''") + "'"


def _id_list(key: str, items: Iterable[str], data: dict[str, Any]) -> list[str] | None:
    wanted = sorted({str(i) for i in items})
    data[key] = wanted
    if not wanted:
        return [f"{key}: []"]
    lines = [f"{key}:"]
    for item in wanted:
        text = _scalar(item)
        if text is None:
            return None
        lines.append(f"  - {text}")
    return lines


def label_text(label: NewLabel) -> str | None:
    """The text of a new label file (see :func:`labelpool.labelfile.new.new_label_text`), or
    None when the ruamel dump must write it."""
    written = text_and_data(label)
    return None if written is None else written[0]


def text_and_data(label: NewLabel) -> tuple[str, dict[str, Any]] | None:
    """:func:`label_text` and the plain data that text reads as, gathered while it is
    written: what a caller checks against the schema without reading the text back (a
    property test holds the two equal, ``tests/unit/labelfile/test_newtext.py``); None when
    the ruamel dump must write it."""
    head = [_scalar(label.qid), _scalar(label.question)]
    if head[0] is None or head[1] is None:
        return None
    data: dict[str, Any] = {"id": label.qid, "question": label.question}
    lines = [f"id: {head[0]}", f"question: {head[1]}"]
    for key, items in (("relevant_doc_ids", label.relevant), ("judged_ids", label.judged)):
        part = _id_list(key, items, data)
        if part is None:
            return None
        lines += part
    grades = label.grades
    if grades:
        lines.append("grades:")
        data["grades"] = {}
        for doc in sorted(grades):
            value = grades[doc]
            written = _scalar(doc, MAX_KEY)
            if written is None or type(value) is not int:
                return None
            lines.append(f"  {written}: {value}")
            data["grades"][doc] = value
    if label.pooled_unjudged:
        part = _id_list("pooled_unjudged_ids", label.pooled_unjudged, data)
        if part is None:
            return None
        lines += part
    pool = label.pool
    if pool is not None and (label.judged or label.pooled_unjudged):
        k = pool.k
        name = _scalar(pool.system)
        when = "null" if pool.date is None else _scalar(pool.date)
        if name is None or when is None or (k is not None and type(k) is not int):
            return None
        lines += [
            "pool:",
            f"  - system: {name}",
            f"    k: {'null' if k is None else k}",
            f"    date: {when}",
        ]
        data["pool"] = [{"system": pool.system, "k": k, "date": pool.date}]
    return "\n".join(lines) + "\n", data
