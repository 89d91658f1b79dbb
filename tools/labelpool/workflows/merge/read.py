"""``labelpool merge``, the fast reading of a label file with pending entries.

The one reading (:func:`labelpool.yamlfile.loads_fast`) gives the plain data; the lines of
the ``pending`` batches and entries, which the round-trip tree would give, are found by a
strict scan of the block that ``labelpool pool`` writes (one ``  - batch:`` item per batch at
indent 2, keys at indent 4, one ``      - {doc: ...}`` line per entry under ``    docs:``).
Anything else (CRLF, a file the reading refuses, another layout of the block, a count that
does not match the data) returns None: the caller reads the file round trip, which says
what is wrong where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import yamlfile
from labelpool.errors import LabelpoolError

__all__ = ["pending_lines", "read_fast"]

Lines = dict[tuple[Any, ...], int]


def read_fast(
    path: Path, text: str | None = None
) -> tuple[Any, str, list[batch_mod.PendingBatch]] | None:
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
