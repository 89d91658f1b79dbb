"""``labelpool report``'s speed and size against the goals of issue 16 (``docs/benchmarks.md``,
"The HTML report").

    python bench/report.py                 # the example, CAsT 2021 (when ../shared/data has
                                           # it), 1,000 questions x 2 runs at k = 100
    python bench/report.py --repeat 3

Each case runs ``python -m labelpool report ... -o FILE`` in a fresh process (imports
included) and reports the median wall time and the file's size, each beside its target as a
ratio (below 1: the goal is met). The 1,000-question repository is ``bench/bench_repo.py``'s
(labels pooled from bm25 and dense at depth 20, runs 1,000 x 100, seed 0), so at k = 100 most
of each top 100 is unjudged.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path[:0] = [str(BENCH), str(ROOT / "tests")]

from bench_repo import make_repo  # noqa: E402

from report_scenario import CAST_RUNS, cast_repo, example_repo  # noqa: E402

CAST = ROOT.parent / "shared" / "data" / "trec-cast-2021"
MB = 1_000_000


@dataclass(frozen=True)
class Case:
    name: str
    repo: Path
    args: tuple[str, ...]
    seconds: float | None  # target wall time (None: no time goal)
    size: float | None  # target size in bytes (None: no size goal)


def timed(case: Case, out: Path, repeat: int) -> tuple[float, int]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "labelpool", "report", *case.args, "-o", str(out)],
            cwd=case.repo,
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{case.name}: exit {done.returncode}\n{done.stderr}")
    return statistics.median(times), out.stat().st_size


def ratio(value: float, target: float | None) -> str:
    return "-" if target is None else f"{value / target:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lp-report-bench-") as tmp:
        where = Path(tmp)
        cases = [
            Case(
                "example (58 questions, 2 runs)",
                example_repo(where),
                ("runs/bm25.trec", "runs/dense.trec"),
                3.0,
                None,
            ),
        ]
        if CAST.is_dir():
            repo = cast_repo(where, CAST)
            cases.append(
                Case(
                    "CAsT 2021 (158 questions, 5 runs)",
                    repo,
                    tuple(f"runs/{n}.run" for n in CAST_RUNS),
                    None,
                    2 * MB,
                )
            )
        big = make_repo(where / "q1000", 1000, 0)
        cases.append(
            Case(
                "1,000 questions, 2 runs, k = 100",
                big.root,
                ("runs/bm25.trec", "runs/dense.trec", "--k", "100"),
                5.0,
                5 * MB,
            )
        )
        print("| case | wall (median) | / target | size | / target |")
        print("|---|---|---|---|---|")
        for case in cases:
            seconds, size = timed(case, where / "report.html", args.repeat)
            print(
                f"| {case.name} | {seconds:.2f} s | {ratio(seconds, case.seconds)} "
                f"| {size / MB:.2f} MB | {ratio(size, case.size)} |"
            )


if __name__ == "__main__":
    main()
