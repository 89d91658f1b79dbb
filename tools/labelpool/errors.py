"""One error path: every error that can reach the command line is a :class:`LabelpoolError`.

An error carries its exit code (through its kind) and, when it has one, its location
(path, line, column). It is raised once, where the problem is found; the CLI's one handler
(``labelpool.cli._handler``) prints ``error: <str(exc)>`` on stderr and exits with
``exc.exit_code``. Nothing parses a message: code that needs the place reads ``.path``,
``.line`` and ``.column``.

Kinds (each a subclass that fixes the exit code):

* :class:`UsageError` (2): the command line or the configuration is wrong; nothing was read.
* :class:`InputError` (1): a file the command reads (a label, a run, the corpus, a batch) cannot
  be used; the message names the file and, where known, the line.
* :class:`StateError` (1): the repository is not in a state the command can work from (git,
  a pending batch, a branch that exists); nothing was changed.

The concrete classes (``RunError``, ``YamlError``, ``GitError``...) live beside the code that
raises them and descend from one kind; ``ARCHITECTURE.md`` has the table class -> kind -> code.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70  # a bug (sysexits EX_SOFTWARE): never mistaken for check's 0, 1 or 3


class LabelpoolError(Exception):
    """Base of every error labelpool reports; ``str()`` is ``[path[:line[:col]]: ]message``."""

    exit_code: ClassVar[int] = EXIT_FINDINGS

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.column = column
        super().__init__(message)

    @property
    def location(self) -> str:
        """``path``, ``path:line`` or ``path:line:col`` (empty without a path)."""
        if self.path is None:
            return ""
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        where = self.location
        return f"{where}: {self.message}" if where else self.message


class UsageError(LabelpoolError):
    """The command line or the configuration is wrong (exit 2)."""

    exit_code: ClassVar[int] = EXIT_USAGE


class InputError(LabelpoolError):
    """A file the command reads cannot be used (exit 1)."""

    exit_code: ClassVar[int] = EXIT_FINDINGS


class StateError(LabelpoolError):
    """The repository is not in a state the command can work from; nothing changed (exit 1)."""

    exit_code: ClassVar[int] = EXIT_FINDINGS
