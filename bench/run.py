"""labelpool's benchmark: every command's time and peak memory beside the floors and the peers.

    python bench/run.py                          # 1,000 and 10,000 questions; runs S, M, L
    python bench/run.py --sizes 10000 --commands diff,bias --repeat 3
    python bench/run.py --sizes 100000 --runs none --repeat 1   # does every command complete?
    python bench/run.py --quick                  # a smoke run: tiny sizes, one repeat

Everything is generated from ``--seed`` (``bench_repo.py``): for each size a git repository
of that many label files and three ``N x 100`` runs in ``runs/``, and the large runs (``L``:
6,980 x 1,000 with about 4.8 M distinct doc ids, written with one space and again with one
tab between fields; ``XL``: 69,800 x 1,000, about 2.95 GB, only when asked). ``S`` is the
1,000-question repository's run (1,000 x 100), ``M`` the 10,000-question one's (10,000 x 100).

Each figure is the median wall clock of ``--repeat`` runs (default 5), each a fresh process;
``peak`` is the largest maximum resident memory of the process and its children; ``cpu`` the
median user + system seconds. ``cold`` = a fresh ``LABELPOOL_CACHE_DIR`` for every run (the
OS page cache may be warm). Commands are measured cold unless the row says ``warm``.

Floors, on the same repository in the same sitting: ``read`` = PyYAML's C loader over every
label file (a whole python process); ``write`` = writing every label file, ``write+commit`` =
that and ``git add`` + ``git commit`` of them (both timed inside their process, the texts
already in memory; their ``cpu`` is the whole process's). Peers: pytrec_eval's whole process
(a fresh python that parses the qrels and the run and evaluates ndcg_cut.10, recall.10,
recall.100, map, recip_rank and P.10), and trec_eval 10.0 built from
``../shared/peers/trec_eval`` (copied to a temporary folder and ``make``-d; its column
appears when it builds; ``--trec-eval-src`` names another source).

The last table checks the goals of the performance issue (ratios at 10,000 questions, or at
the largest size measured when 10,000 is not). A shared or loaded machine inflates wall
clock: each ratio to the floors is also given in CPU seconds (``cpu``), which a loaded
machine distorts less (a command that waits on the disk, e.g. for fsync, shows it in wall
clock only).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import bench_agreement
import bench_dedup
import bench_goals
import bench_hostile
import bench_measure
import bench_repo
import bench_seats
from bench_measure import (
    LABELPOOL_MEASURES,
    PYTREC,
    READ_FLOOR,
    TREC_EVAL_MEASURES,
    WRITE_FLOOR,
    Measurement,
    build_trec_eval,
    measure,
    measure_warm,
    pytrec_installed,
)
from bench_repo import LARGE, Repo, RunShape, git

ROOT = Path(__file__).resolve().parents[1]
TREC_EVAL_SRC = ROOT.parent / "shared" / "peers" / "trec_eval"
COMMANDS = (
    "score",
    "compare",
    "validate",
    "pool",
    "merge",
    "diff",
    "import",
    "provenance",
    "bias",
    "agreement",
    "help",
    "validate-file",
    "dedup",
)
RUN_NAMES = ("S", "M", "L", "XL")
QUICK_SIZES = (60,)
QUICK_L = RunShape("L", 40, 200, 6_000)
JUDGE = ("Jo Judge", "jo.judge@example.org")


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


# --------------------------------------------------------------------------- repositories


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


def _reset(repo: Repo) -> None:
    git(repo.root, "checkout", "-q", "-f", "main")
    git(repo.root, "reset", "-q", "--hard", repo.base)
    git(repo.root, "clean", "-q", "-fdx", "--", "labels")


def _drop_branch(repo: Repo, name: str) -> None:
    _reset(repo)
    if git(repo.root, "branch", "--list", name).strip():
        git(repo.root, "branch", "-q", "-D", name)


# --------------------------------------------------------------------------- one size


def floors(b: Bench, repo: Repo) -> None:
    py = sys.executable
    b.put(repo.n, measure("read floor", [py, "-c", READ_FLOOR, "labels"], repo.root, b.repeat))
    timing = b.work / "floor-timing"
    for name, mode in (("write floor", "nocommit"), ("write+commit floor", "commit")):
        cmd = [py, "-c", WRITE_FLOOR, "labels", str(timing), mode]
        m = measure(name, cmd, repo.root, b.repeat, after=lambda: _reset(repo), timing_file=timing)
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
    return "score" in b.commands and (run is None or run in b.runs or b.quick)


def bench_size(b: Bench, n: int) -> None:
    repo = repository(b, n)
    labels_mb = sum(p.stat().st_size for p in repo.labels.iterdir()) / 1e6
    b.info[n] = f"{n:,} label files ({labels_mb:.0f} MB)"
    print(f"== {n:,} questions", file=sys.stderr)
    floors(b, repo)
    shape = score_name(n)
    if wanted_score(b, n):
        cmd = b.lp("score", str(repo.run("bm25")), "-m", LABELPOOL_MEASURES, "--format", "json")
        b.put(n, measure(f"score {shape}", cmd, repo.root, b.repeat))
        peers(b, n, repo.qrels, repo.run("bm25"), shape)
    if "compare" in b.commands:
        cmd = b.lp("compare", "bm25", "dense", "--format", "json")
        b.put(n, measure("compare bm25 dense", cmd, repo.root, b.repeat))
    if "validate" in b.commands:
        b.put(n, measure("validate", b.lp("validate"), repo.root, b.repeat))
        b.put(n, measure_warm("validate (warm)", b.lp("validate"), repo.root, b.repeat))
    if "provenance" in b.commands:
        cmd = b.lp("validate", "--provenance")
        b.put(n, measure("validate --provenance", cmd, repo.root, b.repeat))
    if "bias" in b.commands:
        cmd = b.lp("bias", "--format", "json")
        b.put(n, measure("bias", cmd, repo.root, b.repeat))
    if "agreement" in b.commands:
        bench_agreement_size(b, n)
    pool_merge_diff(b, repo)
    if "merge" in b.commands:
        merge_two_judges(b, repo)
    if "import" in b.commands:
        bench_import(b, repo)


def bench_agreement_size(b: Bench, n: int) -> None:
    """``agreement`` on a repository of ``n`` questions, two judges each on 20 documents,
    beside the read floor of that repository (its label files are larger)."""
    root = bench_agreement.make_repo(b.work / f"agreement-{n}-{b.seed}", n, b.seed)
    floor = [sys.executable, "-c", READ_FLOOR, "labels"]
    b.put(n, measure(bench_goals.READ_JUDGED, floor, root, b.repeat))
    cmd = b.lp("agreement", "--format", "json")
    b.put(n, measure("agreement (2 judges x 20 docs)", cmd, root, b.repeat))


POOL_ARGS = ("pool", "bm25", "dense", "hybrid", "--depth", "30", "--no-text")


def pool_merge_diff(b: Bench, repo: Repo) -> None:
    n = repo.n
    if "pool" in b.commands:
        _reset(repo)
        cmd = b.lp(*POOL_ARGS, "--branch", "bench-pool")
        m = measure(
            "pool bm25 dense hybrid --depth 30",
            cmd,
            repo.root,
            b.repeat,
            before=lambda: _drop_branch(repo, "bench-pool"),
            after=lambda: _keep_pooled(repo),
        )
        b.put(n, m)
    if not {"merge", "diff"} & set(b.commands):
        return
    pooled = b.results.get((n, "pool bm25 dense hybrid --depth 30"))
    # a pool that failed (or timed out) just now is not started again for the judge
    judged = judge_commit(b, repo) if pooled is None or pooled.ok else None
    if judged is None:
        for name in ("merge (one judge)", "diff base merged"):
            if name.split()[0] in b.commands:
                b.put(n, Measurement(name, ok=False, note="pool failed: no batch to judge"))
        return
    merged_tag = "bench-merged"

    def before_merge() -> None:
        _reset(repo)
        git(repo.root, "checkout", "-q", "-f", "-B", "bench-merge", judged)

    def after_merge() -> None:
        if git(repo.root, "rev-parse", "HEAD").strip() != judged:
            git(repo.root, "tag", "-f", merged_tag, "HEAD")
        _drop_branch(repo, "bench-merge")

    if "merge" in b.commands or not git(repo.root, "tag", "--list", merged_tag).strip():
        m = measure(
            "merge (one judge)",
            b.lp("merge"),
            repo.root,
            b.repeat if "merge" in b.commands else 1,
            before=before_merge,
            after=after_merge,
        )
        if "merge" in b.commands:
            b.put(n, m)
    if "diff" in b.commands:
        if not git(repo.root, "tag", "--list", merged_tag).strip():
            b.put(
                n, Measurement("diff base merged", ok=False, note="merge failed: nothing to diff")
            )
            return
        cmd = b.lp("diff", repo.base, merged_tag)
        b.put(n, measure("diff base merged", cmd, repo.root, b.repeat))


def merge_two_judges(b: Bench, repo: Repo) -> None:
    """``merge`` of two judges' verdicts, 20 documents each (``bench_seats.py``), beside the
    same floors as the one judge's merge."""
    cache = tempfile.mkdtemp(prefix="lp-bench-cache-")
    _reset(repo)
    run = bench_seats.seats_run(repo, b.work / f"seats-{repo.n}.trec")
    env = {**os.environ, "LABELPOOL_CACHE_DIR": cache}
    judged = bench_seats.judged_by_two(repo, run, b.lp, env)
    shutil.rmtree(cache, ignore_errors=True)
    if judged is None:
        b.put(repo.n, Measurement(bench_seats.NAME, ok=False, note="pool --judges 2 failed"))
        return

    def before() -> None:
        _reset(repo)
        git(repo.root, "checkout", "-q", "-f", "-B", "bench-merge-2", judged)

    cmd = b.lp("merge")
    after = lambda: _drop_branch(repo, "bench-merge-2")  # noqa: E731
    b.put(repo.n, measure(bench_seats.NAME, cmd, repo.root, b.repeat, before=before, after=after))


