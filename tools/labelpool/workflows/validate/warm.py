"""``labelpool validate``'s warm path, apart from the rules: when nothing changed since the
last run (same files, sizes, times, inodes, the same code and schema), the findings come
from the run cache without importing the rules, the schema validators or the corpus, so a
warm ``validate`` starts as fast as the command line does. :mod:`.validate` runs the rules
otherwise, and shares the caches and helpers here.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import labelpool
from labelpool import __version__, atomic, cache, schemas
from labelpool.config import Config
from labelpool.findings import Finding
from labelpool.rules.registry import RULES_VERSION

LABEL_SUFFIXES = (".yaml", ".yml")
RACY_NS = 1_000_000_000


@dataclass(frozen=True)
class ValidateResult:
    findings: tuple[Finding, ...]
    files: int  # files reported on
    checked: int  # files whose per-file rules ran (cache misses)
    total: int = 0  # label files read (the whole folder, for cross-file rules)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")


def default_cache_dir() -> Path:
    """Where the validate cache lives: the parsed-label cache's folder."""
    return cache.cache_dir()


def display(path: Path, cwd: Path | None = None) -> str:
    """``path`` relative to the working folder when it lies below it."""
    cwd = cwd or Path.cwd()
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        try:
            return str(path.resolve().relative_to(cwd.resolve()))
        except ValueError:
            return str(path)


def _label_files(labels_dir: Path) -> tuple[list[str], list[str]]:
    """(regular label files, symlinks) under ``labels_dir`` as absolute path strings; labels
    are its direct children, symlinks are looked for all the way down."""
    files: list[str] = []
    links: list[str] = []
    if not labels_dir.is_dir():
        return files, links
    top = str(labels_dir.resolve())
    todo = [top]
    while todo:  # a stack, not os.walk: Python 3.11's walk recurses (1,100 folders deep fail)
        dirpath = todo.pop()
        try:
            with os.scandir(dirpath) as listing:
                entries = list(listing)
        except OSError:
            continue  # as os.walk: an unreadable folder is skipped
        for entry in entries:
            if entry.is_symlink():
                links.append(entry.path)
            elif entry.is_dir(follow_symlinks=False):
                todo.append(entry.path)
            elif dirpath == top and entry.name.endswith(LABEL_SUFFIXES):
                files.append(entry.path)
    return sorted(files), sorted(links)


