"""The one way labelpool writes a file: whole or not at all, and no temporary file left behind.

Every write first puts its data in an unnamed temporary file in the target's folder (Linux's
``O_TMPFILE``), flushes it to disk (fsync), and then gives it the target's name in one step:
:func:`write_text` and :func:`write_bytes` link it under a hidden name and ``os.replace`` the
target with it; :func:`write_new` links it at the target itself, which fails (``FileExistsError``,
nothing written) when the target exists. A process killed at any point leaves the target old or
new, never torn, and leaves no temporary file (the unnamed file vanishes with the process; the
hidden name lives for two system calls). :func:`write_many` writes many files so, with one
``sync`` for a chunk of files instead of two fsyncs per file. Where ``O_TMPFILE`` or ``/proc``
is missing, a named temporary file (``.NAME.XXXX.tmp``) is used instead and removed on every
failure but a kill.

A failed write (a full disk, no permission) raises ``OSError`` naming the target
(``exc.filename``) and leaves the target as it was; the CLI reports it as
``error: PATH: reason``, exit 1. A replaced file keeps its permission bits; a new one gets the
umask's.

The fault-injection seam (``ARCHITECTURE.md``, "Fault injection"): when the environment sets
``LABELPOOL_TEST_KILL_WRITE=N``, the process ends with ``os._exit(137)`` at its N-th write
(counted per process, from 1; a :func:`move` counts as one), after the data is in the
temporary file and before it takes the target's place: the state a kill at the worst moment
leaves.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

KILL_WRITE_ENV = "LABELPOOL_TEST_KILL_WRITE"
_writes = 0  # writes started by this process (the seam's counter)


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` atomically, keeping its mode."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(
    path: Path | str,
    data: bytes | Iterable[bytes],
    *,
    mode_of: Path | None = None,
    durable: bool = True,
) -> None:
    """Write ``data`` to ``path`` atomically (``os.replace``), keeping its mode (or taking
    the mode of ``mode_of``, the file a staged copy will replace). ``durable=False`` leaves
    the fsyncs to one :func:`flush` after many writes (atomic all the same). ``data`` may be
    an iterable of chunks, written as they come (a large file is never held whole); an
    exception raised while iterating leaves the target as it was."""
    path = Path(path)
    try:
        try:
            mode: int | None = (mode_of or path).stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = None
        fd, named = _temp(path, data, mode, durable)
        try:
            _kill_point()
            tmp = named or _link_hidden(fd, path)
            try:
                os.replace(tmp, path)
            except BaseException:
                _remove(tmp)
                raise
        finally:
            os.close(fd)
        if durable:
            _sync_folder(path.parent)
    except OSError as exc:
        raise _naming(exc, path) from None


def move(staged: Path, path: Path, *, durable: bool = True) -> None:
    """Put the file ``staged`` (written by :func:`write_bytes` on the same file system) in
    ``path``'s place in one step (``os.replace``); no data is written, so no space is needed.
    The fault-injection seam counts it as a write. ``durable=False``: see :func:`flush`."""
    _kill_point()
    try:
        os.replace(staged, path)
    except OSError as exc:
        raise _naming(exc, path) from None
    if durable:
        _sync_folder(path.parent)


def write_many(items: Sequence[tuple[Path, bytes]], *, chunk: int = 0) -> None:
    """:func:`write_bytes` of every ``(path, data)``, in order, with one ``sync`` per chunk
    instead of two fsyncs per file: a chunk's data goes into unnamed temporary files, is put
    on disk at once, and only then does each file take its target's place (the kill seam
    counting each as a write), then each folder is synced. A kill at any point leaves every
    target old or new and no temporary file (the unnamed ones vanish with the process); an
    error raises as :func:`write_bytes` does, the targets before it new, the rest old.
    ``chunk``: files per chunk (0: as many as a quarter of the open-file limit allows).
    Where unnamed temporary files are not available, each file is written by
    :func:`write_bytes` (a named temporary file is never left waiting)."""
    size = chunk or _chunk_size()
    for start in range(0, len(items), size):
        if not _write_chunk(items[start : start + size]):
            for path, data in items[start:]:
                write_bytes(path, data)
            return


def _chunk_size() -> int:
    try:
        import resource
    except ImportError:  # not a Unix
        return 256
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 4096
    return max(1, min(4096, soft // 4))


def _write_chunk(items: Sequence[tuple[Path, bytes]]) -> bool:
    """One chunk of :func:`write_many`; False (nothing written) when a temporary file would
    need a name."""
    opened: list[int] = []
    try:
        for path, data in items:
            try:
                try:
                    mode: int | None = path.stat().st_mode & 0o7777
                except FileNotFoundError:
                    mode = None
                fd, named = _temp(path, data, mode, durable=False)
            except OSError as exc:
                raise _naming(exc, path) from None
            if named is not None:
                os.close(fd)
                _remove(named)
                return False
            opened.append(fd)
        flush()  # every byte of the chunk on disk before any target changes
        for (path, _), fd in zip(items, opened, strict=True):
            try:
                _kill_point()
                tmp = _link_hidden(fd, path)
                try:
                    os.replace(tmp, path)
                except BaseException:
                    _remove(tmp)
                    raise
            except OSError as exc:
                raise _naming(exc, path) from None
        for folder in dict.fromkeys(path.parent for path, _ in items):
            _sync_folder(folder)
        return True
    finally:
        for fd in opened:
            os.close(fd)


def flush() -> None:
    """Put every write made with ``durable=False`` on disk (one ``sync`` instead of two
    fsyncs per file)."""
    os.sync()


def write_new(
    path: Path | str,
    data: str | bytes | Iterable[bytes],
    *,
    mode_of: Path | None = None,
    durable: bool = True,
) -> None:
    """Create ``path`` with ``data`` (a str is written as UTF-8; chunks as for
    :func:`write_bytes`); ``FileExistsError`` and nothing written when ``path`` exists, even
    when it appeared a moment ago. ``mode_of`` and ``durable`` as for :func:`write_bytes`."""
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        try:
            mode = None if mode_of is None else mode_of.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = None
        fd, named = _temp(path, raw, mode, durable)
        try:
            _kill_point()
            if named is None:
                _link_fd(fd, path)
            else:
                try:
                    os.link(named, path)  # fails if path exists; never replaces it
                finally:
                    _remove(named)
        finally:
            os.close(fd)
        if durable:
            _sync_folder(path.parent)
    except FileExistsError:
        raise
    except OSError as exc:
        raise _naming(exc, path) from None


def refuse_unwritable(folders: Iterable[Path]) -> None:
    """Raise ``OSError`` (``EROFS`` on a read-only file system, else ``EACCES``) naming the
    first of ``folders`` (or, for one that is not a folder yet, the folder that would hold
    it) this process cannot create files in: a writer's check before it writes anything."""
    for folder in dict.fromkeys(folders):
        existing = folder
        while not existing.is_dir() and existing.parent != existing:
            existing = existing.parent
        effective = os.access in os.supports_effective_ids
        if os.access(existing, os.W_OK | os.X_OK, effective_ids=effective):
            continue
        code = errno.EROFS if _read_only_fs(existing) else errno.EACCES
        raise OSError(code, os.strerror(code), str(existing))


