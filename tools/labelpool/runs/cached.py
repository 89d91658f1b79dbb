"""The run cache: a parsed run's arrays kept in the cache folder, keyed by the file's SHA-256.

:func:`read_run <labelpool.runs.read.read_run>` hashes every run file it reads (the bytes as
stored: a gzip file's compressed bytes); when :func:`load` finds an intact entry of that
digest, the arrays come from it and the file is not parsed. Only a run that parsed without
error is kept (:func:`save`), so every error is found, and named, by the readers as before.
The run's ``name`` and ``path`` come from the call, never from the entry.

An entry, ``<cache>/runs/<sha256>.run``: the line ``labelpool run cache\\n``, one JSON line
(:data:`FORMAT`, labelpool's version, the digest, the body's length and CRC-32, each array's
name, dtype and length; padded with spaces so that the body starts on a 64-byte boundary),
then the body: the arrays' raw bytes, each starting on a 64-byte boundary. It is read
through a private memory map (the arrays are views of it, writable, copied only where
written) and trusted only when every header field matches and the body's CRC-32 is right;
anything else (missing, torn, flipped bytes, another format or labelpool version, another
digest) is a miss, and the entry is rewritten after the parse. Writes are whole-file and
atomic (:mod:`labelpool.atomic`): two processes that fill one entry at once each replace it
with a complete file, and the last one stays. A folder that cannot be written is a cold read,
every time, and nothing is raised.

Bounded disk: after each write the least recently used entries (by modification time, which
a hit refreshes) are removed past :data:`MAX_ENTRIES` entries or :data:`MAX_BYTES` bytes,
whichever comes first.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from labelpool import __version__, atomic, cache

MAGIC = b"labelpool run cache\n"
FORMAT = 1
ALIGN = 64
MAX_ENTRIES = 32  # bias reads every committed run: a repository's systems fit, and more
MAX_BYTES = 2 << 30  # an entry of a 1,000,000-line run: about 17 MB
SUFFIX = ".run"
_NAME = re.compile(r"[0-9a-f]{64}\.run")
_HEADER_MAX = 4096


@dataclass(frozen=True)
class Arrays:
    """A run's arrays as :class:`labelpool.runs.model.Run` holds them."""

    qids: np.ndarray  # object: str
    offsets: np.ndarray  # int64
    doc_codes: np.ndarray  # int32
    doc_vocab: pa.Array  # string or large_string, no nulls
    scores: np.ndarray  # float64


def folder() -> Path:
    """Where entries live: ``runs/`` in :func:`labelpool.cache.cache_dir`."""
    return cache.cache_dir() / "runs"


def entry_of(where: Path, sha256: str) -> Path:
    return where / f"{sha256}{SUFFIX}"


def load(where: Path, sha256: str) -> Arrays | None:
    """The arrays kept for ``sha256`` in ``where`` when its entry is intact; else None."""
    file = entry_of(where, sha256)
    try:
        with open(file, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY)
    except (OSError, ValueError):  # missing, unreadable, or empty (mmap refuses 0 bytes)
        return None
    try:
        arrays = _parse(mapped, sha256)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, pa.ArrowException):
        arrays = None
    if arrays is not None:
        with contextlib.suppress(OSError):
            os.utime(file)  # most recently used
    return arrays


def _parse(mapped: mmap.mmap, sha256: str) -> Arrays | None:
    if mapped[: len(MAGIC)] != MAGIC:
        return None
    end = mapped.find(b"\n", len(MAGIC), _HEADER_MAX)
    if end < 0:
        return None
    start = end + 1
    header = json.loads(mapped[len(MAGIC) : start])
    size = len(mapped) - start
    if (
        not isinstance(header, dict)
        or header.get("format") != FORMAT
        or header.get("version") != __version__
        or header.get("sha256") != sha256
        or header.get("size") != size
        or start % ALIGN
    ):
        return None
    if zlib.crc32(memoryview(mapped)[start:]) != header.get("crc32"):
        return None
    parts: dict[str, np.ndarray] = {}
    at = start
    for name, dtype, count in header["parts"]:
        kind = np.dtype(dtype)
        parts[name] = np.frombuffer(mapped, dtype=kind, count=count, offset=at)
        at += _padded(kind.itemsize * count)
    if at != len(mapped):
        return None
    qids = _strings(parts["qid_offsets"], parts["qid_data"])
    offsets, codes, scores = parts["offsets"], parts["doc_codes"], parts["scores"]
    vocab = _strings(parts["vocab_offsets"], parts["vocab_data"])
    n = len(codes)
    if (
        offsets.dtype != np.int64
        or codes.dtype != np.int32
        or scores.dtype != np.float64
        or len(scores) != n
        or len(offsets) != len(qids) + 1
        or offsets[0] != 0
        or offsets[-1] != n
        or bool((offsets[1:] < offsets[:-1]).any())
        or (n and (int(codes.min()) < 0 or int(codes.max()) >= len(vocab)))
    ):
        return None
    return Arrays(np.asarray(qids.to_pylist(), dtype=object), offsets, codes, vocab, scores)


