"""The judgment arrays kept on disk between commands (the arrays' cache).

:func:`prepare` ``(labels, cache_file)`` makes the arrays of ``labels`` ready for scoring:
loaded from ``cache_file`` (:func:`cache_file_for`, in labelpool's cache folder, outside the
tracked tree, safe to delete) when it holds those of the same content digest
(``LabelSet.digest``); else patched from the arrays it holds when the two label sets differ
in a few questions (:mod:`labelpool.scoring.patch`, by each question's blob id), else built;
then written there atomically.

The file: the line ``labelpool score arrays\\n``, one JSON line (:data:`FORMAT`, labelpool's
version, the digest, the counts, each array's name, type, length and place, the body's length
and CRC-32), then the body: the arrays' bytes, each at a multiple of 8. It is read through a
memory map (the arrays are read-only views of it) and trusted only when the header matches
and the CRC-32 of the body is right; anything else reads as no arrays, rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from labelpool import __version__, atomic, cache, columns
from labelpool.model import Label
from labelpool.scoring import patch
from labelpool.scoring.qrels import Qrels, held, hold, qrels_for

MAGIC = b"labelpool score arrays\n"
FORMAT = 3
NUMBERS = ("keys", "grade", "target", "ideal_q", "ideal_g", "lift", "open_q", "open_g")
TEXTS = ("qids", "label_ids", "blobs")


@dataclass(frozen=True)
class Stored:
    """What the file holds: the arrays, their label set's digest, each question's blob id."""

    digest: str
    qrels: Qrels
    blobs: pa.Array


def prepare(labels: Mapping[str, Label], cache_file: Path | None) -> None:
    """Make the judgment arrays of ``labels`` ready for scoring, through the file cache.

    Without a digest or a file this only builds them in memory.
    """
    digest = str(getattr(labels, "digest", "") or "")
    if cache_file is None or not digest:
        qrels_for(labels)
        return
    if held(labels) is not None:
        return
    stored = load(cache_file)
    if stored is not None and stored.digest == digest:
        hold(labels, stored.qrels)
        return
    cols = columns.of(labels)
    blobs = pa.array([], pa.string())
    if cols is not None and cols.blobs is not None and not cols.resolves:
        blobs = cols.blobs.take(pa.array(cols.scored_rows, pa.int64()))
        if stored is not None:
            patched = patch.patched(stored.qrels, stored.blobs, cols)
            if patched is not None:
                hold(labels, patched)
    save(cache_file, digest, qrels_for(labels), blobs)


def cache_file_for(labels_dir: Path) -> Path:
    """Where :func:`prepare` keeps the arrays of one label folder (labelpool's cache folder)."""
    key = hashlib.sha256(str(labels_dir.resolve()).encode()).hexdigest()[:24]
    return cache.cache_dir() / f"score-qrels-{key}.bin"


def _texts(values: Any) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, UTF-8 bytes) of strings (a string array, or any values): int32 offsets
    where they fit (the run's ids are ``pa.string``: the dictionary's type matches)."""
    array = values if isinstance(values, pa.Array) else pa.array([str(v) for v in values])
    array = array.cast(pa.large_string())
    buffers = array.buffers()
    offsets = np.frombuffer(
        buffers[1], dtype=np.int64, count=len(array) + 1, offset=array.offset * 8
    )
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else None
    raw = np.zeros(0, np.uint8) if data is None else data[int(offsets[0]) : int(offsets[-1])]
    offsets = offsets - offsets[0]
    return (offsets.astype(np.int32) if int(offsets[-1]) < 2**31 else offsets), raw


def _strings(offsets: np.ndarray, raw: np.ndarray) -> pa.Array:
    kind = pa.string() if offsets.dtype == np.int32 else pa.large_string()
    return pa.Array.from_buffers(
        kind, len(offsets) - 1, [None, pa.py_buffer(offsets), pa.py_buffer(raw)]
    )


def save(cache_file: Path, digest: str, q: Qrels, blobs: pa.Array) -> None:
    """Replace ``cache_file`` atomically with ``q`` (the arrays of the label set ``digest``,
    whose judged questions' files have the blob ids ``blobs``, or none). A cache that cannot
    be written only costs time: nothing is raised."""
    arrays: dict[str, np.ndarray] = {n: getattr(q, n) for n in NUMBERS}
    arrays["vocab_offsets"], arrays["vocab_data"] = _texts(q.vocab)
    for name, values in (("qids", q.qids), ("label_ids", list(q.label_ids)), ("blobs", blobs)):
        arrays[f"{name}_offsets"], arrays[f"{name}_data"] = _texts(values)
    places = []
    at = 0
    for name, array in arrays.items():
        places.append([name, array.dtype.str, len(array), at])
        at += -(-array.nbytes // 8) * 8
    crc = 0
    for chunk in _chunks(arrays):
        crc = zlib.crc32(chunk, crc)
    fields = {
        "format": FORMAT,
        "version": __version__,
        "digest": digest,
        "counts": [q.pending_docs, q.not_judged],
        "arrays": places,
        "size": at,
        "crc32": crc,
    }
    line = json.dumps(fields, sort_keys=True).encode("utf-8")
    line += b" " * (-(len(MAGIC) + len(line) + 1) % 8)  # the body at a multiple of 8
    head = MAGIC + line + b"\n"
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(cache_file, [head, *_chunks(arrays)], durable=False)
    except OSError:
        pass


def _chunks(arrays: dict[str, np.ndarray]) -> Iterator[bytes]:
    for array in arrays.values():
        raw = np.ascontiguousarray(array).view(np.uint8).reshape(-1)
        yield raw.data.cast("B")  # type: ignore[misc]
        if array.nbytes % 8:
            yield bytes(8 - array.nbytes % 8)


def load(cache_file: Path) -> Stored | None:
    """What ``cache_file`` holds, when it is intact and of this format and version."""
    try:
        with open(cache_file, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # missing, unreadable, or empty
        return None
    try:
        return _parse(memoryview(mapped))
    except (OSError, ValueError, KeyError, IndexError, TypeError, pa.ArrowException):
        return None  # old or corrupt: rebuilt


def _parse(view: memoryview) -> Stored | None:
    if bytes(view[: len(MAGIC)]) != MAGIC:
        return None
    end = bytes(view[len(MAGIC) : len(MAGIC) + (1 << 16)]).find(b"\n")
    if end < 0:
        return None
    start = len(MAGIC) + end + 1
    fields = json.loads(bytes(view[len(MAGIC) : start]))
    body = view[start:]
    if (
        not isinstance(fields, dict)
        or fields.get("format") != FORMAT
        or fields.get("version") != __version__
        or fields.get("size") != len(body)
        or fields.get("crc32") != zlib.crc32(body)
    ):
        return None
    a: dict[str, np.ndarray] = {}
    for name, kind, count, at in fields["arrays"]:
        a[name] = np.frombuffer(body, dtype=np.dtype(kind), count=count, offset=at)
    texts = {n: _strings(a[f"{n}_offsets"], a[f"{n}_data"]) for n in TEXTS}
    pending, not_judged = fields["counts"]
    q = Qrels(
        qids=texts["qids"].to_numpy(zero_copy_only=False),
        vocab=_strings(a["vocab_offsets"], a["vocab_data"]),
        pending_docs=int(pending),
        not_judged=int(not_judged),
        label_ids=frozenset(texts["label_ids"].to_pylist()),
        **{n: a[n] for n in NUMBERS},
    )
    return Stored(str(fields["digest"]), q, texts["blobs"])
