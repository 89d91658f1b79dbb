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
import multiprocessing
import os
import stat
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from labelpool.config import Config
from labelpool.corpus import CorpusError, CorpusTexts, load_versions
from labelpool.findings import Finding
from labelpool.model import class_extends, class_item
from labelpool.rules import check, corpus_ids, identity, schema
from labelpool.rules.check import FileResult, check_bytes
from labelpool.rules.classes import supersession
from labelpool.rules.identity import fold
from labelpool.rules.view import KeyPath, locate
from labelpool.workflows.validate.warm import LABEL_SUFFIXES as LABEL_SUFFIXES
from labelpool.workflows.validate.warm import (
    ValidateResult,
    _cache_file,
    _read_cache,
    _result,
    _run_key,
    _stat_key,
    _write_cache,
    plan_run,
)
from labelpool.workflows.validate.warm import default_cache_dir as default_cache_dir
from labelpool.workflows.validate.warm import display as display

PARALLEL_MIN = 400  # below this many uncached files one process is faster


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
    plan = plan_run(cfg, paths, cache_dir=cache_dir, use_cache=use_cache)
    if plan.result is not None:  # nothing changed since the last run
        return _result(plan.result, plan.wanted, plan.everything, cwd, allow_pending, 0)
    schema_file, everything, links, wanted = (
        plan.schema_file,
        plan.everything,
        plan.links,
        plan.wanted,
    )
    cache_dir, cache_key, run_path, run = plan.cache_dir, plan.cache_key, plan.run_path, plan.run

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

    if any(_several(c) for r in results.values() for c in r.classes):
        try:
            versions = load_versions(cfg)
        except CorpusError as exc:
            found = _finding_of(exc, "LP031")
            out.setdefault(found.path, []).append(replace(found, path=""))
        else:
            for key, result in results.items():
                if any(_several(c) for c in result.classes):
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


def _several(item: Any) -> bool:
    """Whether a class (either form) has two members or more, or extends a class: LP031
    reads it."""
    return len(class_item(item)[0]) > 1 or class_extends(item) is not None


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
