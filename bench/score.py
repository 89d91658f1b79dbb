"""Benchmark ``labelpool score`` against pytrec_eval-terrier, ir_measures, ranx and trec_eval.

Usage: ``python bench/score.py [--sizes small,medium,large] [--keep DIR] [--shuffled]``

For each size it generates, in a temp folder, a run file and a matching label repository
(one YAML label file per question, plus the same judgments as TREC qrels for the peers), then
times each tool as a whole process (start-up, parsing, scoring) on the same measures
(nDCG@10, R@10, R@100, AP, RR), and prints a side-by-side table with ratios to labelpool
(cold) and peak memory (``ru_maxrss`` of the child, from ``os.wait4``).

``labelpool`` runs twice: cold (an empty ``$LABELPOOL_CACHE_DIR``, as in a fresh CI clone)
and warm (the parsed-label and judgment caches filled); with ``--shuffled`` also cold on a
copy of the run with its lines shuffled (generated runs are written in rank order, as
retrieval systems write them, which lets labelpool skip the sort; shuffled lines force it).

Peers not installed are skipped, saying so; trec_eval runs only when a binary is on PATH.
labelpool computes more than the peers in the same time: raw, judged-only and optimistic for
every measure, and the unjudged rate.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SIZES = {
    "small": (1_000, 100),
    "medium": (10_000, 100),
    "large": (7_000, 1_000),
}
MEASURES_LP = "nDCG@10 R@10 R@100 AP RR"
MEASURES_TE = ["ndcg_cut.10", "recall.10", "recall.100", "map", "recip_rank"]
MEASURES_PY = {"ndcg_cut_10", "recall_10", "recall_100", "map", "recip_rank"}
PYPROJECT = '[project]\nname = "bench"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n'


@dataclass(frozen=True)
class Timing:
    tool: str
    seconds: float | None
    peak_mib: float | None
    note: str = ""


def generate(folder: Path, n_questions: int, depth: int, seed: int = 0) -> tuple[Path, Path]:
    """A run (``runs/system.trec``), label files and ``qrels.txt`` with the same judgments."""
    rng = np.random.default_rng(seed)
    (folder / "labels").mkdir(parents=True)
    (folder / "runs").mkdir()
    (folder / "pyproject.toml").write_text(PYPROJECT)
    n_docs = 200_000
    run_lines: list[str] = []
    qrels_lines: list[str] = []
    with (folder / "runs" / "system.trec").open("w") as run:
        for q in range(n_questions):
            qid = f"q{q:05d}"
            docs = rng.choice(n_docs, depth, replace=False)
            scores = np.round(rng.random(depth) * 50, 2)  # two decimals: some ties
            # written in rank order, as retrieval systems write runs (trec order: score
            # descending, ties by doc id descending)
            pairs = sorted(
                zip(scores.tolist(), (f"D{d}" for d in docs.tolist()), strict=True), reverse=True
            )
            scores = np.array([p[0] for p in pairs])
            names = [p[1] for p in pairs]
            run_lines = [
                f"{qid} Q0 {d} {i + 1} {s} system\n"
                for i, (d, s) in enumerate(zip(names, scores.tolist(), strict=True))
            ]
            run.write("".join(run_lines))
            # judged: the run's top 20 (by score; a pool of depth 20) plus 20 documents it did
            # not return (other systems' pools); about 30% relevant
            judged_docs = names[:20]
            judged_docs += [f"D{d}" for d in rng.choice(n_docs, 20, replace=False).tolist()]
            judged_docs = sorted(set(judged_docs))
            grades = rng.choice([0, 0, 0, 0, 0, 0, 0, 1, 2, 3], len(judged_docs))
            if q % 10 == 0:
                grades[:] = 0  # some questions without a relevant document
            relevant = [d for d, g in zip(judged_docs, grades, strict=True) if g > 0]
            graded = {d: int(g) for d, g in zip(judged_docs, grades, strict=True) if g > 1}
            qrels_lines += [
                f"{qid} 0 {d} {int(g)}\n" for d, g in zip(judged_docs, grades, strict=True)
            ]
            text = [f"id: {qid}\n", f"question: Generated question {q}\n"]
            if relevant:
                text.append("relevant_doc_ids:\n" + "".join(f"  - {d}\n" for d in relevant))
            else:
                text.append("relevant_doc_ids: []\n")
            text.append("judged_ids:\n" + "".join(f"  - {d}\n" for d in judged_docs))
            if graded:
                text.append("grades:\n" + "".join(f"  {d}: {g}\n" for d, g in graded.items()))
            text.append("pool:\n  - system: system\n    k: 20\n    date: '2026-06-02'\n")
            (folder / "labels" / f"{qid}.yaml").write_text("".join(text))
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(qrels_lines))
    return folder / "runs" / "system.trec", qrels


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS MiB of the child, stderr tail) of one process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, **(env or {})}
        )
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip().splitlines()[-1:]
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"exited {code}: {' '.join(tail)}")
    return elapsed, usage.ru_maxrss / 1024, " ".join(tail)


PYTREC = """
import sys, pytrec_eval
qrels = {}
for line in open(sys.argv[1]):
    q, _, d, g = line.split()
    qrels.setdefault(q, {})[d] = int(g)
run = {}
for line in open(sys.argv[2]):
    q, _, d, _, s, _ = line.split()
    run.setdefault(q, {})[d] = float(s)
res = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)
names = sorted(next(iter(res.values())))
print({n: sum(v[n] for v in res.values()) / len(res) for n in names})
""".replace("MEASURES", repr(MEASURES_PY))

IR_MEASURES = """
import sys, ir_measures
from ir_measures import nDCG, R, AP, RR
qrels = ir_measures.read_trec_qrels(sys.argv[1])
run = ir_measures.read_trec_run(sys.argv[2])
print(ir_measures.calc_aggregate([nDCG@10, R@10, R@100, AP, RR], qrels, run))
"""

RANX = """
import sys
from ranx import Qrels, Run, evaluate
qrels = Qrels.from_file(sys.argv[1], kind="trec")
run = Run.from_file(sys.argv[2], kind="trec")
print(evaluate(qrels, run, ["ndcg@10", "recall@10", "recall@100", "map", "mrr"]))
"""


def installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


SHUFFLE = """
import random, sys
lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
random.Random(1).shuffle(lines)
open(sys.argv[2], "wb").write(b"".join(lines))
"""


def shuffled_copy(run: Path) -> Path:
    """The same run with its lines in random order (labelpool must then sort every row).

    Shuffled in a child process, so that this process stays small: a child's peak memory
    (``ru_maxrss``) would otherwise start from its parent's size.
    """
    out = run.with_name("shuffled.trec")
    subprocess.run([sys.executable, "-c", SHUFFLE, str(run), str(out)], check=True)
    return out


def bench_size(folder: Path, run: Path, qrels: Path, shuffled: bool) -> list[Timing]:
    out: list[Timing] = []
    labelpool = shutil.which("labelpool") or "labelpool"
    lp_cmd = [labelpool, "score", str(run), "-m", MEASURES_LP, "--format", "json"]
    lp_cmd += ["--repo", str(folder)]
    # cold: an empty cache folder (labelpool's caches live in $LABELPOOL_CACHE_DIR)
    cold = {"LABELPOOL_CACHE_DIR": str(folder / "cache-cold")}
    secs, mib, _ = timed(lp_cmd, folder, cold)
    out.append(Timing("labelpool (cold)", secs, mib, "empty cache"))
    secs, mib, _ = timed(lp_cmd, folder, cold)
    out.append(Timing("labelpool (warm)", secs, mib, "label and judgment caches filled"))
    if shuffled:
        mixed = shuffled_copy(run)
        cmd = [labelpool, "score", str(mixed), "-m", MEASURES_LP, "--format", "json"]
        fresh = {"LABELPOOL_CACHE_DIR": str(folder / "cache-shuffled")}
        secs, mib, _ = timed([*cmd, "--repo", str(folder)], folder, fresh)
        out.append(Timing("labelpool (cold)", secs, mib, "run lines shuffled: full sort"))
        mixed.unlink()
    py = sys.executable
    peers = [
        ("pytrec_eval", "pytrec_eval", [py, "-c", PYTREC, str(qrels), str(run)]),
        ("ir_measures", "ir_measures", [py, "-c", IR_MEASURES, str(qrels), str(run)]),
        ("ranx", "ranx", [py, "-c", RANX, str(qrels), str(run)]),
    ]
    for name, module, cmd in peers:
        if not installed(module):
            out.append(Timing(name, None, None, f"skipped: {module} is not installed"))
            continue
        try:
            secs, mib, _ = timed(cmd, folder)
            out.append(Timing(name, secs, mib))
        except RuntimeError as exc:
            out.append(Timing(name, None, None, f"failed: {exc}"))
    trec_eval = shutil.which("trec_eval")
    if trec_eval:
        cmd = [trec_eval, *(f"-m{m}" for m in MEASURES_TE), str(qrels), str(run)]
        secs, mib, _ = timed(cmd, folder)
        out.append(Timing("trec_eval", secs, mib))
    else:
        out.append(Timing("trec_eval", None, None, "skipped: no trec_eval binary on PATH"))
    return out


def table(size: str, shape: tuple[int, int], mbytes: float, rows: list[Timing]) -> str:
    base = rows[0].seconds or 1.0
    lines = [
        f"\n{size}: {shape[0]:,} questions x {shape[1]:,} documents "
        f"({shape[0] * shape[1]:,} run lines, {mbytes:.0f} MB)",
        f"{'tool':<18} {'seconds':>9} {'x labelpool cold':>17} {'peak MiB':>9}  note",
    ]
    for r in rows:
        secs = f"{r.seconds:9.2f}" if r.seconds is not None else f"{'-':>9}"
        ratio = f"{r.seconds / base:17.2f}" if r.seconds is not None else f"{'-':>17}"
        mib = f"{r.peak_mib:9.0f}" if r.peak_mib is not None else f"{'-':>9}"
        lines.append(f"{r.tool:<18} {secs} {ratio} {mib}  {r.note}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    parser.add_argument(
        "--shuffled", action="store_true", help="also time a copy of the run with shuffled lines"
    )
    args = parser.parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    for s in sizes:
        if s not in SIZES:
            parser.error(f"unknown size {s!r}; known: {', '.join(SIZES)}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="labelpool-bench-") as tmp:
        base = args.keep or Path(tmp)
        for size in sizes:
            folder = base / size
            if folder.exists():
                shutil.rmtree(folder)
            t0 = time.perf_counter()
            run, qrels = generate(folder, *SIZES[size])
            print(f"[{size}] generated in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            rows = bench_size(folder, run, qrels, args.shuffled)
            print(table(size, SIZES[size], run.stat().st_size / 1e6, rows), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
