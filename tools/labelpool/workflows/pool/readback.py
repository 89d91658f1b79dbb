"""The read-back of a batch pool appends, without reading the whole file again.

Pool never writes a batch that does not read back as written. Most files it writes held no
``pending`` list before: the new text is the old text, ``pending:`` and the rendered batches.
The old text's data is in the label index (the row of its blob, the reading's checks passed
on it), so only the batches are read here: each batch's head (a few lines) through the one
reading, its ``{doc: X, verdict: null}`` lines with the line reader's own pattern. Anything
else (no row, a row not checked, a ``pending`` key already, a top-level line that is not a
block key, an odd character, a line of another form) gives None: the caller reads the
whole text back. What validate checks on the data and the text is checked on the result by
the caller as before (:func:`labelpool.rules.written.first_new_error`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from labelpool import yamlfile
from labelpool.labelindex import blobids
from labelpool.labelindex.files import Reading
from labelpool.labelindex.lazy import LazyLabels
from labelpool.labelset import LabelSet
from labelpool.yamlfile.canonical import NOT_LINEWISE, PENDING_ENTRY
from labelpool.yamlfile.reading import SUSPECT

Where = Mapping[str, tuple[Reading, int]]

# a top-level line of a block mapping: a plain key and ``:`` (then a value or nothing)
_TOP_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*:(?: [^\n]*)?")
_DOCS = "    docs:\n"
_DOC_LINE = "      - "
_COMMENT = "      #"


def sources(labels: LabelSet) -> Where:
    """Question id -> the reading and file its label came from (a read through the index),
    or nothing (labels read otherwise)."""
    return labels.labels.where if isinstance(labels.labels, LazyLabels) else {}


def old_data(where: Where, qid: str, old: str) -> Any:
    """The data of ``old`` (the file's text now) from the index, when its row is the blob of
    ``old`` and the reading's checks passed on it; else None."""
    found = where.get(qid)
    if found is None:
        return None
    reading, i = found
    blob = reading.blobs[i]
    if not (reading.checked(i) or blob in reading.passed):
        return None
    if blobids.blob_id_like(old, blob) != blob:
        return None
    return reading.data(i)


def appended(
    old: str, text: str, items: Sequence[str], data: Any, heads: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The data of ``text`` when it is ``old`` (whose data is ``data``) with ``pending:``
    and ``items`` added at its end and each item reads as a batch; else None. ``heads``:
    batch heads read already, by their text (one batch's files share theirs), kept as read;
    the data returned shares their values, which the caller only reads."""
    if not isinstance(data, dict) or "pending" in data or not old.endswith("\n"):
        return None
    added = "".join(items)
    if text != f"{old}pending:\n{added}" or NOT_LINEWISE.search(text) or " \n" in text:
        return None
    for line in old.split("\n"):
        if line and line[0] not in " #" and not _TOP_KEY.fullmatch(line):
            return None  # a document marker, a directive, a flow or odd top-level line
    batches = []
    for item in items:
        batch = _batch(item, {} if heads is None else heads)
        if batch is None:
            return None
        batches.append(batch)
    return {**data, "pending": batches}


def _batch(item: str, heads: dict[str, Any]) -> dict[str, Any] | None:
    """One rendered batch as read: its head through the one reading, its documents by the
    line reader's pattern; None for anything else."""
    head, sep, tail = item.partition(_DOCS)
    if not sep or not tail.endswith("\n"):
        return None
    if head not in heads:
        heads[head] = _head(head)
    batch = heads[head]
    if batch is None:
        return None
    docs: list[dict[str, Any]] = []
    for line in tail[:-1].split("\n"):
        if line.startswith(_COMMENT):
            continue
        entry = (
            PENDING_ENTRY.fullmatch(line, len(_DOC_LINE)) if line.startswith(_DOC_LINE) else None
        )
        if entry is None:
            return None
        doc, verdict = entry.group(1, 2)
        if verdict != "null" or SUSPECT.match(doc):
            return None
        docs.append({"doc": doc, "verdict": None})
    if not docs:
        return None
    return {**batch, "docs": docs}  # ``docs`` is the head's last key: it stays last


def _head(head: str) -> dict[str, Any] | None:
    """A batch's lines before ``docs:``, read through the one reading, as the batch with
    ``docs: []``; None when they do not read as one batch's mapping."""
    try:
        read = yamlfile.loads_written(f"pending:\n{head}    docs: []\n")
    except (yamlfile.YamlError, yamlfile.UnwritableError):
        return None
    pending = read.get("pending") if isinstance(read, dict) else None
    if not isinstance(pending, list) or len(pending) != 1 or len(read) != 1:
        return None
    batch = pending[0]
    if not isinstance(batch, dict) or batch.get("docs") != [] or list(batch)[-1] != "docs":
        return None
    return batch