def _expand(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir() and not p.is_symlink():
            out.extend(sorted(q for q in p.iterdir() if q.suffix in LABEL_SUFFIXES))
        else:
            out.append(p)
    return out


def _key(path: Path) -> str:
    """Absolute path string naming a file (its folder resolved, a symlink itself kept)."""
    return os.path.join(str(path.absolute().parent.resolve()), path.name)


# --------------------------------------------------------------------------- the cache


def _cache_file(cache_dir: Path, cfg: Config, kind: str) -> Path:
    root = hashlib.sha256(str(cfg.root.resolve()).encode()).hexdigest()[:16]
    return cache_dir / f"validate-{root}-{kind}.json"


def _cache_key(schema_file: Path, cfg: Config) -> str:
    schema_hash = hashlib.sha256(schema_file.read_bytes()).hexdigest()
    return (
        f"{__version__}/{RULES_VERSION}/{schema_hash}/{cfg.max_file_bytes}/{cfg.max_depth}/"
        f"{_code_stamp()}"
    )


def _code_stamp() -> str:
    """Size and mtime of the modules whose code decides findings: an edited or reinstalled
    rule invalidates cached results even when nobody bumped ``RULES_VERSION``."""
    package = Path(labelpool.__file__).resolve().parent
    h = hashlib.sha256()
    for folder in (package / "rules", package / "yamlfile", package / "labelfile", package):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py") and (folder != package or name in _CODE_MODULES):
                st = os.stat(folder / name)
                h.update(f"{folder.name}/{name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


_CODE_MODULES = ("model.py", "corpus.py", "findings.py", "schemas.py")


def _read_cache(path: Path, key: str) -> dict[str, Any] | None:
    """The entries stored under ``key`` (None when absent, stale or unreadable)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else None


def _write_cache(path: Path, key: str, entries: dict[str, Any], **extra: Any) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"key": key, **extra, "entries": entries}, separators=(",", ":"))
        atomic.write_text(path, text)
    except OSError:
        pass  # a cache that cannot be written only costs time


def _result(
    rows: dict[str, list[list[Any]]],
    wanted: set[str],
    everything: list[str],
    cwd: Path,
    allow_pending: bool,
    checked: int,
) -> ValidateResult:
    findings: list[Finding] = []
    labels = set(everything)
    for key, found in rows.items():
        if key not in wanted and key in labels:
            continue  # another label file: not asked about (findings on config files show)
        shown = display(Path(key), cwd)
        findings.extend(Finding(shown, *row) for row in found)
    if allow_pending:
        findings = [f for f in findings if f.rule not in ("LP034", "LP062")]
    return ValidateResult(
        findings=tuple(sorted(set(findings), key=_sort_key)),
        files=len(wanted),
        checked=checked,
        total=len(everything),
    )


def _stat_key(cache_key: str, cfg: Config, files: list[str], links: list[str]) -> str | None:
    """A signature of every file's (size, mtime, ctime, inode), or None if one cannot be read."""
    h = hashlib.sha256()
    for part in (cache_key, cfg.version_pattern or "-", _stat(cfg.corpus), _stat(cfg.versions)):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    # Like git's racy-clean check: a file touched within the last second may change again
    # without changing its stat data; such a signature is not stored or trusted.
    recent = time.time_ns() - RACY_NS
    try:
        for key in files:
            st = os.stat(key)
            if st.st_mtime_ns >= recent or st.st_ctime_ns >= recent:
                return None
            h.update(
                f"{key}\0{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}\0".encode(
                    "utf-8", "surrogateescape"
                )
            )
    except OSError:
        return None
    for link in links:
        h.update(f"link\0{link}\0".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _read_run(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        return None
    return data


def _stat(path: Path | None) -> str:
    if path is None:
        return "-"
    try:
        st = path.stat()
    except OSError:
        return f"{path}:absent"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _run_key(cache_key: str, cfg: Config, digests: dict[str, str], links: list[str]) -> str:
    h = hashlib.sha256()
    for part in (cache_key, cfg.version_pattern or "-", _stat(cfg.corpus), _stat(cfg.versions)):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    for key in sorted(digests):
        h.update(f"{key}\0{digests[key]}\0".encode("utf-8", "surrogateescape"))
    for link in sorted(links):
        h.update(f"link\0{link}\0".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _sort_key(f: Finding) -> tuple[str, int, int, str, str]:
    return (f.path, f.line, f.col, f.rule, f.message)


@dataclass(frozen=True)
class RunPlan:
    """What a run looks at (every label file, the ones asked about, symlinks) and its caches;
    ``result``: the cached rows when nothing changed since the last run (else None)."""

    schema_file: Path
    everything: list[str]
    links: list[str]
    wanted: set[str]
    cache_dir: Path
    cache_key: str
    run_path: Path
    run: dict[str, Any] | None
    result: dict[str, list[list[Any]]] | None


def plan_run(
    cfg: Config,
    paths: Sequence[Path] | None = None,
    *,
    cache_dir: Path | None = None,
    use_cache: bool = True,
) -> RunPlan:
    """The files a run of ``validate`` reads and, when nothing changed since the last run,
    its cached rows."""
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    files, links = _label_files(cfg.labels_dir)
    labels_top = str(cfg.labels_dir.resolve()) + os.sep
    everything = list(files)
    if paths:
        wanted: set[str] = set()
        for p in _expand(paths):
            key = _key(p)
            wanted.add(key)
            if p.is_symlink():
                if key.startswith(labels_top) and key not in links:
                    links.append(key)
            else:
                everything.append(key)
        everything = sorted(set(everything))
        links = [k for k in links if k in wanted]
    else:
        wanted = set(files) | set(links)

    cache_dir = cache_dir or default_cache_dir()
    cache_key = _cache_key(schema_file, cfg)
    run_path = _cache_file(cache_dir, cfg, "run")
    stat_key = _stat_key(cache_key, cfg, everything, links)
    run = _read_run(run_path) if use_cache else None
    unchanged = run is not None and stat_key is not None and run.get("stat") == stat_key
    result = run["entries"] if unchanged and run is not None else None
    return RunPlan(
        schema_file, everything, links, wanted, cache_dir, cache_key, run_path, run, result
    )


def cached(
    cfg: Config,
    paths: Sequence[Path] | None = None,
    *,
    allow_pending: bool = False,
    cache_dir: Path | None = None,
    cwd: Path | None = None,
) -> ValidateResult | None:
    """The result of ``validate`` when nothing changed since its last run (None: run it)."""
    plan = plan_run(cfg, paths, cache_dir=cache_dir)
    if plan.result is None:
        return None
    return _result(plan.result, plan.wanted, plan.everything, cwd or Path.cwd(), allow_pending, 0)
