"""Every git call labelpool makes, behind small functions.

All calls go through :func:`git`, which runs ``git`` with a fixed, locale-free environment and
turns a failure into :class:`GitError` (its message is git's own stderr).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


class GitError(Exception):
    """A git command failed; ``str()`` says which and why."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "LANG": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat"})
    return env


def git(cwd: Path, *args: str, input_bytes: bytes | None = None, check: bool = True) -> bytes:
    """Run ``git args`` in ``cwd`` and return its stdout (raises GitError on failure)."""
    try:
        proc = subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=input_bytes,
            capture_output=True,
            env=_env(),
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed (needed for this command)") from None
    if check and proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args)}: {message}")
    return proc.stdout


def git_text(cwd: Path, *args: str) -> str:
    return git(cwd, *args).decode("utf-8", "replace")


def toplevel(path: Path) -> Path | None:
    """The work tree holding ``path``, or None when it is not in a git repository."""
    proc = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=path if path.is_dir() else path.parent,
        capture_output=True,
        env=_env(),
        check=False,
    )
    if proc.returncode != 0:
        return None
    return Path(proc.stdout.decode().strip())


def head_commit(cwd: Path) -> str | None:
    """``HEAD``'s commit id, or None outside a repository or before the first commit."""
    proc = subprocess.run(
        ["git", "rev-parse", "--verify", "-q", "HEAD"],
        cwd=cwd,
        capture_output=True,
        env=_env(),
        check=False,
    )
    return proc.stdout.decode().strip() or None if proc.returncode == 0 else None


def is_dirty(cwd: Path, paths: tuple[str, ...] = ()) -> bool:
    """True when tracked or untracked (not ignored) changes exist (under ``paths``)."""
    out = git(cwd, "status", "--porcelain", "--untracked-files=normal", "--", *paths)
    return bool(out.strip())


def show(cwd: Path, rev: str, path: str) -> bytes | None:
    """Content of ``path`` (relative to the top level) at ``rev``; None when it is absent there."""
    proc = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=cwd, capture_output=True, env=_env(), check=False
    )
    return proc.stdout if proc.returncode == 0 else None


def blob_id(cwd: Path, path: Path) -> str:
    """The git blob id of a file's current content (``git hash-object``)."""
    return git_text(cwd, "hash-object", "--", str(path)).strip()