def _keep_pooled(repo: Repo) -> None:
    """Keep the batch ``pool`` just made (``bench-pooled``), for the judge to fill."""
    if git(repo.root, "branch", "--list", "bench-pool").strip():
        git(repo.root, "branch", "-q", "-f", "bench-pooled", "bench-pool")
    _drop_branch(repo, "bench-pool")


def judge_commit(b: Bench, repo: Repo) -> str | None:
    """A pooled batch with every verdict filled, committed by one judge (made once)."""
    tag = "bench-judged"
    if git(repo.root, "tag", "--list", tag).strip():
        return git(repo.root, "rev-parse", tag).strip()
    if not git(repo.root, "branch", "--list", "bench-pooled").strip():
        _reset(repo)
        cache = tempfile.mkdtemp(prefix="lp-bench-cache-")
        env = {**os.environ, "LABELPOOL_CACHE_DIR": cache}
        proc = _run([*b.lp(*POOL_ARGS, "--branch", "bench-pool")], repo.root, env)
        shutil.rmtree(cache, ignore_errors=True)
        if proc != 0:
            _reset(repo)
            return None
        _keep_pooled(repo)
    git(repo.root, "checkout", "-q", "-f", "-B", "bench-judge", "bench-pooled")
    rng = random.Random(b.seed)
    pattern = re.compile(r"verdict: null")
    verdicts = ["irrelevant"] * 7 + ["relevant"] * 2 + ["2"]
    for path in sorted(repo.labels.iterdir()):
        text = path.read_text(encoding="utf-8")
        if "verdict: null" in text:
            filled = pattern.sub(lambda _: f"verdict: {rng.choice(verdicts)}", text)
            path.write_text(filled, encoding="utf-8")
    env_judge = {
        "GIT_AUTHOR_NAME": JUDGE[0],
        "GIT_AUTHOR_EMAIL": JUDGE[1],
        "GIT_COMMITTER_NAME": JUDGE[0],
        "GIT_COMMITTER_EMAIL": JUDGE[1],
    }
    git(repo.root, "add", "--", "labels")
    git(repo.root, "commit", "-q", "-m", "verdicts", env=env_judge)
    git(repo.root, "tag", "-f", tag, "HEAD")
    commit = git(repo.root, "rev-parse", "HEAD").strip()
    _drop_branch(repo, "bench-judge")
    return commit


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> int:
    import subprocess

    return subprocess.call(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL)


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


