"""Render a :class:`~labelpool.workflows.audit.poolinfo.PoolInfo` as text, JSON or markdown.

JSON shape (stable; keys are only ever added)::

    {"k": INT, "questions": INT, "judged": INT,
     "systems": [{"system", "questions": INT,
                  "depths": [{"k": INT | null, "questions": INT}],
                  "dates": [DATE], "min_depth": INT | null, "fair": BOOL,
                  "fair_by_depth": BOOL, "unjudged_rate": NUMBER | null,
                  "run": PATH | null, "disagreement": STR | null}],
     "fair": [SYSTEM], "born_from": [SYSTEM], "born_date": DATE | null,
     "unknown_origin": [QUESTION], "not_judged": [QUESTION], "runs_not_fair": [SYSTEM]}
"""

from __future__ import annotations

import textwrap
from typing import Any

from labelpool.render import sanitize
from labelpool.render.sanitize import markdown as md
from labelpool.words import counted
from labelpool.workflows.audit.poolinfo import PoolInfo, SystemPool


def to_json(info: PoolInfo) -> dict[str, Any]:
    return {
        "k": info.k,
        "questions": info.questions,
        "judged": info.judged,
        "systems": [
            {
                "system": s.system,
                "questions": s.questions,
                "depths": [{"k": k, "questions": n} for k, n in s.depths],
                "dates": list(s.dates),
                "min_depth": s.min_depth,
                "fair": s.fair,
                "fair_by_depth": s.fair_by_depth,
                "unjudged_rate": s.unjudged_rate,
                "run": s.run,
                "disagreement": s.disagreement,
            }
            for s in info.systems
        ],
        "fair": list(info.fair),
        "born_from": list(info.born_from),
        "born_date": info.born_date,
        "unknown_origin": list(info.unknown_origin),
        "not_judged": list(info.not_judged),
        "runs_not_fair": list(info.runs_not_fair),
    }


def _depths(s: SystemPool) -> str:
    return ", ".join(f"k={'null' if k is None else k} on {n}" for k, n in s.depths)


def _dates(s: SystemPool) -> str:
    if not s.dates:
        return "no date"
    return s.dates[0] if len(s.dates) == 1 else f"{s.dates[0]} .. {s.dates[-1]}"


def _list(items: tuple[str, ...], limit: int = 20) -> str:
    if not items:
        return "none"
    shown = ", ".join(items[:limit])
    return shown + (f" (and {len(items) - limit} more)" if len(items) > limit else "")


def _lines(info: PoolInfo) -> list[tuple[str, str]]:
    """(heading, text) pairs shared by the text and markdown renderings."""
    born = _list(info.born_from) + (f" (on {info.born_date})" if info.born_date else "")
    return [
        (f"fair to compare at k={info.k}", _list(info.fair)),
        ("born from", born),
        (
            f"runs in runs/ the set cannot fairly compare at k={info.k}",
            _list(info.runs_not_fair),
        ),
        (f"unknown origin ({len(info.unknown_origin)})", _list(info.unknown_origin)),
        (f"not judged yet ({len(info.not_judged)})", _list(info.not_judged)),
    ]


def _measured(s: SystemPool, k: int) -> str:
    if s.unjudged_rate is None:
        return "not measured (no run in runs/)"
    return f"{s.unjudged_rate:.1%} unjudged@{k}"


def render_text(info: PoolInfo, width: int | None = 80) -> str:
    """The provenance as text; a disagreement's explanation wrapped at ``width``."""
    out = [f"{counted(info.questions, 'question')}, {info.judged} judged"]
    if info.systems:
        out.append(
            "pooled systems (questions of the judged ones; depths; dates; its run in runs/):"
        )
        names = [sanitize.text(s.system) for s in info.systems]
        pad = max(len(name) for name in names)
        for name, s in zip(names, info.systems, strict=True):
            fair = "fair" if s.fair else "not fair"
            row = f"  {name:<{pad}}  {s.questions}/{info.judged}  {_depths(s)}  {_dates(s)}"
            tail = f"{_measured(s, info.k)}  [{fair} at k={info.k}]"
            if width is None or len(f"{row}  {tail}") <= width:
                out.append(f"{row}  {tail}")
            else:  # the measured rate and the reading continue below
                out += [row, f"    {tail}"]
            if s.disagreement:
                why = sanitize.text(f"    not fair: {s.disagreement}")
                out += textwrap.wrap(
                    why,
                    width=width or len(why),
                    subsequent_indent="      ",
                    break_long_words=False,
                    break_on_hyphens=False,
                )
    else:
        out.append("pooled systems: none known")
    out += [f"{head}: {text}" for head, text in _lines(info)]
    if info.fair:
        out.append(f"(fair at k={info.k}: pooled at depth >= {info.k} on every judged question;")
        out.append(f" when its run is in runs/, also nothing of its top {info.k} unjudged)")
    # every line: names shown escaped, no line starting a workflow command
    return "\n".join(sanitize.text(line) for line in out) + "\n"


def render_markdown(info: PoolInfo) -> str:
    out = [
        "### Pool provenance",
        "",
        f"{counted(info.questions, 'question')}, {info.judged} judged.",
        "",
    ]
    if info.systems:
        out += [
            f"| system | questions | depths | dates | unjudged@{info.k} (runs/) "
            f"| fair at k={info.k} |",
            "|---|---:|---|---|---:|---|",
        ]
        for s in info.systems:
            rate = "n/a" if s.unjudged_rate is None else f"{s.unjudged_rate:.1%}"
            why = f" ({md(s.disagreement)})" if s.disagreement else ""
            out.append(
                f"| {md(s.system)} | {s.questions}/{info.judged} | {md(_depths(s))} | "
                f"{md(_dates(s))} | {rate} | {'yes' if s.fair else 'no'}{why} |"
            )
        out.append("")
    out += [f"- **{md(head)}**: {md(text)}" for head, text in _lines(info)]
    return sanitize.lines("\n".join(out) + "\n")
