"""Render a leave-one-system-out :class:`~labelpool.workflows.evaluate.bias.BiasReport`.

Text (tables fitted to a width by :mod:`labelpool.render.layout`), JSON (the stable shape of
:func:`to_json`) and markdown (pipe tables, for a pull-request comment). Rendering only: no
computation here.
"""

from __future__ import annotations

import math
from typing import Any

from labelpool.render import sanitize
from labelpool.render.layout import table, wrap
from labelpool.workflows.evaluate.bias import BiasReport, LeaveOut


def _f(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.4f}"


def _d(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:+.4f}"


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.1f}%"


def _rank(rank: int, reduced: int) -> str:
    change = rank - reduced
    return f"{rank} -> {reduced}" + (f" ({change:+d})" if change else "")


def headline(report: BiasReport) -> str:
    pooled = [s.system for s in report.systems if s.pooled]
    others = [s.system for s in report.systems if not s.pooled]
    text = (
        f"Leave-one-system-out pool bias, {report.measure} "
        f"(unjudged rate at {report.k}); pooled: {', '.join(pooled)}"
    )
    if others:
        text += f"; not pooled: {', '.join(others)}"
    if report.unattributed_questions:
        text += (
            f"; {report.unattributed_questions} question(s) with a pool of unknown origin "
            "kept whole"
        )
    return text


def _summary_rows(report: BiasReport) -> list[list[str]]:
    rows = []
    for lo in report.leave_outs:
        own = lo.own
        rows.append(
            [
                lo.system,
                str(lo.removed_judgments),
                str(lo.removed_relevant),
                str(lo.questions),
                _f(own.score),
                _f(own.reduced_score),
                _d(own.delta),
                _rank(own.rank, own.reduced_rank),
                _f(lo.kendall_tau),
            ]
        )
    return rows


SUMMARY_HEADER = [
    "left out",
    "judgments removed",
    "relevant removed",
    "questions",
    "score",
    "without its judgments",
    "change",
    "rank",
    "Kendall tau",
]
DETAIL_HEADER = ["system", "score", "reduced", "change", "rank", "unjudged", "reduced unjudged"]


def _stacked(header: list[str]) -> list[str]:
    """The headers in text, a name longer than ``left out`` on two lines (its last word
    below), so that the tables fit 80 columns."""
    return [h if len(h) <= len("left out") else "\n".join(h.rsplit(" ", 1)) for h in header]


def _detail_rows(lo: LeaveOut) -> list[list[str]]:
    return [
        [
            r.system + (" (left out)" if r.system == lo.system else ""),
            _f(r.score),
            _f(r.reduced_score),
            _d(r.delta),
            _rank(r.rank, r.reduced_rank),
            _pct(r.unjudged_rate),
            _pct(r.reduced_unjudged_rate),
        ]
        for r in lo.rows
    ]


def render_text(report: BiasReport, width: int | None = 80) -> str:
    """The headline wrapped at ``width``, one summary row per left-out system, then every
    system's scores without each one's judgments; columns that do not fit continue in a
    table below (``width`` None: no bound)."""
    summary = table(
        _stacked(SUMMARY_HEADER), _summary_rows(report), width, right=range(1, len(SUMMARY_HEADER))
    )
    lines = [*wrap(headline(report), width), "", *summary]
    for lo in report.leave_outs:
        lines += ["", *wrap(f"without {lo.system}'s own judgments", width)]
        lines += table(
            _stacked(DETAIL_HEADER), _detail_rows(lo), width, right=range(1, len(DETAIL_HEADER))
        )
    return sanitize.lines("".join(line.rstrip() + "\n" for line in lines))


def render_json(report: BiasReport) -> str:
    return sanitize.json_dumps(to_json(report), indent=2, sort_keys=False) + "\n"


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A pipe table; the first column (a system name) through the sanitiser, the others are
    numbers and ranks this module wrote."""
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join(":--" if i == 0 else "--:" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join([sanitize.markdown(row[0]), *row[1:]]) + " |" for row in rows]
    return lines


def render_markdown(report: BiasReport) -> str:
    lines = [f"**{sanitize.markdown(headline(report))}**", ""]
    lines += _md_table(SUMMARY_HEADER, _summary_rows(report))
    for lo in report.leave_outs:
        lines += ["", f"Without {sanitize.markdown(lo.system)}'s own judgments:", ""]
        lines += _md_table(DETAIL_HEADER, _detail_rows(lo))
    return sanitize.lines("\n".join(lines) + "\n")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def to_json(report: BiasReport) -> dict[str, Any]:
    """The report as plain data, in the stable shape :mod:`labelpool.workflows.evaluate.bias`
    describes."""
    return {
        "measure": report.measure,
        "k": report.k,
        "relevance_level": report.relevance_level,
        "unattributed_questions": report.unattributed_questions,
        "systems": [
            {
                "system": s.system,
                "run": s.run,
                "pooled": s.pooled,
                "score": _num(s.score),
                "rank": s.rank,
                "unjudged_rate": _num(s.unjudged_rate),
            }
            for s in report.systems
        ],
        "leave_one_out": [
            {
                "system": lo.system,
                "removed_judgments": lo.removed_judgments,
                "removed_relevant": lo.removed_relevant,
                "questions": lo.questions,
                "score": _num(lo.own.score),
                "reduced_score": _num(lo.own.reduced_score),
                "delta": _num(lo.own.delta),
                "rank": lo.own.rank,
                "reduced_rank": lo.own.reduced_rank,
                "rank_change": lo.own.rank_change,
                "kendall_tau": _num(lo.kendall_tau),
                "systems": [
                    {
                        "system": r.system,
                        "score": _num(r.score),
                        "reduced_score": _num(r.reduced_score),
                        "delta": _num(r.delta),
                        "rank": r.rank,
                        "reduced_rank": r.reduced_rank,
                        "rank_change": r.rank_change,
                        "unjudged_rate": _num(r.unjudged_rate),
                        "reduced_unjudged_rate": _num(r.reduced_unjudged_rate),
                    }
                    for r in lo.rows
                ],
            }
            for lo in report.leave_outs
        ],
    }
