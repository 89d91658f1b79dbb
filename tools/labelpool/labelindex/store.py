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

A few new rows go to a side file instead (:func:`side_of`, :func:`save_side`: the same layout,
its header naming also the length and CRC-32 of the main file's body it adds to), rewritten
whole with every row it held; its rows come after the main file's, a later row of a blob
winning. A side file that is not intact, or adds to another main file, is not read (the next
write replaces it); the main file is rewritten whole, and the side file removed, when the
side would grow past :data:`SIDE_SHARE` of the main file's rows.
"""

from __future__ import annotations

import contextlib
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
FORMAT = 3  # 3: the labels' ``pool_run`` column
SCHEMA = pa.schema([("blob", pa.string()), ("data", pa.large_binary()), ("checked", pa.bool_())])
SIDE_SHARE = 0.05  # rows of the side file, as a share of the main file's, before a rewrite


@dataclass
class Rows:
    """The index's rows: blob id -> row, the JSON of each row, whether it was checked, and
    the whole table (None for an empty index); ``base``, the (length, CRC-32) of the main
    file's body, and ``side``, the side file's rows (after the main file's)."""

    row_of: dict[str, int] = field(default_factory=dict)
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    data: bytes | memoryview = b""
    checked: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    table: pa.Table | None = None
    base: tuple[int, int] | None = None
    side: Rows | None = None

    @property
    def main_rows(self) -> int:
        return len(self.offsets) - 1

    def json_of(self, row: int) -> bytes:
        if row >= self.main_rows and self.side is not None:
            return self.side.json_of(row - self.main_rows)
        return bytes(self.data[int(self.offsets[row]) : int(self.offsets[row + 1])])

    def with_side(self, side: Rows) -> Rows:
        """These rows, then ``side``'s (a later row of a blob wins)."""
        if self.table is None or side.table is None:
            return self
        n = self.main_rows
        row_of = self.row_of
        row_of.update((b, n + i) for b, i in side.row_of.items())
        checked = np.concatenate([self.checked, side.checked])
        table = pa.concat_tables([self.table, side.table])
        return Rows(row_of, self.offsets, self.data, checked, table, self.base, side)


def schema_of(extra: pa.Schema | None) -> pa.Schema:
    """The index's columns: :data:`SCHEMA`, then a reading's own."""
    return SCHEMA if extra is None else pa.schema([*SCHEMA, *extra])


def header_of(tag: str, size: int, crc: int, base: tuple[int, int] | None = None) -> bytes:
    fields: dict[str, Any] = {
        "format": FORMAT,
        "version": __version__,
        "tag": tag,
        "size": size,
        "crc32": crc,
    }
    if base is not None:  # a side file: the main file's body it adds to
        fields["base_size"], fields["base_crc32"] = base
    return json.dumps(fields, sort_keys=True).encode("utf-8") + b"\n"


def side_of(file: Path) -> Path:
    """The side file of the index ``file``."""
    return file.with_name(file.name + ".side")


def load(file: Path, tag: str, extra: pa.Schema | None = None) -> Rows:
    """The rows of ``file`` when it is an intact index of this format, version, tag and
    columns (:func:`schema_of` ``extra``), then those of its side file when that is an
    intact one adding to it; else none."""
    schema = schema_of(extra)
    rows = _read(file, tag, schema, None)
    if rows.base is None:
        return rows
    side = _read(side_of(file), tag, schema, rows.base)
    return rows.with_side(side) if side.table is not None else rows


def _read(file: Path, tag: str, schema: pa.Schema, base: tuple[int, int] | None) -> Rows:
    try:
        with open(file, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # missing, unreadable, or empty (mmap refuses 0 bytes)
        return Rows()
    try:
        return _parse(memoryview(mapped), tag, schema, base)
    except (ValueError, TypeError, KeyError, IndexError, OSError, pa.ArrowException):
        return Rows()


def _parse(view: memoryview, tag: str, schema: pa.Schema, base: tuple[int, int] | None) -> Rows:
    if bytes(view[: len(MAGIC)]) != MAGIC:
        return Rows()
    end = bytes(view[len(MAGIC) : len(MAGIC) + 512]).find(b"\n")
    if end < 0:
        return Rows()
    start = len(MAGIC) + end + 1
    header = json.loads(bytes(view[len(MAGIC) : start]))
    body = view[start:]
    crc = zlib.crc32(body)
    if not isinstance(header, dict) or bytes(view[len(MAGIC) : start]) != header_of(
        tag, len(body), crc, base
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
    if any(not isinstance(b, str) for b in blobs):
        return Rows()
    row_of = {b: i for i, b in enumerate(blobs)}  # a side file: a later row of a blob wins
    if base is None and len(row_of) != len(blobs):
        return Rows()
    return Rows(row_of, offsets, raw, checked, table, (len(body), crc))


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
    """Replace ``file`` atomically with an index of ``table`` (:func:`schema_of` columns),
    and remove its side file. A cache that cannot be written is only a slower next read:
    nothing is raised."""
    _write(file, tag, table, None)
    with contextlib.suppress(OSError):
        side_of(file).unlink(missing_ok=True)


def save_side(file: Path, tag: str, base: tuple[int, int], table: pa.Table) -> None:
    """Replace the side file of ``file`` atomically with the rows ``table``, adding to the
    main file whose body has the length and CRC-32 ``base``."""
    _write(side_of(file), tag, table, base)


def _write(file: Path, tag: str, table: pa.Table, base: tuple[int, int] | None) -> None:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table.combine_chunks())
    body = sink.getvalue()
    head = MAGIC + header_of(tag, body.size, zlib.crc32(memoryview(body)), base)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        # the CRC catches a torn file
        atomic.write_bytes(file, [head, memoryview(body)], durable=False)  # type: ignore[list-item]
    except OSError:
        pass
