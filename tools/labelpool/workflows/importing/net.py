"""The net under the per-record checks of ``import`` and ``add``: every label text they are
about to write passes validate's per-file rules first
(:func:`labelpool.rules.written.first_new_error`: the size bound, the text rules, the schema,
LP042), so that a writer and validate cannot drift apart. Nothing is written when one text
fails; the error names the input's file and the line of the question's first record.

A text the direct writer wrote is checked against the data it reads as
(:func:`labelpool.labelfile.written_label`) rather than read back: the text rules still read
every character, and the property test of that writer holds the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labelpool import schemas
from labelpool.config import Config
from labelpool.findings import Finding
from labelpool.labelfile import NewLabel, written_label
from labelpool.rules.written import first_error_of_new, first_new_error
from labelpool.workflows.importing.input import ImportFailed, Origin, quoted
from labelpool.yamlfile import MAX_BYTES, MAX_DEPTH


@dataclass(frozen=True)
class Limits:
    """What ``validate`` reads a label file with: the schema file, the size and depth bounds."""

    schema_file: Path = field(default_factory=lambda: schemas.schema_path(schemas.LABEL))
    max_bytes: int = MAX_BYTES
    max_depth: int = MAX_DEPTH


def limits_of(cfg: Config) -> Limits:
    """The repository's :class:`Limits` (its schema copy, ``max_file_bytes``, ``max_depth``)."""
    return Limits(schemas.schema_path(schemas.LABEL, cfg.root), cfg.max_file_bytes, cfg.max_depth)


def least_bytes(item: NewLabel) -> int:
    """A lower bound of the size of ``item``'s label file, known before it is written: its
    ids and text, each as often as the file holds it (a character is at least a byte)."""
    ids = (item.judged, item.relevant, item.pooled_unjudged, item.grades)
    return len(item.qid) + len(item.question) + sum(sum(map(len, part)) for part in ids)


def oversized(item: NewLabel, limits: Limits) -> str | None:
    """Why ``item``'s label file would pass the size bound, by :func:`least_bytes` (before
    its text is made: a text of many MiB costs seconds to write), or None."""
    least = least_bytes(item)
    if least <= limits.max_bytes:
        return None
    return _too_big(item, f"at least {least:,}", limits)


def checked_text(item: NewLabel, limits: Limits) -> tuple[str, str | None]:
    """``item``'s label text and why validate would refuse it (None: it would not); a text
    the size alone refuses is not made (empty)."""
    why = oversized(item, limits)
    if why is not None:
        return "", why
    text, data = written_label(item)
    return text, problem(item, text, data, limits)


def problem(item: NewLabel, text: str, data: Any, limits: Limits) -> str | None:
    """Why validate would refuse ``text``, ``item``'s label file (``data``: what the text
    reads as, None to read it), or None."""
    found = first_new_error(
        None,
        text,
        schema_file=limits.schema_file,
        max_bytes=limits.max_bytes,
        max_depth=limits.max_depth,
        data=data,
    )
    return None if found is None else _why(item, text, found, limits)


def _why(item: NewLabel, text: str, found: Finding, limits: Limits) -> str:
    if found.rule == "LP001":
        return _too_big(item, f"{len(text.encode('utf-8', 'surrogatepass')):,}", limits)
    return (
        f"validate would refuse its label file ({found.rule} at its line {found.line}: "
        f"{found.message})"
    )


def _too_big(item: NewLabel, size: str, limits: Limits) -> str:
    question = len(item.question.encode("utf-8", "surrogatepass"))
    whose = f" (the question text alone {question:,})" if question > limits.max_bytes // 2 else ""
    return (
        f"its label file would have {size} bytes{whose}; the bound is {limits.max_bytes:,} (LP001)"
    )


def texts(items: list[NewLabel], limits: Limits, origins: Mapping[str, Origin]) -> list[str]:
    """Each item's label text, once every one passes the net; else the first refusal
    (:class:`~labelpool.workflows.importing.input.ImportFailed`, at the item's origin)."""
    for item in items:
        _refuse(item, oversized(item, limits), origins)
    written = [written_label(item) for item in items]
    first = first_error_of_new(
        written,
        schema_file=limits.schema_file,
        max_bytes=limits.max_bytes,
        max_depth=limits.max_depth,
    )
    if first is not None:
        index, found = first
        _refuse(items[index], _why(items[index], written[index][0], found, limits), origins)
    return [text for text, _ in written]


def _refuse(item: NewLabel, why: str | None, origins: Mapping[str, Origin]) -> None:
    if why is None:
        return
    origin = origins.get(item.qid)
    raise ImportFailed(
        f"question {quoted(item.qid, repr)}: {why}; nothing written",
        path=None if origin is None else origin.path,
        line=None if origin is None else origin.line,
    )
