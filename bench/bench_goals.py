"""The tables ``bench/run.py`` prints: figures per size, then the performance goals, met or not.

Both are markdown tables, so that they can go into ``docs/benchmarks.md`` as printed. Results
are keyed by ``(size, name)``; size 0 holds the commands measured once (start-up, one file).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bench_hostile import LONG_LINE
from bench_measure import Measurement

Results = Mapping[tuple[int, str], Measurement]

READ, WRITE, COMMIT = "read floor", "write floor", "write+commit floor"
READ_JUDGED = "read floor (2 judges x 20 docs)"  # the agreement benchmark's repository

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
)


def header(started: str, repeat: int, seed: int, trec_note: str, cpus: int | None) -> str:
    trec = f"; trec_eval: {trec_note}" if trec_note else ""
    return (
        f"labelpool bench, {started}: median of {repeat} run(s) each, seed {seed}, "
        f"{cpus} cores{trec}\n"
    )


def _secs(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def _mib(x: float | None) -> str:
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


def _cpu_ratio(results: Results, size: int, m: Measurement, names: tuple[str, ...]) -> str:
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
    return f"{m.seconds / base:.2f}x ({what}){_cpu_ratio(results, size, m, names)}"


def _peer_label(name: str) -> str | None:
    if name.startswith("score ") and "baseline" not in name:
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
        title = "start-up and one file" if size == 0 else info.get(size, f"{size:,} questions")
        out += [
            f"**{title}**\n",
            "| command | seconds | cpu s | peak MiB | vs floors | vs peers | 0.1.0 |",
            "|---|---|---|---|---|---|---|",
        ]
        for (s, name), m in results.items():
            if s != size:
                continue
            shown = _secs(m.seconds) if m.ok else f"failed: {m.note}"
            old = V010.get((s, name))
            out.append(
                f"| {name} | {shown} | {_secs(m.cpu)} | {_mib(m.peak_mib)} | "
                f"{_versus_floor(results, s, m)} | {_versus_peers(results, s, m)} | "
                f"{_secs(old) if old is not None else ''} |"
            )
        out.append("")
    out += [f"* {n}" for n in notes]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- goals


@dataclass(frozen=True)
class Goal:
    text: str
    measured: str
    met: str  # "yes", "NO", "not measured"


def _pick(results: Results, sizes: list[int], want: int) -> int | None:
    """``want`` when measured, else the largest size measured (goals are stated at 10,000)."""
    measured = sorted({s for s, _ in results if s > 0})
    if want in measured:
        return want
    return measured[-1] if measured else None


def _at(size: int, want: int) -> str:
    return "" if size == want else f" (at {size:,})"


def _ratio_goal(
    results: Results,
    size: int | None,
    want: int,
    name: str,
    limit: float,
    bases: tuple[str, ...],
    text: str,
) -> Goal:
    if size is None:
        return Goal(text, "", "not measured")
    m = results.get((size, name))
    base = floor_sum(results, size, bases)
    if m is None:
        return Goal(text, "", "not measured")
    if m.seconds is None:
        return Goal(text, f"failed: {m.note}", "NO")
    if base is None:
        return Goal(text, f"{m.seconds:.2f} s; floor not measured", "not measured")
    ratio = m.seconds / base
    what = " + ".join(b.removesuffix(" floor") for b in bases)
    met = "yes" if ratio <= limit else "NO"
    cpu = _cpu_ratio(results, size, m, bases)
    return Goal(text, f"{ratio:.2f}x ({what}){cpu}{_at(size, want)}", met)


def _find(results: Results, pred: Callable[[int, str], bool]) -> tuple[int, Measurement] | None:
    for (s, name), m in results.items():
        if pred(s, name):
            return s, m
    return None


def _score_vs_peer(results: Results, n: int, run: str, peer: str, text: str) -> Goal:
    hit = _find(results, lambda s, name: s == n and name == f"score {run}")
    other = results.get((n, f"{peer} {run}"))
    if hit is None or other is None:
        return Goal(text, "", "not measured")
    _, m = hit
    if m.seconds is None or other.seconds is None:
        return Goal(text, f"failed: {m.note or other.note}", "NO")
    ratio = m.seconds / other.seconds
    return Goal(
        text,
        f"{ratio:.2f}x {peer} ({m.seconds:.2f} s / {other.seconds:.2f} s)",
        ("yes" if ratio < 1 else "NO"),
    )


def _large_goals(results: Results) -> list[Goal]:
    goals = []
    hit = _find(results, lambda s, name: name.startswith("score L ") and "tab" not in name)
    text = "score L cold no slower than trec_eval, peak at or below trec_eval's"
    if hit is None:
        return [Goal(text, "", "not measured")]
    size, m = hit
    label = m.name.removeprefix("score ")
    te = results.get((size, f"trec_eval {label}"))
    if te is None or te.seconds is None or m.seconds is None or te.peak_mib is None:
        goals.append(
            Goal(
                text,
                "trec_eval not measured" if te is None else "failed",
                ("not measured" if te is None else "NO"),
            )
        )
    else:
        ok = m.seconds <= te.seconds and (m.peak_mib or 0) <= te.peak_mib
        goals.append(
            Goal(
                text,
                f"{m.seconds / te.seconds:.2f}x time, {(m.peak_mib or 0) / te.peak_mib:.2f}x peak "
                f"({_mib(m.peak_mib)} / {_mib(te.peak_mib)} MiB)",
                "yes" if ok else "NO",
            )
        )
    tab = results.get((size, f"{m.name} tab-separated"))
    text = "tab-separated run read at the single-space speed (within 10%)"
    if tab is None or tab.seconds is None or m.seconds is None:
        goals.append(Goal(text, "", "not measured" if tab is None else "NO"))
    else:
        r = tab.seconds / m.seconds
        goals.append(Goal(text, f"{r:.2f}x the space-separated run", "yes" if r <= 1.10 else "NO"))
    base = results.get((size, "score one question (L baseline)"))
    text = "grouped run: peak <= labels + 2 x largest question + 256 MiB"
    if base is None or base.peak_mib is None or m.peak_mib is None:
        goals.append(Goal(text, "", "not measured"))
    else:
        largest = float(m.extra.get("max_question_mib", 0.0))
        bound = base.peak_mib + 2 * largest + 256
        goals.append(
            Goal(
                text,
                f"{_mib(m.peak_mib)} MiB (bound {_mib(bound)}: labels {_mib(base.peak_mib)})",
                "yes" if m.peak_mib <= bound else "NO",
            )
        )
    return goals


def _absolute(results: Results, name: str, limit: float, text: str, size: int = 0) -> Goal:
    m = results.get((size, name))
    if m is None:
        return Goal(text, "", "not measured")
    if m.seconds is None:
        return Goal(text, f"failed: {m.note}", "NO")
    return Goal(text, f"{m.seconds:.3f} s", "yes" if m.seconds <= limit else "NO")


def goals(results: Results, sizes: list[int]) -> list[Goal]:
    out = [
        _score_vs_peer(
            results,
            1_000,
            "1,000 x 100 (S)",
            "pytrec_eval",
            "score S (1,000 x 100) cold faster than pytrec_eval",
        ),
        _score_vs_peer(
            results,
            10_000,
            "10,000 x 100 (M)",
            "pytrec_eval",
            "score M (10,000 x 100) cold faster than pytrec_eval",
        ),
        *_large_goals(results),
    ]
    n = _pick(results, sizes, 10_000)
    out.append(_ratio_goal(results, n, 10_000, "validate", 2, (READ,), "validate cold <= 2x read"))
    out.append(_absolute(results, "validate (warm)", 0.3, "validate warm <= 0.3 s", n or 0))
    score = next(
        (k[1] for k in results if k[0] == n and k[1].startswith("score ") and "x 100" in k[1]),
        "score",
    )
    out += [
        _ratio_goal(results, n, 10_000, score, 2, (READ,), "score cold <= 2x read"),
        _ratio_goal(
            results,
            n,
            10_000,
            "compare bm25 dense",
            3,
            (READ,),
            "compare of two runs cold <= 3x read",
        ),
        _ratio_goal(
            results,
            n,
            10_000,
            "pool bm25 dense hybrid --depth 30",
            2,
            (READ, COMMIT),
            "pool <= 2x (read + write+commit)",
        ),
        _ratio_goal(
            results,
            n,
            10_000,
            "merge (one judge)",
            3,
            (READ, COMMIT),
            "merge of one judge's verdicts <= 3x (read + write+commit)",
        ),
    ]
    out.append(
        _ratio_goal(
            results,
            n,
            10_000,
            "merge (2 judges x 20 docs)",
            3,
            (READ, COMMIT),
            "merge of two judges' verdicts (20 documents each) <= 3x (read + write+commit)",
        )
    )
    merge = results.get((n or 0, "merge (one judge)"))
    text = "merge peak <= 400 MiB"
    if merge is None or merge.peak_mib is None:
        out.append(Goal(text, "", "not measured" if merge is None else "NO"))
    else:
        out.append(
            Goal(
                text,
                f"{_mib(merge.peak_mib)} MiB{_at(n or 0, 10_000)}",
                "yes" if merge.peak_mib <= 400 else "NO",
            )
        )
    out += [
        _ratio_goal(results, n, 10_000, "diff base merged", 3, (READ,), "diff REV REV2 <= 3x read"),
        _ratio_goal(
            results,
            n,
            10_000,
            "import trec (10 per question)",
            3,
            (READ, WRITE),
            "import trec <= 3x (read + write)",
        ),
        _ratio_goal(
            results,
            n,
            10_000,
            "validate --provenance",
            3,
            (READ,),
            "validate --provenance <= 3x read",
        ),
        _ratio_goal(results, n, 10_000, "bias", 3, (READ,), "bias <= 3x read"),
        _ratio_goal(
            results,
            n,
            10_000,
            "agreement (2 judges x 20 docs)",
            3,
            (READ_JUDGED,),
            "agreement, 2 judges on 20 documents each <= 3x read",
        ),
        _complete(results),
        _absolute(results, "labelpool --help", 0.15, "labelpool --help <= 0.15 s"),
        _long_line(results),
        _absolute(
            results,
            "validate one file of the example (warm)",
            0.25,
            "validate of one file, warm, <= 0.25 s",
        ),
        _no_worse(results),
    ]
    return out


def _long_line(results: Results) -> Goal:
    text = "import of a 50 MB qrels line refused <= 5 s, peak <= 200 MiB"
    m = results.get((0, LONG_LINE))
    if m is None:
        return Goal(text, "", "not measured")
    if m.seconds is None or m.peak_mib is None:
        return Goal(text, f"failed: {m.note}", "NO")
    met = m.seconds <= 5 and m.peak_mib <= 200
    return Goal(text, f"{m.seconds:.2f} s, {_mib(m.peak_mib)} MiB", "yes" if met else "NO")


def _complete(results: Results) -> Goal:
    text = "at 100,000 questions every command completes"
    at = {name: m for (s, name), m in results.items() if s == 100_000}
    if not at:
        return Goal(text, "", "not measured")
    failed = [name for name, m in at.items() if not m.ok]
    if failed:
        return Goal(text, "failed: " + ", ".join(failed), "NO")
    return Goal(text, f"{len(at)} commands and floors completed", "yes")


def _no_worse(results: Results) -> Goal:
    text = "no figure worse than 0.1.0's"
    worse, seen = [], 0
    for key, old in V010.items():
        m = results.get(key)
        if m is None or m.seconds is None:
            continue
        seen += 1
        if m.seconds > old:
            worse.append(f"{key[1]} {m.seconds:.2f} s > {old:.2f} s")
    if not seen:
        return Goal(text, "", "not measured")
    return Goal(text, "; ".join(worse) or f"{seen} figures compared", "NO" if worse else "yes")


def goal_table(results: Results, sizes: list[int], extra: list[Goal] | None = None) -> str:
    """The goals of :func:`goals`, then ``extra`` (the near-duplicate finder's)."""
    rows = ["**Goals**\n", "| goal | measured | met |", "|---|---|---|"]
    rows += [
        f"| {g.text} | {g.measured} | {g.met} |" for g in [*goals(results, sizes), *(extra or [])]
    ]
    return "\n".join(rows) + "\n"
