"""``labelpool merge``, the fast reading of a label file with pending entries.

The one reading (:func:`labelpool.yamlfile.loads_fast`) gives the plain data; the lines of
the ``pending`` batches and entries, which the round-trip tree would give, are found by a
strict scan of the block that ``labelpool pool`` writes (one ``  - batch:`` item per batch at
indent 2, keys at indent 4, one ``      - {doc: ...}`` line per entry under ``    docs:``).
Anything else (CRLF, a file the reading refuses, another layout of the block, a count that
does not match the data) returns None: the caller reads the file round trip, which says
what is wrong where.

:func:`read_valid` is that reading with the label set's checks on the same data (one parse
of each file where ``merge`` parsed it twice, once to check it and once to read it): it
vouches for a file only when every check passes, and the caller checks any other file as
:mod:`labelpool.labelset` does, which says what is wrong where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import labelset, yamlfile
from labelpool.errors import LabelpoolError
from labelpool.model import Label
from labelpool.rules import linebreaks, lists

__all__ = ["pending_lines", "read_fast", "read_valid", "with_batches"]

Reading = tuple[Any, str, list[batch_mod.PendingBatch]]

Lines = dict[tuple[Any, ...], int]


def read_fast(path: Path, text: str | None = None) -> Reading | None:
    """(plain data, text, batches) as :func:`merge_collect.read_label` gives them, or None."""
    try:
        if text is None:
            raw = path.read_bytes()
            if b"\r" in raw or len(raw) > yamlfile.MAX_BYTES:
                return None
            text = raw.decode("utf-8")
        if "\r" in text:
            return None
        data = yamlfile.loads_fast(text, path)
    except (OSError, UnicodeDecodeError, LabelpoolError):
        return None
    return with_batches(path, text, data)


def read_valid(
    path: Path, raw: bytes, *, schema_file: Path, max_bytes: int, max_depth: int
) -> tuple[Label, Reading | None] | None:
    """(the label, the reading :func:`read_fast` gives, or None when it gives none) of a
    label file's bytes that :func:`labelpool.labelset.load_files` would load (the guarded
    reading, LP041, the schema, LP042, LP022, LP025/LP027/LP040), from one parse; None when
    any check fails or cannot tell (the caller checks the file as the label set does)."""
    if linebreaks.check(raw):
        return None
    try:
        data = labelset.read_guarded(path, raw, max_bytes=max_bytes, max_depth=max_depth)
        label = labelset.label_of(
            data, str(path), raw, schema_file=schema_file, max_bytes=max_bytes, max_depth=max_depth
        )
    except LabelpoolError:
        return None
    if label.id != path.stem or (
        lists.unjudged_relevant(label.relevant_doc_ids, set(label.judged_ids))
        or lists.graded_out_of_scope(label.grades, label.relevant_doc_ids, label.relevant_classes)
        or lists.judged_pooled_unjudged(label.pooled_unjudged_ids, label.judged)
    ):
        return None
    if b"\r" in raw or len(raw) > yamlfile.MAX_BYTES or not isinstance(data, dict):
        return label, None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return label, with_batches(path, text, data)


def with_batches(path: Path, text: str, data: Any) -> Reading | None:
    """(data, text, batches) of ``text`` already read as ``data`` (the one reading), or None
    when its ``pending`` block is not in the strict layout (or holds no batch)."""
    if not isinstance(data, dict):
        return None
    lines = pending_lines(text, data)
    if lines is None:
        return None
    try:
        batches = batch_mod.read(data, str(path), lines.__getitem__)
        batch_mod.check_one_line(text, batches, str(path))
    except (LabelpoolError, KeyError, TypeError, ValueError, AttributeError):
        return None  # the round-trip reading reports it
    return data, text, batches


def pending_lines(text: str, data: dict[Any, Any]) -> Lines | None:
    """1-based lines of ``("pending",)``, each ``("pending", b)`` and each
    ``("pending", b, "docs", d)``; None when the block is not in the strict layout."""
    pending = data.get("pending")
    if not isinstance(pending, list):
        return None
    lines = text.split("\n")
    try:
        start = lines.index("pending:")
    except ValueError:
        return None
    out: Lines = {("pending",): start + 1}
    bi = -1
    counts: list[int] = []
    in_docs = False
    for n in range(start + 1, len(lines)):
        line = lines[n]
        content = line.lstrip(" ")
        if not content or content.startswith("#"):
            continue
        indent = len(line) - len(content)
        if indent == 0:
            break  # the next top-level key
        if indent == 2:
            if not content.startswith("- ") or content.startswith(("- -", "- {", "- [", "- docs")):
                return None
            bi += 1
            counts.append(0)
            in_docs = False
            out[("pending", bi)] = n + 1
        elif indent == 4:
            if bi < 0 or content.startswith("-"):
                return None
            in_docs = content == "docs:"
        elif indent == 6 and in_docs:
            if not content.startswith("- {"):
                return None
            out[("pending", bi, "docs", counts[bi])] = n + 1
            counts[bi] += 1
        elif in_docs or indent % 2:
            return None
    if bi + 1 != len(pending):
        return None
    for batch, found in zip(pending, counts, strict=True):
        docs = batch.get("docs") if isinstance(batch, dict) else None
        if found != (len(docs) if isinstance(docs, list) else 0):
            return None
    return out
