"""One repository size: the floors, then each reading command cold and warm, the peers of
``score``, ``agreement`` and ``import`` (the commands that write a batch: ``bench_batches.py``;
the judging loop: ``bench_loop.py``).

Floors, on the same repository in the same sitting: ``read`` = PyYAML's C loader over every
label file (a whole python process); ``write`` = writing every label file, ``write+commit`` =
that and ``git add`` + ``git commit`` of them (both timed inside their process, the texts
already in memory). A warm row runs the command once untimed with the same cache first (the
label index filled), then measures it.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import bench_agreement
import bench_batches
import bench_loop
import bench_repo
import bench_tables
from bench_measure import (
    LABELPOOL_MEASURES,
    PYTREC,
    READ_FLOOR,
    TREC_EVAL_MEASURES,
    WRITE_FLOOR,
    measure,
    measure_warm,
    pytrec_installed,
)
from bench_repo import Repo
from bench_state import Bench, repository, reset

WARM = bench_batches.WARM


def floors(b: Bench, repo: Repo) -> None:
    py = sys.executable
    b.put(repo.n, measure("read floor", [py, "-c", READ_FLOOR, "labels"], repo.root, b.repeat))
    timing = b.work / "floor-timing"
    for name, mode in (("write floor", "nocommit"), ("write+commit floor", "commit")):
        cmd = [py, "-c", WRITE_FLOOR, "labels", str(timing), mode]
        m = measure(name, cmd, repo.root, b.repeat, after=lambda: reset(repo), timing_file=timing)
        b.put(repo.n, m)


def peers(b: Bench, size: int, qrels: Path, run: Path, label: str) -> None:
    if pytrec_installed():
        cmd = [sys.executable, "-c", PYTREC, str(qrels), str(run)]
        b.put(size, measure(f"pytrec_eval {label}", cmd, run.parent, b.repeat))
    if b.trec_eval is not None:
        cmd = [str(b.trec_eval), *(f"-m{m}" for m in TREC_EVAL_MEASURES), str(qrels), str(run)]
        b.put(size, measure(f"trec_eval {label}", cmd, run.parent, b.repeat))


def score_name(n: int) -> str:
    shape = f"{n:,} x 100"
    return {1_000: f"{shape} (S)", 10_000: f"{shape} (M)"}.get(n, shape)


def wanted_score(b: Bench, n: int) -> bool:
    run = {1_000: "S", 10_000: "M"}.get(n)
    return b.wants("score") and (run is None or run in b.runs or b.quick)


def cold_and_warm(
    b: Bench, n: int, name: str, cmd: list[str], root: Path, extra: dict[str, float] | None = None
) -> None:
    cold = measure(name, cmd, root, b.repeat)
    b.put(n, replace(cold, extra=extra or {}))
    b.put(n, measure(name + WARM, cmd, root, b.repeat, cold=False, fill=True))


def bench_size(b: Bench, n: int) -> None:
    repo = repository(b, n)
    labels_mb = sum(p.stat().st_size for p in repo.labels.iterdir()) / 1e6
    b.info[n] = f"{n:,} label files ({labels_mb:.0f} MB)"
    print(f"== {n:,} questions", file=sys.stderr)
    floors(b, repo)
    shape = score_name(n)
    if wanted_score(b, n):
        cmd = b.lp("score", str(repo.run("bm25")), "-m", LABELPOOL_MEASURES, "--format", "json")
        cold_and_warm(b, n, f"score {shape}", cmd, repo.root, {"lines": n * 100.0})
        peers(b, n, repo.qrels, repo.run("bm25"), shape)
    if b.wants("compare"):
        cmd = b.lp("compare", "bm25", "dense", "--format", "json")
        cold_and_warm(b, n, "compare bm25 dense", cmd, repo.root)
    if b.wants("validate"):
        b.put(n, measure("validate", b.lp("validate"), repo.root, b.repeat))
        b.put(n, measure_warm("validate" + WARM, b.lp("validate"), repo.root, b.repeat))
    if b.wants("provenance"):
        cmd = b.lp("validate", "--provenance")
        b.put(n, measure("validate --provenance", cmd, repo.root, b.repeat))
    if b.wants("bias"):
        cold_and_warm(b, n, "bias", b.lp("bias", "--format", "json"), repo.root)
    if b.wants("agreement"):
        bench_agreement_size(b, n)
    bench_batches.pool_merge_diff(b, repo)
    if b.wants("merge"):
        bench_batches.merge_two_judges(b, repo)
    if b.wants("import"):
        bench_import(b, repo)
    if b.wants("loop"):
        bench_loop.bench_loop(b, repo)


def bench_agreement_size(b: Bench, n: int) -> None:
    """``agreement`` on a repository of ``n`` questions, two judges each on 20 documents,
    beside the read floor of that repository (its label files are larger)."""
    root = bench_agreement.make_repo(b.work / f"agreement-{n}-{b.seed}", n, b.seed)
    floor = [sys.executable, "-c", READ_FLOOR, "labels"]
    b.put(n, measure(bench_tables.READ_JUDGED, floor, root, b.repeat))
    cmd = b.lp("agreement", "--format", "json")
    b.put(n, measure("agreement (2 judges x 20 docs)", cmd, root, b.repeat))


def bench_import(b: Bench, repo: Repo) -> None:
    folder = b.work / f"import-{repo.n}"
    folder.mkdir(exist_ok=True)
    (folder / "pyproject.toml").write_text(bench_repo.PYPROJECT, encoding="utf-8")

    def clear() -> None:
        shutil.rmtree(folder / "labels", ignore_errors=True)

    cmd = b.lp(
        "import",
        "trec",
        str(repo.import_qrels),
        "--queries",
        str(repo.queries),
        "--pool-system",
        "bm25",
        "--pool-depth",
        "10",
        "--pool-date",
        "2026-06-02",
    )
    m = measure("import trec (10 per question)", cmd, folder, b.repeat, before=clear, after=clear)
    b.put(repo.n, m)
