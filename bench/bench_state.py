"""What one ``bench/run.py`` invocation measures and has measured, and its repositories.

:class:`Bench` holds the options and every figure so far (each also appended to
``WORK/results.jsonl`` as it comes); :func:`repository` and :func:`large_run` generate (or,
with ``--keep``, reuse) the repositories and runs of ``bench_repo.py``; :func:`reset` puts a
repository back at its generated commit between samples.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import bench_dedup
import bench_repo
from bench_measure import Measurement
from bench_repo import Repo, RunShape, git

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Bench:
    """What one invocation measures, and everything measured so far."""

    work: Path
    repeat: int
    seed: int
    commands: tuple[str, ...]
    runs: tuple[str, ...]
    quick: bool
    labelpool: str
    machine_docs: int = 10_000
    trec_eval: Path | None = None
    trec_eval_note: str = ""
    results: dict[tuple[int, str], Measurement] = field(default_factory=dict)
    info: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    dedup: bench_dedup.Results | None = None

    def put(self, size: int, m: Measurement) -> Measurement:
        self.results[(size, m.name)] = m
        with (self.work / "results.jsonl").open("a", encoding="utf-8") as log:
            row = {"size": size, "name": m.name, "seconds": m.seconds, "cpu": m.cpu}
            log.write(json.dumps({**row, "peak_mib": m.peak_mib, "note": m.note}) + "\n")
        shown = f"{m.seconds:.2f} s" if m.seconds is not None else f"FAILED ({m.note})"
        print(f"  [{size:,}] {m.name}: {shown}", file=sys.stderr, flush=True)
        return m

    def lp(self, *args: str) -> list[str]:
        return [self.labelpool, *args]

    def wants(self, command: str) -> bool:
        return command in self.commands


def repository(b: Bench, n: int) -> Repo:
    folder = b.work / f"repo-{n}"
    if folder.is_dir() and (folder / ".git").is_dir():
        repo = bench_repo.open_repo(folder, n)
        git(folder, "checkout", "-q", "-f", "main")
        return repo
    shutil.rmtree(folder, ignore_errors=True)
    t0 = time.perf_counter()
    repo = bench_repo.make_repo(folder, n, b.seed)
    print(f"generated {n:,} questions in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return repo


def large_run(b: Bench, repo: Repo, shape: RunShape, sep: str) -> Path:
    tag = "tab" if sep == "\t" else "space"
    path = b.work / f"run-{shape.name}-{shape.questions}x{shape.depth}-{tag}.trec"
    if not path.exists():
        t0 = time.perf_counter()
        bench_repo.make_large_run(repo, shape, path, b.seed, sep)
        print(f"generated run {path.name} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return path


def reset(repo: Repo) -> None:
    """The repository at its generated commit on ``main``, nothing else in ``labels/``."""
    git(repo.root, "checkout", "-q", "-f", "main")
    git(repo.root, "reset", "-q", "--hard", repo.base)
    git(repo.root, "clean", "-q", "-fdx", "--", "labels")


def drop_branch(repo: Repo, name: str) -> None:
    reset(repo)
    if git(repo.root, "branch", "--list", name).strip():
        git(repo.root, "branch", "-q", "-D", name)
