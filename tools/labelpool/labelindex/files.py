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

from labelpool import cache
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
    """What one :func:`read` found, and what :meth:`save` keeps."""

    file: Path
    tag: str
    rows: store.Rows
    entries: list[Entry]
    new: dict[str, bytes] = field(default_factory=dict)  # blob -> JSON of parsed files
    passed: set[str] = field(default_factory=set)  # blobs whose checks passed here
    keep: bool = True  # False: read without the index, and never written to it

    def mark_checked(self, entry: Entry) -> None:
        """Record that the reading's checks passed on ``entry``'s blob."""
        if not entry.checked:
            self.passed.add(entry.blob)

    def save(self) -> None:
        """Write the index when a blob was parsed or checked for the first time: the rows
        of every file read, then the rows of blobs no longer read, up to as many again."""
        if not self.keep or (not self.new and not self.passed):
            return
        rows: list[tuple[str, bytes, bool]] = []
        seen: set[str] = set()
        old = self.rows
        for e in self.entries:
            if e.blob in seen:
                continue
            seen.add(e.blob)
            at = old.row_of.get(e.blob)
            raw = self.new.get(e.blob)
            if raw is not None:
                rows.append((e.blob, raw, e.blob in self.passed))
            elif at is not None:
                checked = bool(old.checked[at]) or e.blob in self.passed
                rows.append((e.blob, old.json_of(at), checked))
        room = int(len(rows) * KEEP_EXTRA)
        for blob, at in old.row_of.items():
            if room <= 0:
                break
            if blob not in seen:
                rows.append((blob, old.json_of(at), bool(old.checked[at])))
                room -= 1
        store.save(self.file, self.tag, rows)


class NotRegularFile(Exception):
    """A path is a FIFO, a device or a socket (reading it could block or never end)."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path


def content_key(file: Path | None) -> str:
    """A short key of a file's content (a reading's schema: another schema, another index)."""
    if file is None:
        return "none"
    try:
        return hashlib.sha256(file.read_bytes()).hexdigest()[:24]
    except OSError:
        return f"unreadable:{file}"


def read_all(
    paths: list[Path], parse: Callable[[Path, bytes], Any], *, tag: str, use_index: bool = True
) -> list[Reading]:
    """:func:`read` for each folder of ``paths``; ``use_index=False``: every file read and
    parsed, the index neither read nor written (blob ids as ``git hash-object`` gives them)."""
    if use_index:
        by_folder: dict[Path, list[Path]] = {}
        for path in paths:
            by_folder.setdefault(path.parent, []).append(path)
        return [read(p, parse, tag=tag) for p in by_folder.values()]
    for path in paths:  # a FIFO or a device would block the read or never end
        _refuse_special(path)
    entries = []
    for path in paths:
        raw = path.read_bytes()
        entries.append(Entry(path, blobids.hash_bytes(raw), parse(path, raw), checked=False))
    return [Reading(Path(), tag, store.Rows(), entries, keep=False)]


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
) -> Reading:
    """Every file of ``paths`` (all in one folder) through the index of that folder and
    ``tag`` (a reading: bounds, schema; another tag is another index). ``parse`` gives
    JSON-native data (``native``; else data JSON cannot hold is parsed every time). A path
    that is neither a regular file nor a folder raises :class:`NotRegularFile` before
    anything is read; a folder or a missing file raises ``OSError`` as reading it does."""
    if not paths:
        return Reading(Path(), tag, store.Rows(), [])
    folder = paths[0].parent
    file = index_file(folder, tag)
    git_known = blobids.known(folder)
    vouched = git_known.blobs
    for path in paths:
        if path.name not in vouched:  # git vouches for a clean tracked regular file
            mode = os.stat(path).st_mode  # (a missing file: OSError, as reading it)
            if not stat_mod.S_ISREG(mode) and not stat_mod.S_ISDIR(mode):
                raise NotRegularFile(path)
    rows = store.load(file, tag)
    reading = Reading(file, tag, rows, [])
    entries = reading.entries
    parsed: dict[str, Any] = {}
    for path in paths:
        blob = vouched.get(path.name)
        raw: bytes | None = None
        if blob is None or blob not in rows.row_of:  # read: keyed by the bytes read
            with open(path, "rb") as fh:
                raw = fh.read()
            blob = blobids.hash_bytes(raw, git_known.algorithm)
        at = rows.row_of.get(blob)
        if at is not None:
            data = json.loads(rows.json_of(at))
            entries.append(Entry(path, blob, data, bool(rows.checked[at])))
            continue
        if blob in parsed:  # the same bytes twice in the folder: parsed once
            entries.append(Entry(path, blob, _copy(parsed[blob]), False))
            continue
        data = parse(path, raw or b"")
        if native or _json_native(data):
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            reading.new[blob] = text.encode("utf-8")
            parsed[blob] = data
        entries.append(Entry(path, blob, data, False))
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
