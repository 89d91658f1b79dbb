"""The one error a run file gives."""

from __future__ import annotations

from pathlib import Path

from labelpool.errors import InputError, UsageError


class RunError(InputError):
    """A run file cannot be used (exit 1); ``str()`` is ``path:line: message``.

    ``path`` is the file (or the spec that named no file, or the git blob described), ``line``
    the physical line (None when the problem is the file as a whole).
    """

    path: str  # always set: a run error names its file

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        super().__init__(message, path=path, line=line)


class RunNotFound(UsageError, RunError):
    """A spec that names no run file and no single system in ``runs/`` (exit 2: the command
    line is wrong, no file was read)."""
