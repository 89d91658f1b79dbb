"""Run files by name: the system a file names, and what a command-line spec stands for."""

from __future__ import annotations

from pathlib import Path

from labelpool.config import Config
from labelpool.runs.errors import RunError, RunNotFound

RUN_SUFFIXES = (".trec", ".run", ".txt", ".tsv", ".jsonl", ".gz")
FORMAT_SUFFIXES = RUN_SUFFIXES[:-1]  # a run file ends in one of these, optionally + ".gz"


def system_name(path: Path) -> str:
    """File name minus every known run suffix (``bm25.trec.gz`` -> ``bm25``)."""
    name = path.name
    changed = True
    while changed:
        changed = False
        for suffix in RUN_SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                changed = True
    return name


def has_run_suffix(path: Path) -> bool:
    """A name that ends with a run suffix (``.trec .run .txt .tsv .jsonl``), optionally
    followed by ``.gz``, after a non-empty stem."""
    name = path.name.removesuffix(".gz")
    return any(name.endswith(s) and len(name) > len(s) for s in FORMAT_SUFFIXES)


def is_run_file(path: Path) -> bool:
    """A file whose name is a run's (:func:`has_run_suffix`)."""
    return path.is_file() and has_run_suffix(path)


def expand(cfg: Config, spec: str) -> list[Path]:
    """:func:`resolve`, except that a folder stands for every run file in it (sorted by name;
    other files such as a README or the script that made the runs are left out)."""
    folder = Path(spec)
    if folder.is_dir():
        found = sorted(p for p in folder.iterdir() if is_run_file(p))
        if not found:
            raise RunError(spec, None, f"no run files in this folder ({', '.join(RUN_SUFFIXES)})")
        return found
    return [resolve(cfg, spec)]


def resolve(cfg: Config, spec: str) -> Path:
    """A run given as a path, or a system name found in ``cfg.runs_dir``.

    A system name matches the unique file of ``cfg.runs_dir`` whose :func:`system_name`
    equals it; no match or several matches raise :class:`RunError` listing the candidates.
    """
    direct = Path(spec)
    if direct.is_file():
        return direct
    runs_dir = cfg.runs_dir
    candidates = (
        sorted(p for p in runs_dir.iterdir() if is_run_file(p)) if runs_dir.is_dir() else []
    )
    matches = [p for p in candidates if system_name(p) == spec]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        listed = ", ".join(p.name for p in matches)
        raise RunNotFound(spec, None, f"system name is ambiguous in {runs_dir}: {listed}")
    known = ", ".join(sorted({system_name(p) for p in candidates})) or "none"
    raise RunNotFound(
        spec, None, f"no such run file, and no run named so in {runs_dir} (known: {known})"
    )
