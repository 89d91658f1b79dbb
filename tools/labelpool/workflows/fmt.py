"""``labelpool fmt``: bring label files into canonical form (order, quoting, block style)."""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from labelpool import atomic
from labelpool.labelfile import format_label
from labelpool.yamlfile import YamlError, dumps, load_roundtrip


@dataclass(frozen=True)
class FmtResult:
    changed: tuple[Path, ...]  # rewritten (or, with check, would be)
    unchanged: tuple[Path, ...]
    errors: tuple[str, ...]  # ``path:line:col: RULE message`` of files that cannot be read


def format_file(path: Path, *, check: bool = False) -> bool:
    """Format ``path`` in place (atomic write); True when it changed (would change, ``check``)."""
    try:
        special = not stat.S_ISREG(path.stat().st_mode) and not path.is_dir()
    except OSError:
        special = False  # reading it reports the problem
    if special:  # a FIFO would block the read
        raise YamlError(str(path), 1, 1, "LP015", "not a regular file")
    doc = load_roundtrip(path)
    format_label(doc.data, doc.text)
    text = dumps(doc.data)
    if text == doc.text:
        return False
    if path.is_symlink():
        raise YamlError(str(path), 1, 1, "LP037", "symlink; format the file itself")
    if not check:
        atomic.write_text(path, text)
    return True


def fmt(paths: list[Path], *, check: bool = False) -> FmtResult:
    changed: list[Path] = []
    unchanged: list[Path] = []
    errors: list[str] = []
    for path in paths:
        try:
            (changed if format_file(path, check=check) else unchanged).append(path)
        except YamlError as exc:
            errors.append(str(exc))
    return FmtResult(tuple(changed), tuple(unchanged), tuple(errors))
