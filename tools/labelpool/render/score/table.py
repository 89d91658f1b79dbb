"""The score table for a terminal: :func:`render_table`.

One row per system: its questions, the unjudged rate and each measure's raw value; with
``bounds`` each measure also judged-only and optimistic. The table fits ``width``: the measures
that do not fit go to a second table below (a measure's columns stay together); ``width`` None
(``--wide``) is one table. Above the table, a line when some run and the labels differ in their
questions (:func:`labelpool.render.coverage.line`). ``per_query`` adds a table per system with
a row per question, on the same rules. A module of its own (rich) so that JSON, CSV and
markdown never import rich.
"""

from __future__ import annotations

from collections.abc import Sequence

from labelpool.render import sanitize
from labelpool.render.fields import dirty_note
from labelpool.render.layout import table, wrap
from labelpool.render.questions import question_notes
from labelpool.render.score.formats import (
    DEFAULT_VIEW,
    OUTSIDE,
    ScoreView,
    coverage_line,
    disputes_note,
    machine_note,
    reading,
)
from labelpool.scoring import SystemScore

SIDES = ("raw", "judged_only", "optimistic")
SIDE_NAMES = {"raw": "raw", "judged_only": "judged-only", "optimistic": "optimistic"}
BOUNDS_LEGEND = (
    "judged-only: unjudged documents dropped (a sanity check); optimistic: every unjudged "
    "document in the top k relevant. Neither bounds what documents a system did not return "
    "could do."
)


def _names(scores: Sequence[SystemScore]) -> list[str]:
    names: list[str] = []
    for s in scores:
        names += [n for n in s.means if n not in names]
    return names


def _sides(name: str, bounds: bool) -> tuple[str, ...]:
    return SIDES if bounds and not name.startswith("Judged") else ("raw",)


def _measure_columns(names: Sequence[str], bounds: bool) -> tuple[list[str], list[int]]:
    """Header cells of the measures' columns and the size of each measure's group."""
    header: list[str] = []
    groups: list[int] = []
    for name in names:
        sides = _sides(name, bounds)
        header += [f"{name}\n{SIDE_NAMES[s]}" if bounds else name for s in sides]
        groups.append(len(sides))
    return header, groups


def _values(s: SystemScore, names: Sequence[str], bounds: bool, i: int | None) -> list[str]:
    """The measure cells of system ``s``: its means, or question ``i``'s values."""
    out = []
    for name in names:
        for side in _sides(name, bounds):
            if i is None:
                m = s.means.get(name)
                out.append("" if m is None else f"{getattr(m, side):.3f}")
            else:
                values = s.per_query.get(name)
                out.append("" if values is None else f"{values[side][i]:.3f}")
    return out


def render_table(
    scores: Sequence[SystemScore],
    view: ScoreView = DEFAULT_VIEW,
    width: int | None = 80,
    bounds: bool = False,
) -> str:
    """The systems' scores as text no wider than ``width`` (None: no bound)."""
    names = _names(scores)
    k = scores[0].k if scores else 10
    measure_header, groups = _measure_columns(names, bounds)
    disputed = any(s.disputed_rate is not None for s in scores)
    machine = any(s.machine_rate is not None for s in scores)
    fixed = [
        "system",
        "questions",
        f"unjudged@{k}",
        *([f"disputed@{k}"] if disputed else []),
        *([f"machine@{k}"] if machine else []),
    ]
    header = [f"\n{h}" if bounds else h for h in fixed] + measure_header
    rows = [
        [
            s.system,
            str(len(s.qids)),
            f"{s.unjudged_rate:.1%}",
            *([f"{s.disputed_rate or 0.0:.1%}"] if disputed else []),
            *([f"{s.machine_rate or 0.0:.1%}"] if machine else []),
            *_values(s, names, bounds, None),
        ]
        for s in scores
    ]
    right = range(1, len(header))
    covered = coverage_line(scores)
    lines = [] if covered is None else wrap(covered, width)
    lines += table(header, rows, width, keep=len(fixed), right=right, groups=groups)
    outside = [s.system for s in scores if reading(s.unjudged_rate, view.high) == OUTSIDE]
    lines.append("")
    if outside:
        lines += wrap(
            f"{', '.join(outside)} {'retrieves' if len(outside) == 1 else 'retrieve'} outside "
            f"the pool (unjudged@{k} above {view.high:.0%}): raw scores count every unjudged "
            "document as a miss" + ("" if bounds else " (--bounds: judged-only and optimistic)"),
            width,
        )
    else:
        lines += wrap(f"the pool covers every system (unjudged@{k} at most {view.high:.0%})", width)
    if bounds:
        lines += wrap(BOUNDS_LEGEND, width)
    for footnote in (disputes_note(scores), machine_note(scores)):
        if footnote is not None:
            lines += wrap(footnote, width)
    if scores:
        for note in question_notes(scores[0].no_relevant, scores[0].not_judged):
            lines += wrap(note, width)
    if view.labels_commit:
        lines += wrap(
            f"labels at commit {view.labels_commit}{dirty_note(view.labels_dirty)}", width
        )
    if view.per_query:
        for s in scores:
            lines += ["", *wrap(f"{s.system}: per question", width)]
            per_fixed = [
                "question",
                "unjudged",
                *(["disputed"] if s.disputed is not None else []),
                *(["machine"] if s.machine is not None else []),
            ]
            per_header = [*per_fixed, *measure_header]
            per_rows = [
                [
                    str(q),
                    f"{s.unjudged[i]:.1%}",
                    *([f"{s.disputed[i]:.1%}"] if s.disputed is not None else []),
                    *([f"{s.machine[i]:.1%}"] if s.machine is not None else []),
                    *_values(s, names, bounds, i),
                ]
                for i, q in enumerate(s.qids)
            ]
            if bounds:
                per_header[: len(per_fixed)] = [f"\n{h}" for h in per_fixed]
            lines += table(
                per_header,
                per_rows,
                width,
                keep=len(per_fixed),
                right=range(1, len(per_header)),
                groups=groups,
            )
    return sanitize.lines("".join(line.rstrip() + "\n" for line in lines))
