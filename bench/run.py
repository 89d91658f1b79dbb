"""labelpool's benchmark: every command's time and peak memory beside the floors and the peers.

    python bench/run.py                          # 1,000 and 10,000 questions; runs S, M, L
    python bench/run.py --sizes 10000 --commands diff,bias --repeat 3
    python bench/run.py --sizes 100000 --runs none --repeat 1   # the loop, under 120 s?
    python bench/run.py --quick                  # a smoke run: tiny sizes, one repeat

Everything is generated from ``--seed`` (``bench_repo.py``): for each size a git repository
of that many label files and three ``N x 100`` runs in ``runs/``, and the large runs (``L``:
6,980 x 1,000 with about 4.8 M distinct doc ids, written with one space and again with one
tab between fields; ``10M``: 10,000 x 1,000, ten million lines; ``XL``: 69,800 x 1,000, about
2.95 GB; ``10M`` and ``XL`` only when asked). ``S`` is the 1,000-question repository's run
(1,000 x 100), ``M`` the 10,000-question one's (10,000 x 100).
``judge-machine``: ``judge --machine`` on a batch of ``--machine-docs`` documents against a
chat-completions server on loopback answering after 50 ms, 16 in flight, beside the wait floor
(``bench_machine_judge.py``).

Each figure is the median wall clock of ``--repeat`` runs (default 5), each a fresh process;
``peak`` is the largest maximum resident memory of the process and its children; ``cpu`` the
median user + system seconds. ``cold`` = a fresh ``LABELPOOL_CACHE_DIR`` for every run (the
OS page cache may be warm). Commands are measured cold unless the row says ``warm``: the
command run twice with one cache, the second measured. ``loop``: ``pool`` -> one judge's
verdicts committed -> ``merge`` -> ``compare`` timed as one figure (``bench_loop.py``).

The modules: ``bench_state`` (what is measured and the repositories), ``bench_sizes`` (one
size: floors, reading commands, peers), ``bench_batches`` (pool, merge, diff),
``bench_loop``, ``bench_large`` (the large runs), ``bench_once`` (start-up, one file, judge
--machine), ``bench_measure`` (timing one command), ``bench_tables`` and ``bench_goals``
(what is printed), ``bench_repo`` (the generated data).

Floors, on the same repository in the same sitting: ``read`` = PyYAML's C loader over every
label file (a whole python process); ``write`` = writing every label file, ``write+commit`` =
that and ``git add`` + ``git commit`` of them (both timed inside their process, the texts
already in memory; their ``cpu`` is the whole process's). Peers: pytrec_eval's whole process
(a fresh python that parses the qrels and the run and evaluates ndcg_cut.10, recall.10,
recall.100, map, recip_rank and P.10), and trec_eval 10.0 built from
``../shared/peers/trec_eval`` (copied to a temporary folder and ``make``-d; its column
appears when it builds; ``--trec-eval-src`` names another source).

The last table checks the goals of the performance issues (ratios at 10,000 questions, or at
the largest size measured when 10,000 is not; the loop and the peaks at 100,000). A shared or
loaded machine inflates wall clock: each ratio to the floors is also given in CPU seconds
(``cpu``), which a loaded machine distorts less (a command that waits on the disk, e.g. for
fsync, shows it in wall clock only); the load average is noted at the start and the end.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import bench_dedup
import bench_measure
import bench_tables
from bench_goals import goal_table
from bench_large import bench_large
from bench_measure import build_trec_eval
from bench_once import bench_once
from bench_sizes import bench_size
from bench_state import ROOT, Bench

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
    "loop",
    "help",
    "validate-file",
    "judge-machine",
    "dedup",
)
RUN_NAMES = ("S", "M", "L", "10M", "XL")
QUICK_SIZES = (60,)
QUICK_MACHINE_DOCS = 200


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--sizes", default="1000,10000", help="questions per repository (1000,10000)")
    p.add_argument("--runs", default="S,M,L", help="score runs: S, M, L, 10M, XL, or none")
    p.add_argument("--commands", default=",".join(COMMANDS), help=f"of {', '.join(COMMANDS)}")
    p.add_argument("--repeat", type=int, default=5, help="runs per figure (median; default 5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="smoke run: tiny sizes, one repeat")
    p.add_argument("--keep", type=Path, help="generate here and keep (reused when run again)")
    p.add_argument("--trec-eval-src", type=Path, default=TREC_EVAL_SRC)
    p.add_argument("--no-trec-eval", action="store_true", help="do not build trec_eval")
    p.add_argument("--timeout", type=int, default=3600, help="kill a command after N s")
    p.add_argument("--machine-docs", type=int, default=10_000, help="judge --machine's batch")
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


def entry_point() -> tuple[str | None, str]:
    """labelpool's console script and a note: the one ``pip`` installed beside this python,
    else the one on ``PATH``. A version manager's shim on ``PATH`` (pyenv's is a bash script
    that runs pyenv to pick the python) adds its own start-up to every command, which an
    installed labelpool does not have."""
    on_path = shutil.which("labelpool")
    beside = Path(sys.executable).parent / "labelpool"
    if beside.is_file() and os.access(beside, os.X_OK):
        if on_path is not None and Path(on_path).resolve() != beside.resolve():
            return str(beside), f"labelpool run as {beside} (not {on_path}, a wrapper)"
        return str(beside), f"labelpool run as {beside}"
    return on_path, f"labelpool run as {on_path}"


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
    machine_docs = args.machine_docs
    if args.quick:
        sizes, repeat, machine_docs = list(QUICK_SIZES), 1, QUICK_MACHINE_DOCS
    labelpool, where = entry_point()
    if labelpool is None:
        print("labelpool is not on PATH (pip install -e .)", file=sys.stderr)
        return 2
    work = args.keep or Path(tempfile.mkdtemp(prefix="labelpool-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    b = Bench(work.resolve(), max(1, repeat), args.seed, commands, runs, args.quick, labelpool)
    b.machine_docs = machine_docs
    b.notes += [compile_bytecode(), where]
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    load = bench_tables.load_average()
    try:
        if args.quick or args.no_trec_eval:
            b.trec_eval_note = "not built (--quick or --no-trec-eval)"
        else:
            b.trec_eval, b.trec_eval_note = build_trec_eval(args.trec_eval_src, b.work)
        for n in sizes:
            bench_size(b, n)
        bench_large(b, sizes)
        bench_once(b)
        if b.wants("dedup"):
            b.dedup = bench_dedup.run(b.work, b.seed, b.repeat, b.quick)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    b.notes.append(f"load average {load} at the start, {bench_tables.load_average()} at the end")
    print(bench_tables.header(started, b.repeat, b.seed, b.trec_eval_note, os.cpu_count()))
    print(bench_tables.tables(b.results, b.info, b.notes))
    if b.dedup is not None:
        print(bench_dedup.table(b.dedup))
    print(goal_table(b.results, sizes, bench_dedup.goals(b.dedup)))
    failed = [f"{name} at {size:,}" for (size, name), m in b.results.items() if not m.ok]
    if b.dedup is not None:
        failed += [name for name, (_, m) in b.dedup.steps.items() if not m.ok]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
