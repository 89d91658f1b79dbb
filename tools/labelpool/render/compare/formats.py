"""Render a :class:`labelpool.workflows.evaluate.compare.CompareResult`: JSON and markdown (the text
for a terminal is :mod:`labelpool.render.compare.text`).

The JSON is described by ``schema/compare-report.schema.json``. Numbers that are undefined
(the minimum detectable effect with fewer than two questions) are ``null``. Where the noise
floor made other counts than the defaults (:mod:`labelpool.workflows.evaluate.noise`), every
output states them: the test's draws (:func:`draws_note`), the bootstrap's resamples
(``ci95_resamples`` in the JSON, :func:`counts_sentence`); the default outputs are unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from labelpool import stats
from labelpool.render import coverage, disputes, machines, sanitize
from labelpool.render.fields import dirty_note, pick
from labelpool.render.questions import question_notes
from labelpool.render.sanitize import markdown as md
from labelpool.render.sanitize import measure_name
from labelpool.scoring.delta.question import METHOD_TEXT
from labelpool.words import counted, noun
from labelpool.workflows.evaluate.compare import CompareResult, Comparison

SIDES = ("raw", "judged_only", "optimistic")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def draws_note(c: Comparison) -> str:
    """`` (10,000 draws)``: the Monte Carlo test's draws where they are not the default's;
    else nothing."""
    n = c.test.samples
    if c.test.method != "monte-carlo" or n == stats.DRAWS:
        return ""
    return f" ({n:,} {noun(n, 'draw')})"


def resamples_note(result: CompareResult) -> str | None:
    """``1,000 bootstrap resamples`` where they are not the default's; else None."""
    n = result.resamples
    return None if n == stats.RESAMPLES else f"{n:,} bootstrap {noun(n, 'resample')}"


def counts_sentence(result: CompareResult) -> str | None:
    """The noise floor's counts where they are not the defaults (``p: sign-flip test,
    monte-carlo (10,000 draws), Holm; 95% CI: 1,000 bootstrap resamples``); else None."""
    parts = [
        f"p: sign-flip test, {c.test.method}{draws_note(c)}, Holm"
        for c in result.comparisons[:1]
        if draws_note(c)
    ]
    resamples = resamples_note(result)
    if resamples is not None:
        parts.append(f"95% CI: {resamples}")
    return "; ".join(parts) or None


def comparison_json(c: Comparison) -> dict[str, Any]:
    return {
        **pick(c, ("baseline", "challenger", "measure", "cutoff", "depth", "questions")),
        "baseline_score": pick(c.baseline_score, SIDES),
        "challenger_score": pick(c.challenger_score, SIDES),
        **pick(
            c,
            ("delta", "baseline_unjudged", "challenger_unjudged", "reading", "reading_why"),
        ),
        **_disputed_json(c),
        **_machine_json(c),
        "test": f"paired randomization (sign flip), {c.test.method}{draws_note(c)}",
        "test_method": c.test.method,
        "test_samples": c.test.samples,
        "p_value": c.test.p_value,
        "p_adjusted": c.p_adjusted,
        "ci95": [_num(c.ci95[0]), _num(c.ci95[1])],
        "mde": _num(c.mde),
        "sign_can_flip": c.sign_can_flip,
        "robust_sign": c.robust_sign,
        "unjudged_in_range": c.unjudged_in_range,
        "delta_range": [c.delta_range.low, c.delta_range.high],
        "delta_range_method": c.delta_range.method,
        "judge_cost": {
            "documents": c.judge_cost.documents,
            "questions": c.judge_cost.questions,
            "fraction": c.judge_cost.fraction,
            **({"disputed": c.judge_cost.disputed} if c.adjudicate_command else {}),
        },
        "pooled": dict(c.pooled),
        "wins": c.wins,
        "ties": c.ties,
        "losses": c.losses,
        "most_changed": [{"question": q, "delta": d} for q, d in c.most_changed],
        "pool_command": c.pool_command,
        **({"adjudicate_command": c.adjudicate_command} if c.adjudicate_command else {}),
        "verdict": c.verdict,
        "verdict_code": c.verdict_code,
    }


