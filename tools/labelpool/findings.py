"""A finding: one problem at one place in one file, printed as ``path:line:col: LPnnn message``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int  # 1-based
    col: int  # 1-based
    rule: str  # "LP001" ...
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        tag = "" if self.severity == "error" else "warning: "
        return f"{self.path}:{self.line}:{self.col}: {self.rule} {tag}{self.message}"