def _read_only_fs(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def advice(exc: OSError) -> str:
    """What to do about a failed write, in a few words (the end of an error line)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free some space, then run it again"
    if exc.errno == errno.EROFS:
        return "the file system is read-only: run it in a writable checkout"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "check its permissions (or run as its owner), then run it again"
    return "fix that, then run it again"


def _kill_point() -> None:
    """The seam: end the process at the N-th write when ``LABELPOOL_TEST_KILL_WRITE=N``."""
    global _writes
    _writes += 1
    want = os.environ.get(KILL_WRITE_ENV)
    if want is not None and want.strip().isdigit() and int(want) == _writes:
        os._exit(137)


def _naming(exc: OSError, path: Path) -> OSError:
    """``exc`` with the target as its file name (a write error names no file by itself)."""
    if exc.filename == str(path) or exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(path))


def _temp(
    path: Path, data: bytes | Iterable[bytes], mode: int | None, durable: bool = True
) -> tuple[int, str | None]:
    """An open temporary file in ``path``'s folder holding ``data`` (bytes, or chunks of it)
    on disk with ``mode`` (None: the umask's default): ``(fd, None)`` for an unnamed file,
    ``(fd, name)`` else."""
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    named: str | None = None
    try:
        fd = os.open(path.parent, os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC, mode)
        if not os.path.exists(f"/proc/self/fd/{fd}"):  # no /proc: the file cannot be linked
            os.close(fd)
            raise OSError(errno.EOPNOTSUPP, "no /proc")
    except (OSError, AttributeError) as exc:
        if isinstance(exc, OSError) and exc.errno not in _NO_TMPFILE:
            raise
        fd, named = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        for chunk in (data,) if isinstance(data, bytes) else data:
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view) :]
        if durable:
            os.fsync(fd)
        os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        if named is not None:
            _remove(named)
        raise
    return fd, named


_NO_TMPFILE = frozenset({errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT})


def _link_hidden(fd: int, path: Path) -> str:
    """Give the unnamed file ``fd`` a hidden name beside ``path``; return the name."""
    while True:
        name = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            _link_fd(fd, name)
            return str(name)
        except FileExistsError:
            continue


def _link_fd(fd: int, path: Path) -> None:
    """Give the open unnamed file ``fd`` the name ``path`` (``linkat`` following
    ``/proc/self/fd``; a folder fd makes Python call ``linkat`` rather than ``link``)."""
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.link(f"/proc/self/fd/{fd}", path.name, dst_dir_fd=folder, follow_symlinks=True)
    finally:
        os.close(folder)


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
