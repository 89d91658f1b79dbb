"""The one error of the YAML layer: :class:`YamlError`, an input error with its place."""

from __future__ import annotations

from typing import Any

from labelpool.errors import InputError
from labelpool.findings import Finding


class YamlError(InputError):
    """Unreadable or unsafe YAML (exit 1); ``str()`` is a ``path:line:col: RULE message`` line.

    ``path``, ``line`` and ``column`` (also ``col``) say where; ``rule`` and ``message`` what.
    """

    def __init__(self, path: str, line: int, col: int, rule: str, message: str) -> None:
        super().__init__(message, path=path, line=line, column=col)
        self.path: str = path
        self.line: int = line
        self.column: int = col
        self.col = col
        self.rule = rule

    @classmethod
    def from_finding(cls, finding: Finding) -> YamlError:
        return cls(finding.path, finding.line, finding.col, finding.rule, finding.message)

    @property
    def finding(self) -> Finding:
        return Finding(self.path, self.line, self.col, self.rule, self.message)

    def __str__(self) -> str:
        return str(self.finding)


def mark_position(exc: Any) -> tuple[int, int]:
    """1-based (line, col) of a PyYAML or ruamel ``MarkedYAMLError`` (1, 1 without a mark)."""
    mark = exc.problem_mark or exc.context_mark
    return (mark.line + 1, mark.column + 1) if mark else (1, 1)


class UnwritableError(InputError):
    """Text a writer is about to write that the one reading refuses (exit 1): it is not on
    disk, so the error cites the file it would become without a position, and says where in
    the text the problem is (``rule`` as in the finding)."""

    def __init__(
        self, path: str, rule: str, message: str, place: tuple[int, int] | None = None
    ) -> None:
        where = f" (line {place[0]}, column {place[1]} of the text to be written)" if place else ""
        super().__init__(
            f"{rule} {message}{where}: validate would refuse the file, so it is not written",
            path=None if path == "<output>" else path,
        )
        self.rule = rule

    @classmethod
    def from_error(cls, error: YamlError) -> UnwritableError:
        return cls(error.path, error.rule, error.message, (error.line, error.col))
