"""``compare`` (and ``check``) as text for a person: the answer first, fitted to a width.

A header line (the labels' commit, k, alpha, seed), and a second when some run and the labels
differ in their questions (:func:`labelpool.render.coverage.line`). Per pair of systems, one
table with a row per measure (baseline, challenger, delta, both unjudged rates, p, reading,
verdict), then one verdict line (the first measure's verdict with
its reason, counting the measures that agree: ``uninterpretable on 5 of 6 measures``) and one
next-step line, a command that runs as printed. ``verbose`` adds per measure the 95% CI, the
minimum detectable effect, the delta range, its method and whether the sign can still flip
over it, the per-question wins/ties/losses, and the most changed questions. Where the noise
floor made other counts than the defaults, the ``p:`` line names the draws and the verbose
CI's legend the resamples.

Every name from a file goes through :mod:`labelpool.render.sanitize` (table cells are rich
``Text``, never markup: ``[exact]`` and ``[monte-carlo]`` print as they are).
"""

from __future__ import annotations

import math
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from labelpool.render import coverage, disputes, machines, sanitize
from labelpool.render.compare.formats import draws_note, resamples_note
from labelpool.render.fields import dirty_note
from labelpool.render.layout import table, width_of, wrap
from labelpool.render.questions import question_notes
from labelpool.words import counted
from labelpool.workflows.evaluate.compare import CompareResult, Comparison

NAME_WIDTH = 10  # a longer system name is "baseline" / "challenger" in the table's header

__all__ = ["NextSteps", "render", "verdict_line", "wrap"]


@dataclass(frozen=True)
class NextSteps:
    """Commands the text may suggest, as they run (shell-quoted) from where compare ran."""

    verbose: str | None = None  # the same comparison with --verbose
    gates: Mapping[str, str] = field(default_factory=dict)  # challenger -> its CI gate (check)


def _pct(x: float) -> str:
    return f"{x:.0%}" if x >= 0.01 or x == 0 else f"{x:.1%}"


def _p(p: float) -> str:
    return f"{p:.2g}" if p >= 0.001 else f"{p:.0e}"


def _ci(c: Comparison) -> str:
    lo, hi = c.ci95
    return "n/a" if math.isnan(lo) else f"[{lo:+.3f}, {hi:+.3f}]"


def _mde(c: Comparison) -> str:
    return "n/a" if math.isnan(c.mde) else f"{c.mde:.3f}"


def _pairs(result: CompareResult) -> list[list[Comparison]]:
    pairs: dict[tuple[str, str], list[Comparison]] = {}
    for c in result.comparisons:
        pairs.setdefault((c.baseline, c.challenger), []).append(c)
    return list(pairs.values())


def _reason(c: Comparison) -> str:
    if c.robust_sign:
        return c.verdict.split("; ")[-1]
    if c.verdict_code in ("uninterpretable", "relabel"):
        return c.reading_why
    lo, hi = c.ci95
    ci = "" if math.isnan(lo) else f", 95% CI [{lo:+.3f}, {hi:+.3f}]"
    return f"{c.delta:+.3f}, p = {_p(c.p_adjusted)}{ci}"


def verdict_line(pair: Sequence[Comparison]) -> str:
    """The first measure's verdict and reason, and how many measures say what."""
    first = pair[0]
    counts = Counter(c.verdict_code for c in pair)
    head = (
        f"{first.verdict_code} on {counts[first.verdict_code]} of {counted(len(pair), 'measure')}"
    )
    others = [f"{code} on {n}" for code, n in counts.items() if code != first.verdict_code]
    line = f"verdict: {head} ({first.measure}: {_reason(first)})"
    if others:
        line += "; " + ", ".join(others)
    if first.verdict_code in ("uninterpretable", "relabel"):
        cost = first.judge_cost
        line += (
            f"; {counted(cost.documents, 'document')} over "
            f"{counted(cost.questions, 'question')} to judge"
        )
        if first.adjudicate_command is not None and cost.disputed:
            line += f", {cost.disputed} of them open disputes"
    return line


def next_lines(pair: Sequence[Comparison], steps: NextSteps, verbose: bool) -> list[str]:
    """The suggested commands: the batch to judge where the first measure cannot be read
    (``pool --adjudicate`` first where open disputes are among its documents, and ``pool
    --depth`` where others are); else the next view."""
    first = pair[0]
    cost = first.judge_cost
    if first.verdict_code in ("uninterpretable", "relabel") and cost.documents:
        if first.adjudicate_command is None:
            return [f"next: {first.pool_command}"]
        out = [f"next: {first.adjudicate_command}"]
        return out + ([f"next: {first.pool_command}"] if cost.documents > cost.disputed else [])
    command = steps.gates.get(first.challenger) if verbose else steps.verbose
    return [f"next: {command}"] if command else []


