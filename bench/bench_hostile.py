"""Hostile inputs the benchmark times: what a bound must refuse fast, in little memory.

* ``import trec`` of a qrels file whose second line is a 50 MB document id: refused at the
  line bound (1 MiB, ``labelpool.textlines``) before the line is held whole. Issue 29 found
  130 s and 649 MB, then a 100 MB label file; the goal is under 5 s and 200 MiB.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bench_measure import Measurement, measure
from bench_repo import PYPROJECT

LONG_LINE = "import trec, a 50 MB qrels line (refused)"
LONG_LINE_MB = 50


def long_line(work: Path, lp: Callable[..., list[str]], repeat: int) -> Measurement:
    """The figure :data:`LONG_LINE`: ``import trec`` exits 1 naming line 2."""
    folder = work / "import-long-line"
    folder.mkdir(exist_ok=True)
    (folder / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (folder / "q.tsv").write_text("q1\tWhat?\n", encoding="utf-8")
    qrels = folder / "long.qrels"
    if not qrels.is_file():
        with qrels.open("wb") as handle:
            handle.write(b"q1 0 d1 1\nq1 0 ")
            for _ in range(LONG_LINE_MB):
                handle.write(b"d" * (1 << 20))
            handle.write(b" 1\n")
    cmd = lp("import", "trec", str(qrels), "--queries", "q.tsv")
    return measure(LONG_LINE, cmd, folder, repeat, expect=(1,))
