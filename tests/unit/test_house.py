"""The house rules ARCHITECTURE.md states: no module over 500 lines, no group of modules held
together by a name prefix, and no module whose name repeats its folder's as a prefix."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import labelpool

PACKAGE = Path(labelpool.__file__).resolve().parent
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in MODULES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}


def test_no_modules_are_held_together_by_a_name_prefix() -> None:
    grouped = []
    for folder in sorted({p.parent for p in MODULES}):
        stems = [p.stem for p in MODULES if p.parent == folder and not p.stem.startswith("_")]
        prefixes = Counter(s.split("_", 1)[0] for s in stems if "_" in s)
        for prefix in prefixes:
            sharing = [s for s in stems if s == prefix or s.startswith(f"{prefix}_")]
            if len(sharing) > 1:
                grouped.append(f"{folder.relative_to(PACKAGE)}: {sharing}")
        grouped += [
            f"{folder.relative_to(PACKAGE)}/{s}" for s in stems if s.startswith(f"{folder.name}_")
        ]
    assert grouped == []
