"""``labelpool validate`` on the machine judges' files (``judges/*.yaml``, LP050-LP053 and the
YAML safety rules), through the same findings as the label files.

The judges folder (``[tool.labelpool] judges``) is checked whole when ``validate`` is given no
path; given paths, those inside the judges folder are judge files (pre-commit passes both
kinds) and the rest are label files (:func:`split`). A judge file is read by the judge reader
itself (:func:`labelpool.machine.definition.problems`), so that ``validate`` refuses exactly
what ``judge --machine`` would. Judge files are few and small: they are read on every run, not
cached; a repository without any imports nothing for them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from labelpool.config import Config
from labelpool.findings import Finding
from labelpool.workflows.validate.warm import display

SUFFIXES = (".yaml", ".yml")


def split(cfg: Config, paths: Sequence[Path]) -> tuple[list[Path], list[Path]]:
    """(label paths, judge files) of the paths given to ``validate``: a folder inside the
    judges folder (or it) stands for its judge files, and any other file there (a prompt
    template) for every judge file, since any may name it."""
    top = _resolved(cfg.judges_folder)
    labels: list[Path] = []
    judges: list[Path] = []
    for path in paths:
        where = _resolved(path)
        if where != top and top not in where.parents:
            labels.append(path)
        elif path.is_dir() and not path.is_symlink():
            judges.extend(_judge_files(path))
        elif path.suffix in SUFFIXES:
            judges.append(path)
        else:
            judges.extend(every_file(cfg))
    unique: dict[Path, Path] = {}
    for path in judges:
        unique.setdefault(_resolved(path), path)
    return labels, list(unique.values())


def every_file(cfg: Config) -> list[Path]:
    """The judge files of the judges folder (its direct children ending in .yaml or .yml)."""
    return _judge_files(cfg.judges_folder)


def check(files: Sequence[Path], cwd: Path | None = None) -> list[Finding]:
    """Every problem of each judge file, its path shown relative to ``cwd``."""
    if not files:
        return []
    # the judge reader imports ruamel and PyYAML: a label file's validate (pre-commit) never pays
    from labelpool.machine import definition

    found: list[Finding] = []
    for path in files:
        shown = display(path, cwd)
        if path.is_symlink():
            found.append(Finding(shown, 1, 1, definition.LP_SCHEMA, "a symlink; store the file"))
            continue
        for f in definition.problems(path):
            where = shown if f.path == str(path) else display(Path(f.path), cwd)  # a template
            found.append(replace(f, path=where))
    return found


def _judge_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and not p.is_dir())


def _resolved(path: Path) -> Path:
    return Path(os.path.realpath(path.absolute()))
