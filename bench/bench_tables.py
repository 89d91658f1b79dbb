"""The figure tables ``bench/run.py`` prints: one per size, each command beside its floors,
its peers and 0.1.0's figure (the goals: ``bench_goals.py``).

Markdown tables, so that they can go into ``docs/benchmarks.md`` as printed. Results are keyed
by ``(size, name)``; size 0 holds the commands measured once (start-up, one file).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from bench_machine_judge import WAIT
from bench_measure import Measurement

Results = Mapping[tuple[int, str], Measurement]

READ, WRITE, COMMIT = "read floor", "write floor", "write+commit floor"
READ_JUDGED = "read floor (2 judges x 20 docs)"  # the agreement benchmark's repository
HELP = "labelpool --help"
ONE_FILE = "validate one file of the example (warm)"
LOOP = "loop: pool, one judge's verdicts committed, merge, compare (warm)"

# 0.1.0 on the same kind of machine (the performance issue's table), seconds
V010: dict[tuple[int, str], float] = {
    (1_000, "score 1,000 x 100 (S)"): 1.00,
    (10_000, "score 10,000 x 100 (M)"): 5.82,
    (10_000, "score L 6,980 x 1,000 tab-separated"): 22.7,
    (10_000, "compare bm25 dense"): 13.8,
    (10_000, "validate"): 2.4,
    (10_000, "validate (warm)"): 0.33,
    (10_000, "validate --provenance"): 6.2,
    (10_000, "bias"): 9.6,
    (10_000, "pool bm25 dense hybrid --depth 30"): 24.6,
    (10_000, "merge (one judge)"): 434.0,
    (10_000, "diff base merged"): 34.7,
    (10_000, "import trec (10 per question)"): 33.5,
    (0, "labelpool --help"): 0.11,
}

# which floors a command is set against
BASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("score", (READ,)),
    ("compare", (READ,)),
    ("validate", (READ,)),
    ("bias", (READ,)),
    ("diff", (READ,)),
    ("import", (READ, WRITE)),
    ("pool", (READ, COMMIT)),
    ("merge", (READ, COMMIT)),
    ("loop", (READ, COMMIT)),
    ("judge --machine", (WAIT,)),
)


def header(started: str, repeat: int, seed: int, trec_note: str, cpus: int | None) -> str:
    trec = f"; trec_eval: {trec_note}" if trec_note else ""
    return (
        f"labelpool bench, {started}: median of {repeat} run(s) each, seed {seed}, "
        f"{cpus} cores{trec}\n"
    )


def secs(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def mib(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def floor_sum(
    results: Results, size: int, names: tuple[str, ...], cpu: bool = False
) -> float | None:
    """The floors' seconds added up (``cpu``: their CPU seconds, whole processes)."""
    total = 0.0
    for name in names:
        m = results.get((size, name))
        value = None if m is None else m.cpu if cpu else m.seconds
        if value is None:
            return None
        total += value
    return total


def cpu_ratio(results: Results, size: int, m: Measurement, names: tuple[str, ...]) -> str:
    base = floor_sum(results, size, names, cpu=True)
    if base is None or m.cpu is None or base <= 0:
        return ""
    return f"; cpu {m.cpu / base:.2f}x"


def _bases(name: str) -> tuple[str, ...]:
    if name.endswith("floor") or name.startswith(("pytrec_eval", "trec_eval")):
        return ()
    if "baseline" in name:
        return ()
    return next((b for prefix, b in BASES if name.startswith(prefix)), ())


def _versus_floor(results: Results, size: int, m: Measurement) -> str:
    names = _bases(m.name)
    base = floor_sum(results, size, names)
    if not names or base is None or m.seconds is None or base <= 0:
        return ""
    what = " + ".join(n.removesuffix(" floor") for n in names)
    return f"{m.seconds / base:.2f}x ({what}){cpu_ratio(results, size, m, names)}"


def _peer_label(name: str) -> str | None:
    if name.startswith("score ") and "baseline" not in name and not name.endswith("(warm)"):
        return name.removeprefix("score ").removesuffix(" tab-separated")
    return None


def _versus_peers(results: Results, size: int, m: Measurement) -> str:
    label = _peer_label(m.name)
    if label is None or m.seconds is None:
        return ""
    parts = []
    for peer in ("pytrec_eval", "trec_eval"):
        p = results.get((size, f"{peer} {label}"))
        if p is not None and p.seconds:
            parts.append(f"{m.seconds / p.seconds:.2f}x {peer}")
    return ", ".join(parts)


def tables(results: Results, info: Mapping[int, str], notes: list[str]) -> str:
    out = []
    for size in sorted({s for s, _ in results}):
        title = (
            "start-up, one file, judge --machine"
            if size == 0
            else info.get(size, f"{size:,} questions")
        )
        out += [
            f"**{title}**\n",
            "| command | seconds | cpu s | peak MiB | vs floors | vs peers | 0.1.0 |",
            "|---|---|---|---|---|---|---|",
        ]
        for (s, name), m in results.items():
            if s != size:
                continue
            shown = secs(m.seconds) if m.ok else f"failed: {m.note}"
            old = V010.get((s, name))
            out.append(
                f"| {name} | {shown} | {secs(m.cpu)} | {mib(m.peak_mib)} | "
                f"{_versus_floor(results, s, m)} | {_versus_peers(results, s, m)} | "
                f"{secs(old) if old is not None else ''} |"
            )
        out.append("")
    out += [f"* {n}" for n in notes]
    return "\n".join(out) + "\n"


def load_average() -> str:
    """The machine's load (1, 5 and 15 minutes), as the figures are read beside it."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"
