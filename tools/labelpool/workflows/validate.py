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
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from labelpool import __version__
from labelpool.config import Config
from labelpool.findings import Finding

LABEL_SUFFIXES = (".yaml", ".yml")
PARALLEL_MIN = 400  # below this many uncached files one process is faster
_POSITION = re.compile(r"^(?P<path>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$", re.S)


@dataclass(frozen=True)
class ValidateResult:
    findings: tuple[Finding, ...]
    files: int  # files reported on
    checked: int  # files whose per-file rules ran (cache misses)
    total: int = 0  # label files read (the whole folder, for cross-file rules)
    notes: tuple[str, ...] = field(default=())

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")


def default_cache_dir() -> Path:
    env = os.environ.get("LABELPOOL_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "labelpool"
    return Path.home() / ".cache" / "labelpool"


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


def _label_files(labels_dir: Path) -> tuple[list[Path], list[Path]]:
    """(regular label files, symlinks) under ``labels_dir``; labels are its direct children."""
    files: list[Path] = []
    links: list[Path] = []
    if not labels_dir.is_dir():
        return files, links
    for dirpath, dirnames, filenames in os.walk(labels_dir, followlinks=False):
        folder = Path(dirpath)
        for name in dirnames:
            if (folder / name).is_symlink():
                links.append(folder / name)
        for name in filenames:
            path = folder / name
            if path.is_symlink():
                links.append(path)
            elif folder == labels_dir and path.suffix in LABEL_SUFFIXES:
                files.append(path)
    return sorted(files), sorted(links)


def _expand(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir() and not p.is_symlink():
            out.extend(sorted(q for q in p.iterdir() if q.suffix in LABEL_SUFFIXES))
        else:
            out.append(p)
    return out


def _under(path: Path, folder: Path) -> bool:
    try:
        path.parent.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- the cache


def _cache_file(cache_dir: Path, cfg: Config) -> Path:
    root = hashlib.sha256(str(cfg.root.resolve()).encode()).hexdigest()[:16]
    return cache_dir / f"validate-{root}.json"


def _cache_key(schema_file: Path, cfg: Config) -> str:
    from labelpool.rules.registry import RULES_VERSION

    schema_hash = hashlib.sha256(schema_file.read_bytes()).hexdigest()
    return f"{__version__}/{RULES_VERSION}/{schema_hash}/{cfg.max_file_bytes}/{cfg.max_depth}"


def _read_cache(path: Path, key: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("key") != key:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def _write_cache(path: Path, key: str, entries: dict[str, Any]) -> None:
    from labelpool.yamlio import atomic_write_text

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({"key": key, "entries": entries},
                                           separators=(",", ":")))
    except OSError:
        pass  # a cache that cannot be written only costs time


# --------------------------------------------------------------------------- per-file rules


def _check_chunk(args: tuple[list[bytes], str, int, int]) -> list[dict[str, Any]]:
    from labelpool.rules.check import check_bytes

    raws, schema_file, max_bytes, max_depth = args
    return [
        check_bytes(raw, Path(schema_file), max_bytes=max_bytes, max_depth=max_depth).to_json()
        for raw in raws
    ]


def _check_all(raws: list[bytes], schema_file: Path, cfg: Config,
               jobs: int | None) -> list[dict[str, Any]]:
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(raws) < PARALLEL_MIN:
        return _check_chunk((raws, str(schema_file), cfg.max_file_bytes, cfg.max_depth))
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    size = max(50, len(raws) // (workers * 4))
    chunks = [
        (raws[i : i + size], str(schema_file), cfg.max_file_bytes, cfg.max_depth)
        for i in range(0, len(raws), size)
    ]
    ctx = multiprocessing.get_context("fork")
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
    from labelpool import schemas

    cwd = cwd or Path.cwd()
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    files, links = _label_files(cfg.labels_dir)
    everything: dict[Path, Path] = {p.resolve(): p for p in files}
    if paths:
        report: list[Path] = []
        for p in _expand(paths):
            report.append(p)
            if not p.is_symlink():
                everything.setdefault(p.resolve(), p)
        wanted = {p.resolve() if not p.is_symlink() else p.absolute() for p in report}
        links = [p for p in links if p.absolute() in wanted]
        extra_links = [p for p in report if p.is_symlink() and _under(p, cfg.labels_dir)]
        links = sorted(set(links) | set(extra_links))
    else:
        wanted = set(everything)

    findings: list[Finding] = []
    for link in links:
        findings.append(Finding(display(link, cwd), 1, 1, "LP037",
                                "symlink under labels/; store the label file itself"))

    # Read every file (the whole folder: cross-file rules need all of them).
    order = sorted(everything)
    raws: dict[Path, bytes] = {}
    for key in order:
        try:
            raws[key] = everything[key].read_bytes()
        except OSError as exc:
            if key in wanted:
                findings.append(Finding(display(everything[key], cwd), 1, 1, "LP039",
                                        f"cannot read: {exc.strerror or exc}"))
    digests = {k: hashlib.sha256(raw).hexdigest() for k, raw in raws.items()}

    cache_key = _cache_key(schema_file, cfg)
    cache_path = _cache_file(cache_dir or default_cache_dir(), cfg)
    entries = _read_cache(cache_path, cache_key) if use_cache else {}
    missing = sorted({d for d in digests.values() if d not in entries})
    if missing:
        by_digest = {digests[k]: raws[k] for k in raws}
        results = _check_all([by_digest[d] for d in missing], schema_file, cfg, jobs)
        entries.update(zip(missing, results, strict=True))
        if use_cache:
            live = set(digests.values())
            _write_cache(cache_path, cache_key, {d: e for d, e in entries.items() if d in live})

    from labelpool.rules.check import FileResult

    results_by_file = {k: FileResult.from_json(entries[d]) for k, d in digests.items()}
    findings.extend(_cross_file(cfg, results_by_file, everything, wanted, cwd))
    for key, result in results_by_file.items():
        if key not in wanted:
            continue
        shown = display(everything[key], cwd)
        findings.extend(replace(f, path=shown) for f in result.findings)
    if allow_pending:
        findings = [f for f in findings if f.rule != "LP034"]
    return ValidateResult(
        findings=tuple(sorted(set(findings), key=_sort_key)),
        files=len(wanted) + sum(1 for p in links if p.absolute() not in wanted),
        checked=len(missing),
        total=len(everything),
    )


def _sort_key(f: Finding) -> tuple[str, int, int, str, str]:
    return (f.path, f.line, f.col, f.rule, f.message)


def _cross_file(
    cfg: Config,
    results: dict[Path, Any],
    everything: dict[Path, Path],
    wanted: set[Path],
    cwd: Path,
) -> list[Finding]:
    from labelpool.rules import classes, corpus_ids, identity

    out: list[Finding] = []
    ids: list[tuple[str, str, int, int]] = []
    for key, result in results.items():
        if result.qid is None:
            continue
        shown = display(everything[key], cwd)
        line, col = result.qid_pos
        ids.append((shown, result.qid, line, col))
        if key in wanted:
            stem = everything[key].stem
            out.extend(replace(f, path=shown)
                       for f in identity.stem_mismatch(result.qid, line, col, stem))
    wanted_shown = {display(everything[k], cwd) for k in wanted if k in everything}
    out.extend(f for f in identity.duplicates(ids) if f.path in wanted_shown)

    mine = {k: r for k, r in results.items() if k in wanted}
    if any(len(c) > 1 for r in mine.values() for c in r.classes):
        from labelpool.corpus import CorpusError, load_versions

        try:
            versions = load_versions(cfg)
        except CorpusError as exc:
            out.append(_from_message(str(exc), "LP031"))
        else:
            for key, result in mine.items():
                shown = display(everything[key], cwd)
                out.extend(replace(f, path=shown)
                           for f in classes.supersession(result.classes, versions))
    if cfg.corpus is not None and any(r.docs for r in mine.values()):
        from labelpool.corpus import CorpusError, CorpusTexts

        try:
            known = CorpusTexts(cfg.corpus).ids()
        except CorpusError as exc:
            out.append(replace(_from_message(str(exc), "LP038"), severity="warning"))
        else:
            for key, result in mine.items():
                shown = display(everything[key], cwd)
                out.extend(replace(f, path=shown) for f in corpus_ids.check(result.docs, known))
    return out


def _from_message(text: str, rule: str) -> Finding:
    match = _POSITION.match(text)
    if match is None:
        return Finding("", 1, 1, rule, text)
    return Finding(match["path"], int(match["line"]), int(match["col"]), rule, match["msg"])