def _strings(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    kind = {np.dtype(np.int32): pa.string(), np.dtype(np.int64): pa.large_string()}[offsets.dtype]
    if len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != len(data):
        raise ValueError("string offsets do not fit their data")
    if bool((offsets[1:] < offsets[:-1]).any()):
        raise ValueError("string offsets go backwards")
    array = pa.Array.from_buffers(
        kind, len(offsets) - 1, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    array.validate(full=False)
    return array


def save(
    where: Path,
    sha256: str,
    arrays: Arrays,
    *,
    max_entries: int = MAX_ENTRIES,
    max_bytes: int = MAX_BYTES,
) -> None:
    """Keep ``arrays`` as the entry of ``sha256`` in ``where`` (atomically), then evict past
    ``max_entries`` or ``max_bytes``. A folder that cannot be written is only a slower next
    read: nothing is raised."""
    parts = _parts(arrays)
    if parts is None:
        return
    crc, size = 0, 0
    for _, array in parts:
        for chunk in _chunks(array):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
    fields: dict[str, Any] = {
        "format": FORMAT,
        "version": __version__,
        "sha256": sha256,
        "size": size,
        "crc32": crc,
        "parts": [[name, array.dtype.str, len(array)] for name, array in parts],
    }
    line = json.dumps(fields, sort_keys=True).encode("utf-8")
    head = MAGIC + line
    head += b" " * (-(len(head) + 1) % ALIGN) + b"\n"
    if len(head) > _HEADER_MAX:
        return
    file = entry_of(where, sha256)
    try:
        where.mkdir(parents=True, exist_ok=True)
        body = (chunk for _, array in parts for chunk in _chunks(array))
        atomic.write_bytes(file, _chained(head, body), durable=False)  # the CRC catches a tear
    except OSError:
        return
    evict(where, max_entries=max_entries, max_bytes=max_bytes)


def _chained(head: bytes, body: Iterator[memoryview | bytes]) -> Iterator[bytes]:
    yield head
    yield from body  # type: ignore[misc]


def _parts(arrays: Arrays) -> list[tuple[str, np.ndarray]] | None:
    """The arrays to write, in order; None when a run cannot be kept (nulls in its vocabulary)."""
    qids = [str(q) for q in arrays.qids]
    encoded = [q.encode("utf-8") for q in qids]
    qid_offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(e) for e in encoded], out=qid_offsets[1:])
    vocab = _string_parts(arrays.doc_vocab)
    if vocab is None:
        return None
    return [
        ("qid_offsets", qid_offsets),
        ("qid_data", np.frombuffer(b"".join(encoded), dtype=np.uint8)),
        ("offsets", np.ascontiguousarray(arrays.offsets, dtype=np.int64)),
        ("doc_codes", np.ascontiguousarray(arrays.doc_codes, dtype=np.int32)),
        ("vocab_offsets", vocab[0]),
        ("vocab_data", vocab[1]),
        ("scores", np.ascontiguousarray(arrays.scores, dtype=np.float64)),
    ]


def _string_parts(array: pa.Array) -> tuple[np.ndarray, np.ndarray] | None:
    """(offsets from 0, data bytes) of a string array without nulls; None otherwise."""
    widths = {pa.string(): np.int32, pa.large_string(): np.int64}
    kind = widths.get(array.type)
    if kind is None or array.null_count:
        return None
    buffers = array.buffers()
    width = np.dtype(kind).itemsize
    if buffers[1] is None or len(array) == 0:
        return np.zeros(1, dtype=kind), np.zeros(0, dtype=np.uint8)
    at = array.offset * width
    offsets = np.frombuffer(buffers[1], dtype=kind, count=len(array) + 1, offset=at)
    first, last = int(offsets[0]), int(offsets[-1])
    data = np.frombuffer(buffers[2], dtype=np.uint8, count=last - first, offset=first)
    return offsets - first if first else offsets, data


def _chunks(array: np.ndarray) -> Iterator[memoryview | bytes]:
    """The array's bytes, then zeros to the next 64-byte boundary."""
    raw = np.ascontiguousarray(array).data.cast("B")
    if len(raw):
        yield raw
    pad = -len(raw) % ALIGN
    if pad:
        yield bytes(pad)


def _padded(n: int) -> int:
    return n + (-n % ALIGN)


def evict(where: Path, *, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
    """Remove the least recently used entries of ``where`` until at most ``max_entries``
    remain and they take at most ``max_bytes``."""
    entries: list[tuple[int, int, Path]] = []
    try:
        with os.scandir(where) as listing:
            for item in listing:
                if _NAME.fullmatch(item.name):
                    with contextlib.suppress(OSError):
                        st = item.stat()
                        entries.append((st.st_mtime_ns, st.st_size, Path(item.path)))
    except OSError:
        return
    entries.sort(key=lambda e: e[0], reverse=True)  # most recent first
    kept, total = 0, 0
    for _, size, path in entries:
        if kept < max_entries and total + size <= max_bytes:
            kept += 1
            total += size
            continue
        kept = max_entries  # past the cap: every older entry goes too
        with contextlib.suppress(OSError):
            path.unlink()
