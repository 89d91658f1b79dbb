"""``bench/run.py --quick``: the benchmark script keeps working (a smoke run, not a timing).

The quick run generates a 60-question repository and a small "L" run, and a batch of 200
documents for ``judge --machine`` against a chat-completions server on loopback, measures every
command once and prints the figure tables and the goal table. Figures are not checked here (the
benchmarks hold the performance targets, not the tests); what is checked is that every
command ran to its expected exit, that every row has a time, a peak and its ratio to the
floors, and that every goal has a verdict.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

ROWS = {
    "read floor": None,
    "write floor": None,
    "write+commit floor": None,
    "score 60 x 100": "(read)",
    "score 60 x 100 (warm)": "(read)",
    "pytrec_eval 60 x 100": None,
    "compare bm25 dense": "(read)",
    "compare bm25 dense (warm)": "(read)",
    "validate": "(read)",
    "validate (warm)": "(read)",
    "validate --provenance": "(read)",
    "bias": "(read)",
    "bias (warm)": "(read)",
    "pool bm25 dense hybrid --depth 30": "(read + write+commit)",
    "pool bm25 dense hybrid --depth 30 (warm)": "(read + write+commit)",
    "merge (one judge)": "(read + write+commit)",
    "merge (one judge) (warm)": "(read + write+commit)",
    "merge (2 judges x 20 docs)": "(read + write+commit)",
    "diff base merged": "(read)",
    "diff base merged (warm)": "(read)",
    "import trec (10 per question)": "(read + write)",
    "loop: pool, one judge's verdicts committed, merge, compare (warm)": "(read + write+commit)",
    "score L 40 x 200": "(read)",
    "score L 40 x 200 tab-separated": "(read)",
    "agreement (2 judges x 20 docs)": None,
    "labelpool --help": None,
    "import trec, a 50 MB qrels line (refused)": None,
    "validate one file of the example (warm)": None,
    "judge --machine, 200 docs (50 ms server, 16 in flight)": None,
    "dedup floor, 1,335 passages (a question's batch)": None,
    "dedup within, 1,335 passages (a question's batch)": "(dedup floor)",
    "dedup floor, 5,000 passages (corpus-wide)": None,
    "dedup across, 5,000 passages (corpus-wide)": "(dedup floor)",
}
# measured when ../shared/data is beside the clone (the bench says so: its goals "not measured")
VASWANI_ROWS = {
    "dedup floor, Vaswani + 400 copies (corpus-wide)": None,
    "dedup across, Vaswani + 400 copies (corpus-wide)": "(dedup floor)",
}


def _cells(stdout: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        if line.startswith("| ") and not line.startswith(("| command", "| goal")):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def test_quick_bench_runs_every_command(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--keep", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = _cells(proc.stdout)
    measured = "dedup floor, Vaswani + 400 copies (corpus-wide)" in rows
    if not measured:
        assert re.search(r"dedup on Vaswani .*\| not measured \|", proc.stdout)
    wanted = {**ROWS, **(VASWANI_ROWS if measured else {})}
    for name, ratio in wanted.items():
        assert name in rows, f"no row {name!r} in:\n{proc.stdout}"
        seconds, cpu, peak, versus = rows[name][:4]
        assert re.fullmatch(r"\d+\.\d\d", seconds), (name, rows[name])
        assert re.fullmatch(r"\d+\.\d\d", cpu), (name, rows[name])
        assert re.fullmatch(r"[\d,]+", peak) and int(peak.replace(",", "")) > 0, (name, peak)
        if ratio is not None:
            pattern = r"\d+\.\d\dx " + re.escape(ratio) + r"; cpu \d+\.\d\dx"
            assert re.fullmatch(pattern, versus), (name, versus)
    assert "x pytrec_eval" in rows["score 60 x 100"][4]
    goals = proc.stdout.split("**Goals**", 1)[1]
    machine = rows["judge --machine, 200 docs (50 ms server, 16 in flight)"][3]
    assert re.fullmatch(r"\d+\.\d\dx \(wait\)", machine), machine
    assert rows["wait floor"][0] == "0.62"  # 200 x 50 ms / 16
    assert re.search(
        r"judge --machine 10,000 docs.*\| [\d.]+ s, [\d.]+x the wait floor \(0\.62 s\) "
        r"\(at 200 docs: goal taken as < 1\.92x the wait floor\) \|",
        goals,
    ), goals
    verdicts = re.findall(r"\| (yes|NO|not measured) \|$", goals, flags=re.MULTILINE)
    assert len(verdicts) == goals.count("\n| ") - 1 == 41, goals
    # issue 27: the loop is measured at the quick size and judged at 100,000 only
    assert re.search(r"the loop pool .*\| [\d.]+ s at 60 questions \| not measured \|", goals)
    assert re.search(r"labelpool --help <= 0\.15 s \| [\d.]+ s \(cpu [\d.]+ s\) \|", goals)
    # a grouped run's bound and the tab/space comparison are computed in the quick run too
    assert re.search(r"tab-separated run .*\| \d\.\d\dx the space-separated run \|", goals)
    assert re.search(r"grouped run: .*\| \d+ MiB \(bound \d+: labels \d+\) \|", goals)
    # the near-duplicate finder on the example: precision and recall measured and met
    assert re.search(
        r"dedup on the example, within .*\| precision 1\.000, recall 1\.000 \| yes", goals
    )
