"""The figures measured once, not per repository size (size 0 in the results): start-up
(``labelpool --help``), ``validate`` of one file of the example (the pre-commit path, warm),
``import`` of a 50 MB qrels line (refused) and ``judge --machine`` against a chat server.
"""

from __future__ import annotations

from dataclasses import replace

import bench_hostile
import bench_machine_judge
from bench_measure import measure, measure_warm
from bench_state import ROOT, Bench
from bench_tables import HELP, ONE_FILE


def bench_once(b: Bench) -> None:
    if b.wants("import"):
        b.put(0, bench_hostile.long_line(b.work, b.lp, b.repeat))
    if b.wants("help"):
        b.put(0, measure(HELP, b.lp("--help"), ROOT, b.repeat))
    if b.wants("validate-file"):
        example = ROOT / "labels" / "cancel-order.yaml"
        if example.is_file():
            cmd = b.lp("validate", str(example.relative_to(ROOT)))
            b.put(0, measure_warm(ONE_FILE, cmd, ROOT, b.repeat))
    if b.wants("judge-machine"):
        docs = b.machine_docs
        rows, note = bench_machine_judge.measure_judge(b.work, docs, b.seed, b.repeat, b.lp())
        for m in rows:
            b.put(0, replace(m, extra={"docs": float(docs)}))
        b.notes.append(note)
