"""Label files read through the index: parsed only when their blob id is new to it.

:func:`read` gives each path's blob id (:mod:`.blobids`), its plain data (from the index,
or ``parse(path, bytes)`` for a blob it has not seen) and whether the reading's label checks
already passed on that blob; :meth:`Reading.save` writes the index back (only when something
was learnt) with the caller's checks recorded. A file that cannot be parsed raises and is
never kept. The index lives in :func:`labelpool.cache.cache_dir`, one file per folder and
reading (``index-<key>.arrow``); deleting it changes nothing but the time a command takes.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat as stat_mod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from labelpool import cache
from labelpool.errors import InputError
from labelpool.labelindex import blobids, store

KEEP_EXTRA = 1.0  # rows of blobs no longer present kept, as a share of the present ones


@dataclass(frozen=True)
class Entry:
    """One file as read: its path, blob id, plain data, and whether its checks passed."""

    path: Path
    blob: str
    data: Any
    checked: bool


@dataclass
class Reading:
    """What one :func:`read` found, file by file (``paths``, ``names``, ``blobs``, ``at``: each
    file's row in the index, -1 for a file parsed here), and what :meth:`save` keeps."""

    file: Path
    tag: str
    rows: store.Rows
    paths: list[Path] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    blobs: list[str] = field(default_factory=list)
    at: list[int] = field(default_factory=list)
    parsed: dict[int, Any] = field(default_factory=dict)  # file -> data parsed here
    new: dict[str, bytes] = field(default_factory=dict)  # blob -> JSON of parsed files
    passed: dict[str, int] = field(default_factory=dict)  # blob -> its row in ``fresh``
    fresh: pa.Table | None = None  # the reading's own columns of blobs that passed here
    extra: pa.Schema | None = None  # the reading's own columns (store.schema_of)
    keep: bool = True  # False: read without the index, and never written to it
    folder: Path | None = None  # the folder of ``names`` (``paths`` then built when asked)
    whole: bool = False  # every label file of the folder read (a save may prune the index)

    def path(self, i: int) -> Path:
        """The path of file ``i``."""
        if self.paths:
            return self.paths[i]
        assert self.folder is not None
        return self.folder / self.names[i]

    def checked(self, i: int) -> bool:
        """Whether the reading's checks passed on file ``i``'s blob before."""
        return self.at[i] >= 0 and bool(self.rows.checked[self.at[i]])

    def data(self, i: int) -> Any:
        """The plain data of file ``i`` (decoded from the index on each call)."""
        at = self.at[i]
        return self.parsed[i] if at < 0 else json.loads(self.rows.json_of(at))

    @property
    def entries(self) -> list[Entry]:
        return [
            Entry(self.path(i), b, self.data(i), self.checked(i)) for i, b in enumerate(self.blobs)
        ]

    def mark_checked(self, entry: Entry) -> None:
        """Record that the reading's checks passed on ``entry``'s blob (a reading without
        columns of its own)."""
        if not entry.checked:
            self.passed[entry.blob] = 0

    def record(self, files: list[int], columns: pa.Table | None) -> None:
        """Record that the checks passed on the blobs of ``files`` (indices), with their
        columns (row ``j`` those of ``files[j]``; a reading with :attr:`extra`)."""
        self.passed.update((self.blobs[i], j) for j, i in enumerate(files))
        self.fresh = columns

    def columns(self, files: list[int]) -> pa.Table:
        """The reading's own columns of ``files`` (indices), one row each: the index's where
        the checks passed before, else those :meth:`record` gave."""
        assert self.extra is not None
        parts = [] if self.rows.table is None else [self.rows.table.select(self.extra.names)]
        before = len(parts[0]) if parts else 0
        if self.fresh is not None:
            parts.append(self.fresh)
        if not parts:
            return self.extra.empty_table()
        at, checked, passed, blobs = self.at, self.rows.checked, self.passed, self.blobs
        rows = [
            at[i] if at[i] >= 0 and checked[at[i]] else before + passed[blobs[i]] for i in files
        ]
        return take_rows(pa.concat_tables(parts), np.asarray(rows, dtype=np.int64))

    def save(self) -> None:
        """Write the index when a blob was parsed or checked for the first time: the new rows
        to its side file while that stays small (:data:`store.SIDE_SHARE`), else the whole
        index: the rows of every file read, then the rows of blobs no longer read: after a
        :attr:`whole` read up to as many again (the rest pruned), after a partial one all."""
        if not self.keep or (not self.new and not self.passed):
            return
        if not self._save_side():
            self._save_whole()

    def _save_side(self) -> bool:
        """Write the rows new to the index (parsed, or checked for the first time) with the
        side file's rows, when the index is intact and they stay few; whether it did."""
        old, passed = self.rows, self.passed
        if old.base is None or old.table is None:
            return False
        update: list[int] = []
        added: list[tuple[str, bytes, bool]] = []
        seen: set[str] = set()
        for i, blob in enumerate(self.blobs):
            at = self.at[i]
            if blob in seen:
                continue
            seen.add(blob)
            raw = self.new.get(blob)
            if raw is not None:
                added.append((blob, raw, blob in passed))
            elif at >= 0 and blob in passed and not old.checked[at]:
                update.append(at)
        before = 0 if old.side is None or old.side.table is None else old.side.table.num_rows
        if before + len(update) + len(added) > store.SIDE_SHARE * old.main_rows:
            return False
        parts = [] if old.side is None or old.side.table is None else [old.side.table]
        parts += self._new_parts(update, added)
        store.save_side(self.file, self.tag, old.base, pa.concat_tables(parts))
        return True

    def _new_parts(self, update: list[int], added: list[tuple[str, bytes, bool]]) -> list[Any]:
        """The rows of old rows whose checks passed here (``update``) and of blobs parsed
        here (``added``)."""
        old, passed = self.rows, self.passed
        parts = []
        if update and old.table is not None:
            base = old.table.take(pa.array(update, pa.int64()))
            blobs = base.column("blob").to_pylist()
            checked = pa.array([True] * len(blobs))
            columns = [base.column("blob"), base.column("data"), checked]
            extra = self._extra([passed[b] for b in blobs])
            parts.append(store.table_with(columns, extra))
        if added:
            parts.append(
                store.table_of(added, self._extra([passed.get(b, -1) for b, _, _ in added]))
            )
        return parts

    def _save_whole(self) -> None:
        old, passed = self.rows, self.passed
        keep: list[int] = []  # old rows as they are
        update: list[int] = []  # old rows whose checks passed here
        added: list[tuple[str, bytes, bool]] = []
        seen: set[str] = set()
        for i, blob in enumerate(self.blobs):
            if blob in seen:
                continue
            seen.add(blob)
            at = self.at[i]
            raw = self.new.get(blob)
            if raw is not None:
                added.append((blob, raw, blob in passed))
            elif at >= 0:
                (keep if old.checked[at] or blob not in passed else update).append(at)
        # a partial read knows nothing of the folder's other files: it keeps every row
        room = int(len(seen) * KEEP_EXTRA) if self.whole else len(old.row_of)
        for blob, at in old.row_of.items():
            if room <= 0:
                break
            if blob not in seen:
                keep.append(at)
                room -= 1
        parts = [] if old.table is None else [take_rows(old.table, np.asarray(keep, np.int64))]
        parts += self._new_parts(update, added)
        schema = store.schema_of(self.extra)
        table = pa.concat_tables(parts) if parts else schema.empty_table()
        store.save(self.file, self.tag, table)

    def _extra(self, rows: list[int]) -> pa.Table | None:
        """The reading's own columns of rows of :attr:`fresh` (-1: none, nulls)."""
        if self.extra is None:
            return None
        if self.fresh is None:
            return pa.table([pa.nulls(len(rows), f.type) for f in self.extra], schema=self.extra)
        return self.fresh.take(pa.array([r if r >= 0 else None for r in rows], pa.int64()))


class NotRegularFile(InputError):
    """A path is a FIFO, a device or a socket (reading it could block or never end)."""

    def __init__(self, path: Path) -> None:
        super().__init__("not a regular file", path=path, line=1, column=1)


def content_key(file: Path | None) -> str:
    """A short key of a file's content (a reading's schema: another schema, another index)."""
    if file is None:
        return "none"
    try:
        return hashlib.sha256(file.read_bytes()).hexdigest()[:24]
    except OSError:
        return f"unreadable:{file}"


Folder = tuple[Path, list[str]]  # a folder and the names of files in it


def folders_of(paths: list[Path]) -> list[Folder]:
    """``paths`` by folder (folders in order of first appearance, names in order)."""
    by_folder: dict[Path, list[str]] = {}
    for path in paths:
        by_folder.setdefault(path.parent, []).append(path.name)
    return list(by_folder.items())


def read_all(
    folders: list[Folder],
    parse: Callable[[Path, bytes], Any],
    *,
    tag: str,
    use_index: bool = True,
    extra: pa.Schema | None = None,
    whole: bool = False,
) -> list[Reading]:
    """:func:`read_names` for each folder (``whole``: each names every label file of its
    folder); ``use_index=False``: every file read and parsed, the index neither read nor
    written (blob ids as ``git hash-object`` gives them)."""
    if use_index:
        return [read_names(f, n, parse, tag=tag, extra=extra, whole=whole) for f, n in folders if n]
    paths = [folder / name for folder, names in folders for name in names]
    for path in paths:  # a FIFO or a device would block the read or never end
        _refuse_special(path)
    reading = Reading(Path(), tag, store.Rows(), keep=False, extra=extra)
    for i, path in enumerate(paths):
        raw = path.read_bytes()
        reading.paths.append(path)
        reading.names.append(path.name)
        reading.blobs.append(blobids.hash_bytes(raw))
        reading.at.append(-1)
        reading.parsed[i] = parse(path, raw)
    return [reading]


def _refuse_special(path: Path) -> None:
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # reading it reports the problem
    if not stat_mod.S_ISREG(mode) and not stat_mod.S_ISDIR(mode):
        raise NotRegularFile(path)


def index_file(folder: Path, tag: str) -> Path:
    key = hashlib.sha256(f"{folder.resolve()}\0{tag}".encode()).hexdigest()[:24]
    return cache.cache_dir() / f"index-{key}.arrow"


def read(
    paths: list[Path],
    parse: Callable[[Path, bytes], Any],
    *,
    tag: str,
    native: bool = True,
    extra: pa.Schema | None = None,
) -> Reading:
    """Every file of ``paths`` (all in one folder): :func:`read_names`."""
    if not paths:
        return Reading(Path(), tag, store.Rows(), extra=extra)
    names = [p.name for p in paths]
    return read_names(paths[0].parent, names, parse, tag=tag, native=native, extra=extra)


def read_names(
    folder: Path,
    names: list[str],
    parse: Callable[[Path, bytes], Any],
    *,
    tag: str,
    native: bool = True,
    extra: pa.Schema | None = None,
    whole: bool = False,
) -> Reading:
    """The files ``names`` of ``folder`` through the index of that folder and ``tag`` (a
    reading: bounds, schema; another tag is another index), whose rows carry the reading's
    own columns ``extra`` beside (``whole``: ``names`` are every label file of the folder).
    ``parse`` gives JSON-native data (``native``; else data JSON cannot hold is parsed every
    time). A path that is neither a regular file nor a folder raises :class:`NotRegularFile`
    before anything is read; a folder or a missing file raises ``OSError`` as reading it
    does."""
    if not names:
        return Reading(Path(), tag, store.Rows(), extra=extra)
    file = index_file(folder, tag)
    git_known = blobids.known(folder)
    vouched = git_known.blobs
    base = os.fspath(folder)
    for name in names:
        if name not in vouched:  # git vouches for a clean tracked regular file
            mode = os.stat(os.path.join(base, name)).st_mode  # (missing: OSError, as reading)
            if not stat_mod.S_ISREG(mode) and not stat_mod.S_ISDIR(mode):
                raise NotRegularFile(folder / name)
    rows = store.load(file, tag, extra)
    row_of = rows.row_of
    blobs = [vouched.get(n, "") for n in names]
    at = [row_of.get(b, -1) for b in blobs]
    reading = Reading(
        file, tag, rows, [], names, blobs, at, extra=extra, folder=folder, whole=whole
    )
    parsed: dict[str, int] = {}  # blob -> the file it was parsed from
    for i in (i for i, a in enumerate(at) if a < 0):  # read: keyed by the bytes read
        path = folder / names[i]
        with open(path, "rb") as fh:
            raw = fh.read()
        blob = blobs[i] = blobids.hash_bytes(raw, git_known.algorithm)
        found = at[i] = row_of.get(blob, -1)
        if found >= 0:
            continue
        if blob in parsed:  # the same bytes twice in the folder: parsed once
            reading.parsed[i] = _copy(reading.parsed[parsed[blob]])
            continue
        data = reading.parsed[i] = parse(path, raw)
        if native or _json_native(data):
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            reading.new[blob] = text.encode("utf-8")
            parsed[blob] = i
    return reading


def _copy(data: Any) -> Any:
    return json.loads(json.dumps(data))


def _json_native(value: Any) -> bool:
    if value is None or isinstance(value, (str, bool, int, float)):
        return not isinstance(value, float) or value == value
    if isinstance(value, list):
        return all(_json_native(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_native(v) for k, v in value.items())
    return False


def take_rows(table: pa.Table, rows: np.ndarray) -> pa.Table:
    """``table.take(rows)``: as slices of ``table`` (no copy) where ``rows`` runs in few
    ascending stretches, as a warm read's rows do."""
    if not len(rows):
        return table.slice(0, 0)
    breaks = np.flatnonzero(np.diff(rows) != 1) + 1
    if len(breaks) >= 64 or int(rows.min()) < 0:
        return table.take(pa.array(rows, pa.int64()))
    starts = [0, *breaks.tolist()]
    ends = [*breaks.tolist(), len(rows)]
    return pa.concat_tables(
        [table.slice(int(rows[s]), e - s) for s, e in zip(starts, ends, strict=True)]
    )