def _disputed_json(c: Comparison) -> dict[str, float]:
    """Both disputed rates, where the labels hold open disputes (else nothing: the JSON of
    labels without disputes is as before)."""
    if c.baseline_disputed is None or c.challenger_disputed is None:
        return {}
    return {"baseline_disputed": c.baseline_disputed, "challenger_disputed": c.challenger_disputed}


def _machine_json(c: Comparison) -> dict[str, float]:
    """Both machine-judged rates, where a machine's verdict counts alone somewhere (else
    nothing: the JSON of labels without machine verdicts is as before)."""
    if c.baseline_machine is None or c.challenger_machine is None:
        return {}
    return {"baseline_machine": c.baseline_machine, "challenger_machine": c.challenger_machine}


def _machine_fields(result: CompareResult) -> dict[str, Any]:
    """``judges`` when not all counted; ``without_machines`` where machine verdicts count."""
    out: dict[str, Any] = {} if result.judges == "all" else {"judges": result.judges}
    if any(c.baseline_machine is not None for c in result.comparisons):
        out["without_machines"] = list(result.without_machines)
    return out


def machine_lines(result: CompareResult, escape: Callable[[str], str]) -> list[str]:
    """Where machine verdicts count: each pair's machine-judged rates, the footnote and the
    verdicts that differ on people's verdicts alone; else nothing."""
    shown = [c for c in result.comparisons if c.baseline_machine is not None]
    if not shown:
        return []
    lines = [""]
    for c in shown:
        lines.append(
            escape(
                f"machine@{c.cutoff} {c.challenger} / {c.baseline} ({c.measure}): "
                f"{_pct(c.challenger_machine or 0.0)} / {_pct(c.baseline_machine or 0.0)}"
            )
        )
    note = machines.note("k", result.judges)
    lines += ["", escape(note[:1].upper() + note[1:]) + "."]
    if result.without_machines:
        lines += ["", "Without the machine verdicts the reading changes:", ""]
        lines += [f"- {escape(n)}" for n in result.without_machines]
    return lines


def to_json(result: CompareResult) -> dict[str, Any]:
    return {
        **pick(result, ("labels_commit", "labels_dirty", "k", "seed", "alpha", "relevance_level")),
        **({} if resamples_note(result) is None else {"ci95_resamples": result.resamples}),
        "built_by": list(result.built_by),
        "pool_systems": dict(result.pool_systems),
        "delta_range_methods": dict(METHOD_TEXT),
        "no_relevant": list(result.no_relevant),
        "not_judged": list(result.not_judged),
        "coverage": {c.system: coverage.to_json(c) for c in result.coverage},
        "comparisons": [comparison_json(c) for c in result.comparisons],
        **({} if result.disputes is None else {"disputes": result.disputes}),
        **_machine_fields(result),
    }


def render_json(result: CompareResult) -> str:
    """``labelpool compare --format json`` as printed: :func:`to_json` indented, ASCII, and
    a final line break."""
    return sanitize.json_dumps(to_json(result), indent=2) + "\n"


def disputed_lines(result: CompareResult, escape: Callable[[str], str]) -> list[str]:
    """Where the labels hold open disputes: each pair's disputed rates (challenger /
    baseline, at each measure's cut-off) and the footnote, once; else nothing."""
    if result.disputes is None:
        return []
    lines = [""]
    for c in result.comparisons:
        if c.baseline_disputed is None or c.challenger_disputed is None:
            continue
        lines.append(
            escape(
                f"disputed@{c.cutoff} {c.challenger} / {c.baseline} ({c.measure}): "
                f"{_pct(c.challenger_disputed)} / {_pct(c.baseline_disputed)}"
            )
        )
    note = disputes.note("k", result.disputes)
    return [*lines, "", escape(note[:1].upper() + note[1:]) + "."]


