"""The large runs of ``score``: ``L`` (6,980 x 1,000, about 4.8 M distinct doc ids, written
with one space and again with one tab between fields), ``10M`` (10,000 x 1,000: ten million
lines, issue 27's memory figure) and ``XL`` (69,800 x 1,000, about 2.95 GB), each against the
smallest repository measured that has as many questions, beside the peers (``L``, ``XL``)
and, for ``L``, a one-question run on the same labels (what the labels alone cost).
"""

from __future__ import annotations

import sys
from dataclasses import replace

import bench_repo
from bench_measure import LABELPOOL_MEASURES, measure
from bench_repo import LARGE, RunShape
from bench_sizes import peers
from bench_state import Bench, large_run, repository

QUICK_L = RunShape("L", 40, 200, 6_000)
ORDER = ("L", "10M", "XL")


def bench_large(b: Bench, sizes: list[int]) -> None:
    for name in ORDER:
        if name not in b.runs or not b.wants("score"):
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
        extra = {
            "max_question_mib": info["max_question_bytes"] / 2**20,
            "lines": float(info["lines"]),
        }
        b.put(n, replace(m, extra=extra))
        b.notes.append(
            f"run {name}: {info['lines']:,} lines, {info['bytes'] / 1e6:,.0f} MB, "
            f"{info['distinct']:,} distinct doc ids, largest question "
            f"{info['max_question_bytes'] / 1e3:,.0f} kB"
        )
        if name == "10M":
            continue  # its figure is the peak; the peers are measured on L and XL
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
