"""One writer at a time: the repository lock, and a writer's ``OSError`` as one error line.

Every command that writes a repository (``merge``, ``pool``, ``import``, ``add``, ``fmt``,
the judging page's verdicts and commits) runs its work inside :func:`held`: an exclusive
``flock`` on ``<git common dir>/labelpool/lock``, taken before it reads what it will write
and kept until it is done. The common git folder is shared by every worktree of a
repository, so two worktrees of one repository take the same lock. Once held, the file says
who holds it (command, pid, start time in UTC, as one JSON line) so that a writer refused
can name it. The operating system releases the lock when its process ends, however it ends:
there is no stale lock to clean up.

A second writer tries again every 50 ms for ``wait`` seconds (default 0), then is refused
with one :class:`Busy` line (exit 1): ``labelpool merge (pid 4242, since 2026-12-05 13:02:11
UTC) is writing this repository; nothing changed; ...``. Taking the lock costs one ``flock``
(and writing the holder's line); the file is found as git finds its folder, without running
git (:func:`common_dir`). A folder in no git repository has no lock (there is no ``.git`` to
hold it).

A lock held by this thread already is taken again at no cost (a workflow inside an API call
that holds it), and so is a lock held by a process this one descends from that handed it
down (:func:`_inherited`: the judging page commits with ``git commit``, whose ``pre-commit``
hook runs ``labelpool fmt`` while the page holds the lock and waits for it).

An ``OSError`` raised inside :func:`held` (a full disk, a read-only folder) leaves it as
:class:`WriteFailed`: the reason, that nothing changed, and what to do; a writer that can
leave part of its work written says so itself (:func:`failed` with ``changed``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from labelpool import atomic
from labelpool.errors import StateError

LOCK_NAME = "lock"
POLL_SECONDS = 0.05
HOLDER_BYTES = 4096  # the most of the holder's line read back
HOLDER_SETTLE = 0.5  # seconds a refused writer waits for the holder's line to be written
UNKNOWN_HOLDER = "another labelpool command"
RETRY = "run again when it ends, or wait with --wait SECONDS"
SINCE = "%Y-%m-%dT%H:%M:%SZ"  # the holder's start, in UTC
TOKENS_ENV = "LABELPOOL_LOCK_TOKENS"  # the locks an ancestor process holds (its tokens)


class Busy(StateError):
    """Another process holds the repository lock: nothing changed; exit 1."""


class LockFailed(StateError):
    """The lock file cannot be opened (a read-only repository): nothing changed; exit 1."""


class WriteFailed(StateError):
    """An ``OSError`` inside a writer: what failed, what changed (nothing, unless it says
    otherwise) and what to do; exit 1."""


def failed(exc: OSError, changed: str = "nothing changed") -> WriteFailed:
    """``exc`` as one error line: ``PATH: reason; CHANGED; what to do``."""
    reason = exc.strerror or str(exc)
    return WriteFailed(f"{reason}; {changed}; {atomic.advice(exc)}", path=exc.filename)


_holds: dict[Path, tuple[int, int]] = {}  # lock -> (the thread holding it, its depth)
# the tokens this process was started with: never those it sets for its own children (a
# thread of this process must wait for another's lock like any other writer)
_HANDED_DOWN = tuple(os.environ.get(TOKENS_ENV, "").split())
_holds_mutex = threading.Lock()


def lock_file(folder: Path) -> Path | None:
    """The lock of the git repository holding ``folder`` (or, when it does not exist yet,
    its nearest existing parent); None outside a git repository."""
    existing = folder.absolute()
    while not existing.is_dir() and existing.parent != existing:
        existing = existing.parent
    common = common_dir(existing.resolve())
    return None if common is None else common / "labelpool" / LOCK_NAME


def common_dir(folder: Path) -> Path | None:
    """The git folder every worktree of the repository holding ``folder`` shares (what
    ``git rev-parse --git-common-dir`` names), found as git finds it but without running
    git, so that taking the lock costs no process: ``$GIT_COMMON_DIR``, else ``$GIT_DIR``
    or the first ``.git`` folder (or ``gitdir:`` file) from ``folder`` up, then the
    ``commondir`` file a worktree's git folder holds. None outside a git repository."""
    if os.environ.get("GIT_COMMON_DIR"):
        return Path(os.environ["GIT_COMMON_DIR"]).absolute()
    env_dir = os.environ.get("GIT_DIR")
    git_dir = Path(env_dir).absolute() if env_dir else _find_git_dir(folder)
    if git_dir is None:
        return None
    try:
        shared = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir
    return (git_dir / shared).resolve() if shared else git_dir


def _find_git_dir(folder: Path) -> Path | None:
    for d in (folder, *folder.parents):
        dot = d / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():
            try:
                text = dot.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            if text.startswith("gitdir:"):
                return (d / text.removeprefix("gitdir:").strip()).resolve()
            return None
    return None