# --------------------------------------------------------------------------- large runs


def bench_large(b: Bench, sizes: list[int]) -> None:
    for name in ("L", "XL"):
        if name not in b.runs or "score" not in b.commands:
            continue
        shape = QUICK_L if b.quick and name == "L" else LARGE[name]
        fits = [n for n in sizes if n >= shape.questions]
        if not fits:
            print(f"run {name}: needs a size >= {shape.questions:,}; skipped", file=sys.stderr)
            continue
        n = min(fits)
        repo = repository(b, n)
        label = f"{name} {shape.questions:,} x {shape.depth:,}"
        space = large_run(b, repo, shape, " ")
        info = bench_repo.run_info(space)
        cmd = b.lp("score", str(space), "-m", LABELPOOL_MEASURES, "--format", "json")
        m = measure(f"score {label}", cmd, repo.root, b.repeat)
        b.put(n, replace(m, extra={"max_question_mib": info["max_question_bytes"] / 2**20}))
        if name == "L":
            tab = large_run(b, repo, shape, "\t")
            cmd = b.lp("score", str(tab), "-m", LABELPOOL_MEASURES, "--format", "json")
            b.put(n, measure(f"score {label} tab-separated", cmd, repo.root, b.repeat))
        # trec_eval 10.0 exits on a qrels question the run lacks: the run's questions only
        qrels = b.work / f"qrels-{name}-{n}.txt"
        if not qrels.exists():
            wanted = {bench_repo.qid(i) for i in range(min(shape.questions, n))}
            with repo.qrels.open(encoding="utf-8") as fh:
                kept = [line for line in fh if line.split(" ", 1)[0] in wanted]
            qrels.write_text("".join(kept), encoding="utf-8")
        peers(b, n, qrels, space, label)
        one = b.work / f"one-question-{n}.trec"
        with repo.run("bm25").open(encoding="utf-8") as fh:
            one.write_text("".join(next(fh) for _ in range(100)), encoding="utf-8")
        cmd = b.lp("score", str(one), "-m", LABELPOOL_MEASURES, "--format", "json")
        b.put(n, measure(f"score one question ({name} baseline)", cmd, repo.root, 1))
        b.notes.append(
            f"run {name}: {info['lines']:,} lines, {info['bytes'] / 1e6:,.0f} MB, "
            f"{info['distinct']:,} distinct doc ids, largest question "
            f"{info['max_question_bytes'] / 1e3:,.0f} kB"
        )


