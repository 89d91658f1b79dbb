"""The only code that reads or writes YAML (placeholder reader until the full module lands)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class YamlError(Exception):
    """Unreadable or unsafe YAML; ``str()`` is a ``path:line:col: message`` line."""


def load_fast(path: Path) -> Any:
    try:
        with open(path, "rb") as fh:
            return yaml.load(fh, Loader=yaml.CSafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlError(f"{path}:{line}:{col}: {exc}") from None
