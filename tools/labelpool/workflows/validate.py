"""``labelpool validate``: every rule on the label files, with a per-file result cache.

Per-file rules run on each file's bytes (``labelpool.rules.check``), in parallel when many
files are new; their results are cached by content hash (+ schema hash + rules version) in
``$LABELPOOL_CACHE_DIR``, else ``$XDG_CACHE_HOME/labelpool``, else ``~/.cache/labelpool``
(outside the tracked tree; safe to delete). Rules that need the file name or other files
(id = stem, id uniqueness, supersession, corpus ids) are recomputed on every run from the
cached per-file facts over the whole labels folder, so ``validate FILE`` checks FILE against
all the others (pre-commit splits file lists).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import stat
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from labelpool import __version__, atomic, cache, schemas
from labelpool.config import Config
from labelpool.corpus import CorpusError, CorpusTexts, load_versions
from labelpool.findings import Finding
from labelpool.rules import check, corpus_ids, identity, schema
from labelpool.rules.check import FileResult, check_bytes
from labelpool.rules.classes import supersession
from labelpool.rules.identity import fold
from labelpool.rules.registry import RULES_VERSION
from labelpool.rules.view import KeyPath, locate

LABEL_SUFFIXES = (".yaml", ".yml")
RACY_NS = 1_000_000_000
PARALLEL_MIN = 400  # below this many uncached files one process is faster


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
    package = Path(__file__).resolve().parents[1]
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


# --------------------------------------------------------------------------- per-file rules


def _check_chunk(args: tuple[list[bytes], str, int, int]) -> list[dict[str, Any]]:
    raws, schema_file, max_bytes, max_depth = args
    return [
        check_bytes(raw, Path(schema_file), max_bytes=max_bytes, max_depth=max_depth).to_json()
        for raw in raws
    ]


def _check_all(
    raws: list[bytes], schema_file: Path, cfg: Config, jobs: int | None
) -> list[dict[str, Any]]:
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(raws) < PARALLEL_MIN:
        return _check_chunk((raws, str(schema_file), cfg.max_file_bytes, cfg.max_depth))
    # Compile once here: forked workers inherit it instead of each redoing it.
    schema.fast_check(schema_file)
    check.check_bytes(
        b"id: warm-up\n", schema_file, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth
    )

    size = max(50, len(raws) // (workers * 4))
    chunks = [
        (raws[i : i + size], str(schema_file), cfg.max_file_bytes, cfg.max_depth)
        for i in range(0, len(raws), size)
    ]
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        return [r for part in pool.map(_check_chunk, chunks) for r in part]


# --------------------------------------------------------------------------- validate


def validate(
    cfg: Config,
    paths: Sequence[Path] | None = None,
    *,
    allow_pending: bool = False,
    cache_dir: Path | None = None,
    use_cache: bool = True,
    jobs: int | None = None,
    cwd: Path | None = None,
) -> ValidateResult:
    """Findings for ``paths`` (default: every label file), checked against the whole folder."""
    cwd = cwd or Path.cwd()
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
    if run is not None and stat_key is not None and run.get("stat") == stat_key:
        # Nothing changed since the last run (same files, sizes, times, inodes).
        return _result(run["entries"], wanted, everything, cwd, allow_pending, 0)

    raws: dict[str, bytes] = {}
    unreadable: dict[str, str] = {}
    for key in everything:
        try:
            if not stat.S_ISREG(os.stat(key).st_mode):  # a FIFO would block the read
                unreadable[key] = "not a regular file"
                continue
            with open(key, "rb") as fh:
                raws[key] = fh.read()
        except OSError as exc:
            unreadable[key] = str(exc.strerror or exc)
    digests = {k: hashlib.sha256(raw).hexdigest() for k, raw in raws.items()}

    run_key = _run_key(cache_key, cfg, digests, links)
    checked = 0
    if run is not None and run.get("key") == run_key and not unreadable:
        rows = run["entries"]
    else:
        by_file, checked = _run_all(
            cfg, schema_file, cache_dir, cache_key, raws, digests, use_cache, jobs
        )
        for link in links:
            by_file.setdefault(link, []).append(
                Finding("", 1, 1, "LP037", "symlink under labels/; store the label file itself")
            )
        for key, reason in unreadable.items():
            by_file.setdefault(key, []).append(Finding("", 1, 1, "LP039", f"cannot read: {reason}"))
        rows = {
            k: [[f.line, f.col, f.rule, f.message, f.severity] for f in fs]
            for k, fs in by_file.items()
            if fs
        }
    if use_cache:
        # Re-stat after reading: a file changed meanwhile gets a new signature next time.
        stat_now = _stat_key(cache_key, cfg, everything, links) if not unreadable else None
        _write_cache(run_path, run_key, rows, stat=stat_now)
    return _result(rows, wanted, everything, cwd, allow_pending, checked)


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
        findings = [f for f in findings if f.rule != "LP034"]
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


def _run_all(
    cfg: Config,
    schema_file: Path,
    cache_dir: Path,
    cache_key: str,
    raws: dict[str, bytes],
    digests: dict[str, str],
    use_cache: bool,
    jobs: int | None,
) -> tuple[dict[str, list[Finding]], int]:
    """Per-file results (cached by content) and cross-file rules for every file."""
    entries_path = _cache_file(cache_dir, cfg, "files")
    entries = (_read_cache(entries_path, cache_key) if use_cache else None) or {}
    missing = sorted({d for d in digests.values() if d not in entries})
    if missing:
        by_digest = {digests[k]: raws[k] for k in raws}
        results = _check_all([by_digest[d] for d in missing], schema_file, cfg, jobs)
        entries.update(zip(missing, results, strict=True))
        if use_cache:
            live = set(digests.values())
            _write_cache(entries_path, cache_key, {d: e for d, e in entries.items() if d in live})
    results_by_file = {k: FileResult.from_json(entries[d]) for k, d in digests.items()}
    by_file = {k: list(r.findings) for k, r in results_by_file.items()}
    for key, found in _cross_file(cfg, results_by_file, raws).items():
        by_file.setdefault(key, []).extend(found)
    return by_file, len(missing)


def _sort_key(f: Finding) -> tuple[str, int, int, str, str]:
    return (f.path, f.line, f.col, f.rule, f.message)


def _cross_file(
    cfg: Config, results: dict[str, Any], raws: dict[str, bytes]
) -> dict[str, list[Finding]]:
    """id = file stem, id uniqueness, supersession in classes, judged ids in the corpus."""
    out: dict[str, list[Finding]] = {}

    def locator(key: str) -> Any:
        def at(keypath: KeyPath) -> tuple[int, int]:
            return locate(raws[key], keypath)

        return at

    ids: list[tuple[str, str, int, int]] = []
    for key, result in results.items():
        if result.qid is None:
            continue
        line, col = result.qid_pos
        ids.append((key, result.qid, line, col))
        stem = os.path.splitext(os.path.basename(key))[0]
        out.setdefault(key, []).extend(identity.stem_mismatch(result.qid, line, col, stem))
    if len(ids) > 1:
        root = str(cfg.root.resolve())
        names = {key: os.path.relpath(key, root) for key in _clashing(ids)}
        for f in identity.duplicates([(names.get(k, k), q, ln, co) for k, q, ln, co in ids]):
            key = next(k for k, n in names.items() if n == f.path)
            out.setdefault(key, []).append(replace(f, path=""))

    if any(len(c) > 1 for r in results.values() for c in r.classes):
        try:
            versions = load_versions(cfg)
        except CorpusError as exc:
            found = _finding_of(exc, "LP031")
            out.setdefault(found.path, []).append(replace(found, path=""))
        else:
            for key, result in results.items():
                if any(len(c) > 1 for c in result.classes):
                    out.setdefault(key, []).extend(
                        supersession(result.classes, versions, locator(key))
                    )
    if cfg.corpus is not None and any(r.lists or r.classes for r in results.values()):
        try:
            known = CorpusTexts(cfg.corpus).ids()
        except CorpusError as exc:
            found = replace(_finding_of(exc, "LP038"), severity="warning")
            out.setdefault(found.path, []).append(replace(found, path=""))
        else:
            for key, result in results.items():
                out.setdefault(key, []).extend(
                    corpus_ids.check(result.lists, result.classes, known, locator(key))
                )
    return out


def _clashing(ids: list[tuple[str, str, int, int]]) -> set[str]:
    seen: dict[str, list[str]] = {}
    for key, qid, _, _ in ids:
        seen.setdefault(fold(qid), []).append(key)
    return {k for keys in seen.values() if len(keys) > 1 for k in keys}


def _finding_of(exc: CorpusError, rule: str) -> Finding:
    """The finding ``rule`` for a corpus error, at the place the error names."""
    if exc.path is None or exc.line is None:
        return Finding("", 1, 1, rule, str(exc))
    path = str(Path(exc.path).absolute())
    return Finding(path, exc.line, exc.column or 1, rule, exc.message)
