"""The one way labelpool writes a file: whole or not at all.

Every write goes to a temporary file in the target's folder, is flushed to disk (fsync), and
then takes the target's place in one step: ``os.replace`` (:func:`write_text`,
:func:`write_bytes`) or ``os.link`` (:func:`write_new`, which never replaces a file). The
temporary file is removed on any failure, so a reader sees the old content or the new, never
a part. A replaced file keeps its permission bits; a new one gets the umask's.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` atomically, keeping its mode."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (``os.replace``), keeping its mode."""
    path = Path(path)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    tmp = _write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _sync_folder(path.parent)


def write_new(path: Path | str, data: str | bytes) -> None:
    """Create ``path`` with ``data`` (a str is written as UTF-8); ``FileExistsError`` and
    nothing written when ``path`` exists, even when it appeared a moment ago."""
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = _write_temp(path, raw, None)
    try:
        os.link(tmp, path)  # fails if path exists; never replaces it
    finally:
        _remove(tmp)
    _sync_folder(path.parent)


def _write_temp(path: Path, data: bytes, mode: int | None) -> str:
    """A temporary file beside ``path`` holding ``data`` on disk, with ``mode`` (None: the
    umask's default for a new file)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _remove(tmp: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    """fsync the folder so the new name survives a crash (best effort)."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