@contextmanager
def held(*folders: Path, command: str, wait: float = 0.0, retry: str = RETRY) -> Iterator[None]:
    """Hold the lock of every git repository holding one of ``folders`` (in a fixed order)
    for the ``with`` block; :class:`Busy` after ``wait`` seconds when another process holds
    one. ``command`` names this writer to a refused one (``labelpool merge``); ``retry``
    ends a refusal. An ``OSError`` leaving the block becomes :class:`WriteFailed`."""
    locks = sorted({p for f in folders if (p := lock_file(f)) is not None})
    deadline = time.monotonic() + max(wait, 0.0)
    with ExitStack() as stack:
        for path in locks:
            stack.enter_context(_one(path, command, deadline, retry))
        try:
            yield
        except OSError as exc:
            raise failed(exc) from None


@contextmanager
def _one(path: Path, command: str, deadline: float, retry: str) -> Iterator[None]:
    me = threading.get_ident()
    with _holds_mutex:
        thread, depth = _holds.get(path, (None, 0))
        again = thread == me
        if again:
            _holds[path] = (me, depth + 1)
    if again:  # this thread holds it already
        try:
            yield
        finally:
            with _holds_mutex:
                _holds[path] = (me, _holds[path][1] - 1)
        return
    if _inherited(path):  # a git hook of the holder's own git command (the page's commit)
        yield
        return
    fd = _open(path)
    try:
        _acquire(fd, deadline, retry)
        token = secrets.token_hex(16)
        _say_holder(fd, command, token)
        with _holds_mutex:
            _holds[path] = (me, 1)
        before = os.environ.get(TOKENS_ENV)
        os.environ[TOKENS_ENV] = f"{before} {token}" if before else token
        try:
            yield
        finally:
            if before is None:
                os.environ.pop(TOKENS_ENV, None)
            else:
                os.environ[TOKENS_ENV] = before
            with _holds_mutex:
                del _holds[path]
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # the next holder writes its own line
    finally:
        os.close(fd)  # closing releases the lock


def _inherited(path: Path) -> bool:
    """True when a process this one descends from holds the lock of ``path``: the lock is
    held and its line carries a token this process was given in :data:`TOKENS_ENV` (a
    ``labelpool fmt`` run by the ``pre-commit`` hook of the page's ``git commit``, which
    waits for it). A token outlives nothing: the holder's line goes when it lets go."""
    tokens = _HANDED_DOWN
    if not tokens:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:  # held: by whom?
            try:
                token = json.loads(os.pread(fd, HOLDER_BYTES, 0).decode("utf-8"))["token"]
            except (OSError, ValueError, KeyError, TypeError):
                return False
            return isinstance(token, str) and token in tokens
        return False  # nobody holds it: take it as usual
    finally:
        os.close(fd)


def _open(path: Path) -> int:
    """The lock file, opened (created when missing; never through a symlink)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        path.parent.mkdir(exist_ok=True)
        return os.open(path, flags, 0o666)
    except OSError as exc:
        shared = exc.errno == errno.EACCES and path.is_file()
        if shared and os.access(path.parent, os.W_OK | os.X_OK):
            # another user's lock file in a folder we may write (a shared repository):
            # a read-only descriptor locks all the same; the holder's line stays unwritten
            try:
                return os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
            except OSError:
                pass
        reason = exc.strerror or str(exc)
        raise LockFailed(
            f"cannot take the repository lock ({reason}): labelpool cannot write this "
            f"repository; nothing changed; {atomic.advice(exc)}",
            path=path,
        ) from None


def _acquire(fd: int, deadline: float, retry: str) -> None:
    while True:
        if _try(fd):
            return
        if deadline - time.monotonic() <= 0:
            break
        time.sleep(min(POLL_SECONDS, max(deadline - time.monotonic(), 0.0)))
    # refused: name the holder. Its line is written just after it takes the lock and emptied
    # just before it lets go; in those moments, look again (and take the lock if it went)
    settle = time.monotonic() + HOLDER_SETTLE
    while True:
        name = _holder(fd)
        if name != UNKNOWN_HOLDER or time.monotonic() >= settle:
            raise Busy(f"{name} is writing this repository; nothing changed; {retry}")
        time.sleep(0.01)
        if _try(fd):
            return


def _try(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _say_holder(fd: int, command: str, token: str) -> None:
    """Write who holds the lock into it (best effort: a full disk only loses the name), and
    the token its git commands' hooks inherit (:func:`_inherited`)."""
    since = time.strftime(SINCE, time.gmtime())
    held = {"command": command, "pid": os.getpid(), "since": since, "token": token}
    line = json.dumps(held) + "\n"
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, line.encode("utf-8"), 0)


def _holder(fd: int) -> str:
    """Who holds the lock, as its line says: ``labelpool merge (pid 4242, since 2026-12-05
    13:02:11 UTC)``; ``another labelpool command`` when the line says nothing usable."""
    try:
        raw = json.loads(os.pread(fd, HOLDER_BYTES, 0).decode("utf-8"))
        command, pid, since = str(raw["command"]), int(raw["pid"]), str(raw["since"])
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.strptime(since, SINCE))
    except (OSError, ValueError, KeyError, TypeError):
        return UNKNOWN_HOLDER
    return f"{command[:80]} (pid {pid}, since {when} UTC)"