def command_lines(command: str, width: int | None) -> list[str]:
    """A suggested command (``next: labelpool ...``, shell-quoted words) on lines that fit
    ``width``: broken between words only (an option and its value together), each broken
    line ending in `` \\`` and the next indented, so that the lines pasted into a shell still
    run as one command. A word longer than the width stays whole."""
    text = sanitize.text(command)
    if width is None or len(text) <= width:
        return [text]
    head, _, rest = command.partition(" ")  # "next:"
    words = [shlex.quote(w) for w in shlex.split(rest)]
    units = [head]  # an option stays on the line of its value
    i = 0
    while i < len(words):
        takes_value = words[i].startswith("-") and i + 1 < len(words)
        if takes_value and not words[i + 1].startswith("-"):
            units.append(f"{words[i]} {words[i + 1]}")
            i += 2
        else:
            units.append(words[i])
            i += 1
    lines: list[str] = []
    line = ""
    for word in (sanitize.text(u) for u in units):
        indent = "  " if lines else ""
        candidate = f"{line} {word}" if line else f"{indent}{word}"
        if line and len(candidate) + 2 > width:  # room for " \"
            lines.append(f"{line} \\")
            line = f"  {word}"
        else:
            line = candidate
    lines.append(line)
    return lines


def _row(c: Comparison, disputed: bool, machine: bool = False) -> list[str]:
    return [
        c.measure,
        f"{c.baseline_score.raw:.3f}",
        f"{c.challenger_score.raw:.3f}",
        f"{c.delta:+.3f}",
        f"{_pct(c.baseline_unjudged)} / {_pct(c.challenger_unjudged)}",
        *([_disputed(c)] if disputed else []),
        *([_machine(c)] if machine else []),
        _p(c.p_adjusted),
        c.reading,
        c.verdict_code + ("*" if c.robust_sign else ""),
    ]


def _machine(c: Comparison) -> str:
    return f"{_pct(c.baseline_machine or 0.0)} / {_pct(c.challenger_machine or 0.0)}"


def _disputed(c: Comparison) -> str:
    return f"{_pct(c.baseline_disputed or 0.0)} / {_pct(c.challenger_disputed or 0.0)}"


def _details(pair: Sequence[Comparison], width: int | None, resamples: str | None) -> list[str]:
    rows = [
        [
            c.measure,
            _ci(c),
            _mde(c),
            f"[{c.delta_range.low:+.3f}, {c.delta_range.high:+.3f}]",
            c.delta_range.method,
            "yes" if c.sign_can_flip else "no",
            f"{c.wins}/{c.ties}/{c.losses}",
        ]
        for c in pair
    ]
    header = ["measure", "95% CI", "MDE", "delta range", "method", "flip?", "W/T/L"]
    lines = table(header, rows, width, right=(2, 6))
    if resamples is not None:
        lines += wrap(f"95% CI: {resamples}", width)
    lines.append("most changed questions (challenger - baseline):")
    for c in pair:
        changed = ", ".join(f"{sanitize.text(q)} ({d:+.2f})" for q, d in c.most_changed)
        lines += wrap(f"  {c.measure}: {changed or 'none'}", width, indent="    ")
    return lines


def render(
    result: CompareResult,
    width: int | None,
    *,
    verbose: bool = False,
    steps: NextSteps | None = None,
) -> str:
    """The comparison as text of at most ``width`` columns (None: no bound)."""
    steps = steps or NextSteps()
    built = ", ".join(sanitize.text(s) for s in result.built_by) or "no recorded pool"
    commit = sanitize.text((result.labels_commit or "uncommitted")[:12])
    commit += dirty_note(result.labels_dirty)
    lines = wrap(
        f"labels {commit}  k={result.k}  alpha={result.alpha:g}  seed={result.seed}  "
        f"judged set built by: {built}",
        width,
    )
    covered = coverage.line(result.coverage)
    if covered is not None:
        lines += wrap(covered, width)
    disputed = result.disputes is not None
    machine = any(c.baseline_machine is not None for c in result.comparisons)
    for pair in _pairs(result):
        first = pair[0]
        base, chal = sanitize.text(first.baseline), sanitize.text(first.challenger)
        lines.append("")
        lines += wrap(
            f"{chal} vs {base} (baseline), {counted(first.questions, 'question')}; "
            f"p: sign-flip test, {first.test.method}{draws_note(first)}, Holm",
            width,
        )
        header = [
            "measure",
            base if width_of(base) <= NAME_WIDTH else "baseline",
            chal if width_of(chal) <= NAME_WIDTH else "challenger",
            "delta",
            "unjudged",
            *(["disputed"] if disputed else []),
            *(["machine"] if machine else []),
            "p",
            "reading",
            "verdict",
        ]
        right = tuple(range(1, 6 + disputed + machine))
        lines += table(header, [_row(c, disputed, machine) for c in pair], width, right=right)
        if any(c.robust_sign for c in pair):
            lines += wrap(
                "* robust: the sign holds for every labelling of the unjudged documents", width
            )
        if verbose:
            lines.append("")
            lines += _details(pair, width, resamples_note(result))
        lines += wrap(verdict_line(pair), width)
        for step in next_lines(pair, steps, verbose):
            lines += command_lines(step, width)
    notes = question_notes(result.no_relevant, result.not_judged)
    if result.disputes is not None:
        notes.append(disputes.note("k", result.disputes))
    if machine:
        notes.append(machines.note("k", result.judges))
    if notes:
        lines.append("")
    for note in notes:
        lines += wrap(note, width)
    if result.without_machines:
        lines += ["", *wrap("without the machine verdicts the reading changes:", width)]
        for changed in result.without_machines:
            lines += wrap(f"  {changed}", width, indent="    ")
    return sanitize.lines("\n".join(line.rstrip() for line in lines) + "\n")
