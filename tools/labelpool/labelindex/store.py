"""The index file: one row per blob id, in Arrow's IPC stream format behind a checked header.

Layout: the line ``labelpool label index\\n``, one JSON line (the :data:`FORMAT` number,
labelpool's version, the reading's tag, the body's length and CRC-32), then the body: an
Arrow IPC stream of one record batch with the columns

* ``blob``: the git blob id (hex) of the file's bytes;
* ``data``: the plain data those bytes read to, as JSON (UTF-8);
* ``checked``: whether the label checks of the reading (schema, bounds, id types, the
  contradictions validate refuses) passed on it;
* the reading's own columns after these (``extra``: for labels, :data:`labelpool.columns.SCHEMA`,
  what scoring reads of the label), meaningful where ``checked`` holds.

The file is read through a memory map and trusted only when every header field matches and
the CRC-32 of the body is right; anything else (missing, torn, flipped bytes, another
format or labelpool version, another tag) reads as an empty index, which the next command
rewrites. Writes are whole-file and atomic (:mod:`labelpool.atomic`): two processes that
fill it at once each replace it with a complete file of their own, and the last one stays.
"""

from __future__ import annotations

import json
import mmap
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from labelpool import __version__, atomic

MAGIC = b"labelpool label index\n"
FORMAT = 2
SCHEMA = pa.schema([("blob", pa.string()), ("data", pa.large_binary()), ("checked", pa.bool_())])


@dataclass
class Rows:
    """The index's rows: blob id -> row, the JSON of each row, whether it was checked, and
    the whole table (None for an empty index)."""

    row_of: dict[str, int] = field(default_factory=dict)
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    data: bytes | memoryview = b""
    checked: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    table: pa.Table | None = None

    def json_of(self, row: int) -> bytes:
        return bytes(self.data[int(self.offsets[row]) : int(self.offsets[row + 1])])


def schema_of(extra: pa.Schema | None) -> pa.Schema:
    """The index's columns: :data:`SCHEMA`, then a reading's own."""
    return SCHEMA if extra is None else pa.schema([*SCHEMA, *extra])


def header_of(tag: str, size: int, crc: int) -> bytes:
    fields = {"format": FORMAT, "version": __version__, "tag": tag, "size": size, "crc32": crc}
    return json.dumps(fields, sort_keys=True).encode("utf-8") + b"\n"


def load(file: Path, tag: str, extra: pa.Schema | None = None) -> Rows:
    """The rows of ``file`` when it is an intact index of this format, version, tag and
    columns (:func:`schema_of` ``extra``); else none."""
    try:
        with open(file, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # missing, unreadable, or empty (mmap refuses 0 bytes)
        return Rows()
    try:
        return _parse(memoryview(mapped), tag, schema_of(extra))
    except (ValueError, TypeError, KeyError, IndexError, OSError, pa.ArrowException):
        return Rows()


def _parse(view: memoryview, tag: str, schema: pa.Schema) -> Rows:
    if bytes(view[: len(MAGIC)]) != MAGIC:
        return Rows()
    end = bytes(view[len(MAGIC) : len(MAGIC) + 512]).find(b"\n")
    if end < 0:
        return Rows()
    start = len(MAGIC) + end + 1
    header = json.loads(bytes(view[len(MAGIC) : start]))
    body = view[start:]
    if not isinstance(header, dict) or bytes(view[len(MAGIC) : start]) != header_of(
        tag, len(body), zlib.crc32(body)
    ):
        return Rows()
    table = pa.ipc.open_stream(pa.py_buffer(body)).read_all()
    if table.schema != schema:
        return Rows()
    table = table.combine_chunks()
    blobs = table.column("blob").to_pylist()
    data = table.column("data").chunk(0) if table.num_rows else pa.array([], pa.large_binary())
    buffers = data.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int64, count=len(data) + 1, offset=data.offset * 8)
    raw = memoryview(buffers[2]) if buffers[2] is not None else b""
    checked = table.column("checked").to_numpy(zero_copy_only=False).astype(bool)
    if any(not isinstance(b, str) for b in blobs) or len(set(blobs)) != len(blobs):
        return Rows()
    return Rows({b: i for i, b in enumerate(blobs)}, offsets, raw, checked, table)


def table_of(rows: list[tuple[str, bytes, bool]], extra: pa.Table | None = None) -> pa.Table:
    """The table of ``rows`` (blob id, JSON, checked), with ``extra``'s columns beside."""
    base = [
        pa.array([r[0] for r in rows], pa.string()),
        pa.array([r[1] for r in rows], pa.large_binary()),
        pa.array([r[2] for r in rows], pa.bool_()),
    ]
    return table_with(base, extra)


def table_with(base: list[Any], extra: pa.Table | None) -> pa.Table:
    """The table of the three columns of :data:`SCHEMA` (``base``) and ``extra``'s beside."""
    if extra is None:
        return pa.table(base, schema=SCHEMA)
    return pa.table([*base, *extra.columns], schema=schema_of(extra.schema))


def save(file: Path, tag: str, table: pa.Table) -> None:
    """Replace ``file`` atomically with an index of ``table`` (:func:`schema_of` columns). A
    cache that cannot be written is only a slower next read: nothing is raised."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table.combine_chunks())
    body = sink.getvalue().to_pybytes()
    head = MAGIC + header_of(tag, len(body), zlib.crc32(body))
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(file, [head, body], durable=False)  # the CRC catches a torn file
    except OSError:
        pass