def _pct(x: float) -> str:
    return f"{x:.0%}" if x >= 0.01 or x == 0 else f"{x:.1%}"


def _ci(c: Comparison) -> str:
    lo, hi = c.ci95
    return "n/a" if math.isnan(lo) else f"[{lo:+.3f}, {hi:+.3f}]"


def _mde(c: Comparison) -> str:
    return "n/a" if math.isnan(c.mde) else f"{c.mde:.3f}"


def _changed(c: Comparison) -> str:
    return ", ".join(f"{sanitize.text(q)} ({d:+.2f})" for q, d in c.most_changed) or "none"


def to_markdown(result: CompareResult) -> str:
    """A pull-request comment or ``$GITHUB_STEP_SUMMARY`` section."""
    lines = ["## labelpool compare", ""]
    built = ", ".join(md(s) for s in result.built_by) or "no recorded pool"
    commit = sanitize.code_span((result.labels_commit or "uncommitted")[:12])
    lines.append(
        f"Labels `{commit}`{dirty_note(result.labels_dirty)}, k = {result.k}, "
        f"alpha = {result.alpha:g}, seed = {result.seed}; the judged set was built by: {built}."
    )
    covered = coverage.line(result.coverage)
    if covered is not None:
        lines += ["", md(covered[:1].upper() + covered[1:]) + "."]
    for note in question_notes(result.no_relevant, result.not_judged):
        lines += ["", md(note) + "."]
    counts = counts_sentence(result)
    if counts is not None:
        lines += ["", md(counts) + "."]
    lines += disputed_lines(result, md)
    lines += machine_lines(result, md)
    lines.append("")
    lines.append("### Verdicts")
    lines.append("")
    for c in result.comparisons:
        lines.append(
            f"- **{md(c.challenger)} vs {md(c.baseline)}, {measure_name(c.measure)}**: "
            f"{md(c.verdict)}"
        )
    lines.append("")
    lines.append(
        "| challenger | baseline | measure | challenger (raw / judged-only / optimistic) "
        "| baseline (raw / judged-only / optimistic) | delta | unjudged (chal. / base.) "
        "| reading | p (Holm) | 95% CI | MDE | delta range | sign can flip | robust sign "
        "| to judge "
        "| W / T / L |"
    )
    lines.append("|" + "---|" * 16)
    for c in result.comparisons:
        cs, bs = c.challenger_score, c.baseline_score
        lines.append(
            f"| {md(c.challenger)} | {md(c.baseline)} | {measure_name(c.measure)} "
            f"| {cs.raw:.3f} / {cs.judged_only:.3f} / {cs.optimistic:.3f} "
            f"| {bs.raw:.3f} / {bs.judged_only:.3f} / {bs.optimistic:.3f} "
            f"| {c.delta:+.3f} | {_pct(c.challenger_unjudged)} / {_pct(c.baseline_unjudged)} "
            f"| {c.reading} | {c.p_adjusted:.3g} | {_ci(c)} | {_mde(c)} "
            f"| [{c.delta_range.low:+.3f}, {c.delta_range.high:+.3f}] ({c.delta_range.method}) "
            f"| {'yes' if c.sign_can_flip else 'no'} | {'yes' if c.robust_sign else 'no'} "
            f"| {c.judge_cost.documents} docs / {c.judge_cost.questions} q "
            f"| {c.wins} / {c.ties} / {c.losses} |"
        )
    lines.append("")
    lines.append("<details><summary>Pool membership and most changed questions</summary>")
    lines.append("")
    for c in result.comparisons:
        pooled = ", ".join(f"{md(s)}: {n}" for s, n in c.pooled.items())
        lines.append(
            f"- {md(c.challenger)} vs {md(c.baseline)}, {measure_name(c.measure)}: "
            f"pooled at k >= {c.cutoff} on "
            f"{pooled} of {counted(c.questions, 'question')}; most changed: {md(_changed(c))}"
        )
    lines.append("")
    lines.append("</details>")
    lines.append("")
    return sanitize.lines("\n".join(lines))
