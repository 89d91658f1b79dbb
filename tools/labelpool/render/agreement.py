"""Render an :class:`~labelpool.workflows.evaluate.agreement.AgreementReport`: text (tables
fitted to a width), markdown (pipe tables) and JSON (``schema/agreement-report.schema.json``).

An undefined figure is ``undefined`` and its reason, never NaN; in JSON ``null`` beside a
``reason``. Every judge name, question and document passes the sanitiser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from labelpool.agreement.bootstrap import LEVEL
from labelpool.agreement.figures import Figure, Pair, Summary
from labelpool.agreement.judges import JudgeRow
from labelpool.render import sanitize
from labelpool.render.layout import table, wrap
from labelpool.words import counted
from labelpool.workflows.evaluate.agreement import (
    TAU_SAME_RANKING,
    AgreementReport,
    Dispute,
    Effect,
    TauRow,
)

FIGURE_HEADER = ["statistic (weighting, on what)", "value", f"{LEVEL:.0%} interval"]
MEANINGS = (
    "grades: the grades themselves; relevance: relevant (grade 1 or more) or not. Raw "
    "agreement over all judges counts the pairs of verdicts on a document that agree."
)
ODD_NOTE = (
    "odd one out: on a document with three or more verdicts, the judge whose grade differs "
    "while every other judge gave one and the same grade; a document of two judges who "
    "disagree cannot single one out: it counts as split for both."
)


def _f(x: float | None) -> str:
    return "undefined" if x is None else f"{x:.4f}"


def _interval(fig: Figure) -> str:
    if fig.interval is None:
        return "-"
    return f"{fig.interval[0]:.4f} .. {fig.interval[1]:.4f}"


def _grade_range(summary: Summary) -> str:
    return f"grades {', '.join(map(str, summary.values))}"


def headline(report: AgreementReport) -> str:
    s = report.summary
    text = (
        f"Agreement: {counted(s.documents, 'document')} with verdicts by two or more judges, "
        f"in {counted(s.questions, 'question')}, {counted(s.judges, 'judge')}"
    )
    if s.documents:
        text += f" ({_grade_range(s)})"
    if report.judges is not None:
        text += f"; judges: {'; '.join(report.judges)}"
    if report.question_pattern is not None:
        text += f"; questions matching {report.question_pattern!r}"
    return text


def method(report: AgreementReport) -> str:
    s = report.summary
    if not s.replicates:
        return "No bootstrap intervals (--bootstrap 0)."
    return (
        f"{LEVEL:.0%} intervals: percentile bootstrap, {s.replicates:,} resamples of the "
        f"questions, seed {s.seed}. Adjudicators' verdicts are left out (they settle, they do "
        "not judge independently)."
    )


def _figure_rows(figures: Sequence[Figure]) -> list[list[str]]:
    return [[f"{f.statistic} ({f.weighting})", _f(f.value), _interval(f)] for f in figures]


def _pair_title(pair: Pair) -> str:
    return (
        f"{pair.first} and {pair.second}: {counted(pair.documents, 'document')} in "
        f"{counted(pair.questions, 'question')}"
    )


def _undefined(figures: Sequence[Figure]) -> list[str]:
    return [
        f"{f.statistic} ({f.weighting}): undefined ({f.reason})" for f in figures if f.value is None
    ]


def _confusion(pair: Pair, values: Sequence[int]) -> tuple[list[str], list[list[str]]]:
    header = ["", *(str(g) for g in values)]
    rows = [[str(g), *(str(c) for c in row)] for g, row in zip(values, pair.confusion, strict=True)]
    return header, rows


def _judge_rows(
    rows: Sequence[JudgeRow], values: Sequence[int]
) -> tuple[list[str], list[list[str]]]:
    header = ["judge", "docs", "questions", "odd one out", "split", *(f"={g}" for g in values)]
    body = [
        [
            r.judge,
            str(r.documents),
            str(r.questions),
            f"{r.odd_one_out} of {r.of}",
            str(r.split),
            *(str(c) for c in r.grades),
        ]
        for r in rows
    ]
    return header, body


def _dispute_line(d: Dispute) -> str:
    said = ", ".join(
        f"{'adjudicator ' if v.adjudicator else ''}{v.judge or 'unrecorded judge'}: "
        f"{'-' if v.grade is None else v.grade}"
        for v in d.verdicts
    )
    return f"{d.doc}: {said}"


def _dispute_count(disputes: Sequence[Dispute]) -> str:
    questions = len({d.question for d in disputes})
    return (
        f"Open disputes: {counted(len(disputes), 'document')} in {counted(questions, 'question')}"
    )


def _tau_line(t: TauRow) -> str:
    value = (
        "undefined (fewer than two systems, or tied scores)" if t.tau is None else (f"{t.tau:.4f}")
    )
    flag = f"  below {TAU_SAME_RANKING}: not the same ranking" if t.flagged else ""
    return f"Kendall's tau-b, {t.first} vs {t.second}: {value}{flag}"


def _sign_flag(e: Effect) -> str:
    return f"flag: the sign of {e.systems[1]} - {e.systems[0]} differs between judges"


def _unrecorded(n: int) -> str:
    return (
        f"{counted(n, 'verdict')} left out: no judge recorded "
        "(labelpool fmt --upgrade writes them from git blame)"
    )


def _effect_text(e: Effect, width: int | None) -> list[str]:
    lines = wrap(
        f"{e.measure} under each judge's labels on the panel's documents (raw; where a judge "
        f"gave no verdict, disputes = {e.policy}):",
        width,
    )
    header = ["system", *e.judges]
    rows = [[s, *(_f(v) for v in scores)] for s, scores in zip(e.systems, e.scores, strict=True)]
    lines += table(header, rows, width, right=range(1, len(header)))
    for t in e.taus:
        lines += wrap(_tau_line(t), width)
    if e.sign_differs:
        lines += wrap(_sign_flag(e), width)
    return lines


def render_text(report: AgreementReport, width: int | None = 80) -> str:
    s = report.summary
    lines = [*wrap(headline(report), width), *wrap(method(report), width)]
    lines += [*wrap(MEANINGS, width), ""]
    lines += table(FIGURE_HEADER, _figure_rows(s.figures), width, right=range(1, 3))
    for note in _undefined(s.figures):
        lines += wrap(note, width)
    for pair in s.pairs:
        lines += ["", *wrap(_pair_title(pair), width)]
        lines += table(FIGURE_HEADER, _figure_rows(pair.figures), width, right=range(1, 3))
        for note in _undefined(pair.figures):
            lines += wrap(note, width)
        header, rows = _confusion(pair, s.values)
        lines += wrap(f"grades (rows: {pair.first}; columns: {pair.second})", width)
        lines += table(header, rows, width, right=range(len(header)))
    if s.judge_rows:
        lines += ["", "Per judge (grades given on the panel's documents):"]
        header, rows = _judge_rows(s.judge_rows, s.values)
        lines += table(header, rows, width, right=range(1, len(header)))
        lines += wrap(ODD_NOTE, width)
    if report.unrecorded:
        lines += ["", *wrap(_unrecorded(report.unrecorded), width)]
    lines += ["", *wrap(_dispute_count(report.disputes), width)]
    for question in dict.fromkeys(d.question for d in report.disputes):
        lines.append(f"  {sanitize.text(question)}")
        lines += [
            *(
                line
                for d in report.disputes
                if d.question == question
                for line in wrap(f"    {_dispute_line(d)}", width, indent="      ")
            )
        ]
    if report.effect is not None:
        lines += ["", *_effect_text(report.effect, width)]
    return sanitize.lines("".join(sanitize.text(line).rstrip() + "\n" for line in lines))


# --------------------------------------------------------------------------- markdown


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    out = ["| " + " | ".join(sanitize.markdown(h) for h in header) + " |"]
    out.append("|" + "|".join(":--" if i < left else "--:" for i in range(len(header))) + "|")
    out += ["| " + " | ".join(sanitize.markdown(c) for c in row) + " |" for row in rows]
    return out


def render_markdown(report: AgreementReport) -> str:
    s = report.summary
    lines = [f"**{sanitize.markdown(headline(report))}**", "", sanitize.markdown(method(report))]
    lines += ["", sanitize.markdown(MEANINGS)]
    lines += ["", *_md_table(FIGURE_HEADER, _figure_rows(s.figures))]
    notes = [f"- {sanitize.markdown(n)}" for n in _undefined(s.figures)]
    lines += ["", *notes] if notes else []
    for pair in s.pairs:
        lines += ["", f"**{sanitize.markdown(_pair_title(pair))}**"]
        lines += ["", *_md_table(FIGURE_HEADER, _figure_rows(pair.figures))]
        notes = [f"- {sanitize.markdown(n)}" for n in _undefined(pair.figures)]
        lines += ["", *notes] if notes else []
        header, rows = _confusion(pair, s.values)
        lines += [
            "",
            sanitize.markdown(f"Grades (rows: {pair.first}; columns: {pair.second}):"),
            "",
            *_md_table(header, rows, left=1),
        ]
    if s.judge_rows:
        header, rows = _judge_rows(s.judge_rows, s.values)
        lines += ["", "**Per judge**", "", *_md_table(header, rows, left=1)]
        lines += ["", sanitize.markdown(ODD_NOTE)]
    lines += ["", f"**{sanitize.markdown(_dispute_count(report.disputes))}**"]
    if report.disputes:
        lines += [""] + [
            f"- {sanitize.markdown(d.question)}: {sanitize.markdown(_dispute_line(d))}"
            for d in report.disputes
        ]
    if report.effect is not None:
        e = report.effect
        lines += [
            "",
            f"**{sanitize.measure_name(e.measure)} under each judge's labels** "
            f"(disputes = {sanitize.markdown(e.policy)})",
            "",
        ]
        rows = [[s_, *(_f(v) for v in sc)] for s_, sc in zip(e.systems, e.scores, strict=True)]
        lines += _md_table(["system", *e.judges], rows, left=1)
        lines += [""] + [f"- {sanitize.markdown(_tau_line(t))}" for t in e.taus]
        if e.sign_differs:
            lines.append(f"- {sanitize.markdown(_sign_flag(e))}")
    return sanitize.lines("\n".join(lines).rstrip("\n") + "\n")


# --------------------------------------------------------------------------- JSON


def _figure_json(f: Figure) -> dict[str, Any]:
    out: dict[str, Any] = {"statistic": f.statistic, "weighting": f.weighting, "value": f.value}
    if f.value is None:
        out["reason"] = f.reason
    out["interval"] = list(f.interval) if f.interval is not None else None
    out.update(documents=f.documents, questions=f.questions, judges=f.judges)
    return out


def to_json(report: AgreementReport) -> dict[str, Any]:
    """The report as plain data (``schema/agreement-report.schema.json``)."""
    s = report.summary
    out: dict[str, Any] = {
        "documents": s.documents,
        "questions": s.questions,
        "judges": s.judges,
        "grades": list(s.values),
        "selection": {
            "judges": list(report.judges) if report.judges is not None else None,
            "question_pattern": report.question_pattern,
        },
        "bootstrap": {
            "replicates": s.replicates,
            "seed": s.seed,
            "level": LEVEL,
            "resampled": "questions",
        },
        "unrecorded_verdicts": report.unrecorded,
        "statistics": [_figure_json(f) for f in s.figures],
        "pairs": [
            {
                "judges": [p.first, p.second],
                "documents": p.documents,
                "questions": p.questions,
                "confusion": [list(row) for row in p.confusion],
                "statistics": [_figure_json(f) for f in p.figures],
            }
            for p in s.pairs
        ],
        "per_judge": [
            {
                "judge": r.judge,
                "documents": r.documents,
                "questions": r.questions,
                "odd_one_out": r.odd_one_out,
                "documents_with_three_or_more_verdicts": r.of,
                "split": r.split,
                "grades": list(r.grades),
            }
            for r in s.judge_rows
        ],
        "disputes": [
            {
                "question": d.question,
                "doc": d.doc,
                "verdicts": [
                    {"judge": v.judge, "adjudicator": v.adjudicator, "grade": v.grade}
                    for v in d.verdicts
                ],
            }
            for d in report.disputes
        ],
        "runs": None,
    }
    e = report.effect
    if e is not None:
        out["runs"] = {
            "measure": e.measure,
            "k": e.k,
            "disputes": e.policy,
            "judges": list(e.judges),
            "systems": [
                {"system": name, "scores": list(sc)}
                for name, sc in zip(e.systems, e.scores, strict=True)
            ],
            "kendall_tau": [
                {"judges": [t.first, t.second], "tau": t.tau, "below_threshold": t.flagged}
                for t in e.taus
            ],
            "tau_threshold": TAU_SAME_RANKING,
            "sign_differs": e.sign_differs,
        }
    return out


def render_json(report: AgreementReport) -> str:
    return sanitize.json_dumps(to_json(report), indent=2) + "\n"