def bench_global(b: Bench) -> None:
    if "import" in b.commands:
        b.put(0, bench_hostile.long_line(b.work, b.lp, b.repeat))
    if "help" in b.commands:
        b.put(0, measure("labelpool --help", b.lp("--help"), ROOT, b.repeat))
    if "validate-file" in b.commands:
        example = ROOT / "labels" / "cancel-order.yaml"
        if example.is_file():
            cmd = b.lp("validate", str(example.relative_to(ROOT)))
            b.put(0, measure_warm("validate one file of the example (warm)", cmd, ROOT, b.repeat))


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--sizes", default="1000,10000", help="questions per repository (1000,10000)")
    p.add_argument("--runs", default="S,M,L", help="score runs: S, M, L, XL, or none")
    p.add_argument("--commands", default=",".join(COMMANDS), help=f"of {', '.join(COMMANDS)}")
    p.add_argument("--repeat", type=int, default=5, help="runs per figure (median; default 5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="smoke run: tiny sizes, one repeat")
    p.add_argument("--keep", type=Path, help="generate here and keep (reused when run again)")
    p.add_argument("--trec-eval-src", type=Path, default=TREC_EVAL_SRC)
    p.add_argument("--no-trec-eval", action="store_true", help="do not build trec_eval")
    p.add_argument("--timeout", type=int, default=3600, help="kill a command after N s")
    return p.parse_args(argv)


def compile_bytecode() -> str:
    """Compile labelpool's bytecode first, as ``pip install`` of a wheel does; says so (a note).

    An editable install (``pip install -e .``) under ``PYTHONDONTWRITEBYTECODE=1``, as on the
    project's machine, never writes ``__pycache__``: every labelpool process then compiles
    the hundred-odd modules it imports from source, 0.2-0.25 s of CPU that an installed
    labelpool (and every peer, whose packages were compiled when installed) never pays.
    ``__pycache__`` is ignored by git; a stale file is recompiled by Python as usual.
    """
    spec = importlib.util.find_spec("labelpool")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    if not folders:
        return "labelpool's bytecode: not found, not compiled"
    ok = all(compileall.compile_dir(folder, quiet=1, workers=1) for folder in folders)
    state = "compiled first" if ok else "compiled first (some modules failed to compile)"
    return f"labelpool's bytecode {state}, as an installed wheel has it ({', '.join(folders)})"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    commands = tuple(c.strip() for c in args.commands.split(",") if c.strip())
    runs = tuple(r.strip() for r in args.runs.split(",") if r.strip() and r.strip() != "none")
    bad = [c for c in commands if c not in COMMANDS] + [r for r in runs if r not in RUN_NAMES]
    if bad:
        print(f"unknown command or run: {', '.join(bad)}", file=sys.stderr)
        return 2
    sizes = sorted({int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()})
    repeat = args.repeat
    bench_measure.TIMEOUT[0] = args.timeout
    if args.quick:
        sizes, repeat = list(QUICK_SIZES), 1
    labelpool = shutil.which("labelpool")
    if labelpool is None:
        print("labelpool is not on PATH (pip install -e .)", file=sys.stderr)
        return 2
    work = args.keep or Path(tempfile.mkdtemp(prefix="labelpool-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    b = Bench(work.resolve(), max(1, repeat), args.seed, commands, runs, args.quick, labelpool)
    b.notes.append(compile_bytecode())
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    try:
        if args.quick or args.no_trec_eval:
            b.trec_eval_note = "not built (--quick or --no-trec-eval)"
        else:
            b.trec_eval, b.trec_eval_note = build_trec_eval(args.trec_eval_src, b.work)
        for n in sizes:
            bench_size(b, n)
        bench_large(b, sizes)
        bench_global(b)
        if "dedup" in b.commands:
            b.dedup = bench_dedup.run(b.work, b.seed, b.repeat, b.quick)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(bench_goals.header(started, b.repeat, b.seed, b.trec_eval_note, os.cpu_count()))
    print(bench_goals.tables(b.results, b.info, b.notes))
    if b.dedup is not None:
        print(bench_dedup.table(b.dedup))
    print(bench_goals.goal_table(b.results, sizes, bench_dedup.goals(b.dedup)))
    failed = [f"{name} at {size:,}" for (size, name), m in b.results.items() if not m.ok]
    if b.dedup is not None:
        failed += [name for name, (_, m) in b.dedup.steps.items() if not m.ok]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
