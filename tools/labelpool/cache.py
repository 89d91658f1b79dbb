"""A parsed-label cache keyed by content hash, kept outside the tracked tree.

One JSON file per label folder in :func:`cache_dir` (``$LABELPOOL_CACHE_DIR``, else
``$XDG_CACHE_HOME/labelpool``, else ``~/.cache/labelpool``) holds

* ``data``: sha256 of a file's bytes -> the plain data read from those bytes (guarded);
* ``stat``: file name -> ``[size, mtime_ns, inode, sha256]``, a fast check that skips
  re-hashing a file whose stat is unchanged. A file modified within :data:`RACY_NS` of the
  cache write gets no stat entry (its next read re-hashes it), so an edit that keeps size
  and mtime cannot be served stale.

Deleting the cache is always safe; a missing, unreadable or corrupt cache is a cold read.
Writes are atomic. Only JSON-native data (what a valid label holds) is cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat as stat_mod
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import __version__, atomic
from labelpool.errors import InputError

FORMAT = 3  # 2: the one reading (an ambiguous plain scalar is refused, never cached); 3: an
# escaped control or bidi character is refused (issue 29)
RACY_NS = 2_000_000_000


def cache_dir() -> Path:
    """Where caches live: ``$LABELPOOL_CACHE_DIR``, ``$XDG_CACHE_HOME/labelpool``, ``~/.cache``."""
    explicit = os.environ.get("LABELPOOL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "labelpool"
    return Path.home() / ".cache" / "labelpool"


def sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One file as read: its path, the sha256 of its bytes, its plain data."""

    path: Path
    sha: str
    data: Any


def _cache_file(folder: Path, tag: str, directory: Path) -> Path:
    key = sha256(f"{folder.resolve()}\0{tag}".encode())[:24]
    return directory / f"parsed-{key}.json"


def _load(file: Path, header: list[Any]) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    try:
        blob = json.loads(file.read_bytes())
        if blob.get("header") != header:
            return {}, {}
        stat, data = blob["stat"], blob["data"]
        if isinstance(stat, dict) and isinstance(data, dict):
            return stat, data
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        pass
    return {}, {}


def _write(file: Path, blob: dict[str, Any]) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(file, json.dumps(blob, separators=(",", ":"), ensure_ascii=False))
    except OSError:
        pass  # a cache that cannot be written is only a slower next read


_LEAF_TYPES = frozenset({str, bool, int, float, type(None)})


def _json_native(value: Any) -> bool:
    kind = type(value)
    if kind is list and set(map(type, value)) <= _LEAF_TYPES:
        return True  # the common case (a list of ids), checked in C
    if (
        kind is dict
        and set(map(type, value)) <= {str}
        and set(map(type, value.values())) <= (_LEAF_TYPES)
    ):
        return True
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if isinstance(value, list):
        return all(_json_native(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_native(v) for k, v in value.items())
    return False


class NotRegularFile(InputError):
    """A path to read is a FIFO, a device or a socket (reading it could block or never end)."""


def read_files(
    paths: list[Path],
    parse: Callable[[Path, bytes], Any],
    *,
    tag: str = "",
    directory: Path | None = None,
    native: bool = False,
) -> list[Entry]:
    """Read every file of ``paths`` (all in one folder) through the cache.

    ``parse(path, raw)`` turns a file's bytes into plain data (raising on bad input; errors
    are never cached). ``tag`` names the reading (e.g. the guard's bounds): a cache written
    with another tag or another labelpool version is ignored. ``native``: ``parse`` only
    gives JSON-native data (the one reading does), so it is not checked before caching.
    A path that is neither a regular file nor a folder raises :class:`NotRegularFile`
    before anything is read.
    """
    if not paths:
        return []
    directory = directory if directory is not None else cache_dir()
    folder = paths[0].parent
    header: list[Any] = [FORMAT, __version__, tag]
    file = _cache_file(folder, tag, directory)
    stat, data = _load(file, header)
    new_stat: dict[str, list[Any]] = {}
    new_data: dict[str, Any] = {}
    changed = False
    out: list[Entry] = []
    is_regular, is_dir = stat_mod.S_ISREG, stat_mod.S_ISDIR
    for path in paths:
        st = os.stat(path)
        if not is_regular(st.st_mode) and not is_dir(st.st_mode):
            raise NotRegularFile("not a regular file", path=path, line=1, column=1)
        name = path.name
        known = stat.get(name)
        sha: str | None = None
        if (
            isinstance(known, list)
            and len(known) == 4
            and known[:3] == [st.st_size, st.st_mtime_ns, st.st_ino]
            and known[3] in data
        ):
            sha = known[3]
            value = data[sha]
            hit = True
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
            sha = sha256(raw)
            hit = sha in data
            value = data[sha] if hit else parse(path, raw)
            changed = True
        out.append(Entry(path, sha, value))
        if sha not in new_data and (hit or native or _json_native(value)):
            new_data[sha] = value
        if sha in new_data:
            new_stat[name] = [st.st_size, st.st_mtime_ns, st.st_ino, sha]
    if changed or set(new_data) != set(data) or set(new_stat) != set(stat):
        now = time.time_ns()
        stable = {n: s for n, s in new_stat.items() if s[1] < now - RACY_NS}
        _write(file, {"header": header, "stat": stable, "data": new_data})
    return out
