"""Render :class:`~labelpool.scoring.SystemScore` results: table, JSON, CSV, markdown.

Public API (all pure: results in, text out):

* :class:`ScoreView`: what the output shows beside the scores (the labels' commit and whether
  it is dirty, the unjudged rate above which a system retrieves outside the pool, and whether
  every question is shown).
* :func:`document` ``(scores, view) -> dict``: the JSON document described by
  ``schema/score-report.schema.json``.
* :func:`render_json`, :func:`render_csv`, :func:`render_markdown`; each takes the same
  arguments as :func:`document`. The rich table for a terminal is
  :func:`labelpool.render.score.table.render_table`, a module of its own so that JSON, CSV and
  markdown output never import rich (0.04-0.08 s of CPU at start-up).
* :func:`table_rows`, :func:`per_question_rows`, :data:`LEGEND`: the cells every format shows;
  :func:`coverage_line`: the first line of text and markdown when some run and the labels
  differ in their questions (beside CSV on stderr).
* :func:`reading` ``(rate, high) -> str``: what an unjudged rate says about the system.

Each measure is shown as raw, judged-only (a sanity column, never the headline) and
optimistic (every unjudged document in the top k relevant), next to the unjudged rate.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from labelpool.render import coverage, disputes, machines, sanitize
from labelpool.render.fields import dirty_note
from labelpool.render.questions import question_notes
from labelpool.scoring import SystemScore
from labelpool.workflows.evaluate.coverage import of

SIDES = ("raw", "judged_only", "optimistic")
COVERED = "pool covers this system"
OUTSIDE = "retrieves outside the pool"


@dataclass(frozen=True)
class ScoreView:
    """What the output shows beside the scores."""

    labels_commit: str | None = None
    labels_dirty: bool | None = None
    high: float = 0.10  # cfg.readings.high
    per_query: bool = False
    preview: int | None = None  # score --with-pending: filled verdicts not merged


DEFAULT_VIEW = ScoreView()


def reading(rate: float, high: float) -> str:
    """``pool covers this system`` up to ``high`` (cfg.readings.high), else outside the pool."""
    return COVERED if rate <= high else OUTSIDE


def _f(value: Any) -> float:
    return float(value)


def disputes_note(scores: Sequence[SystemScore]) -> str | None:
    """The footnote of the disputed rate, once; None when the labels hold no open dispute."""
    policy = next((s.disputes for s in scores if s.disputed_seen is not None), None)
    if not scores or policy is None:
        return None
    return disputes.note(scores[0].k, policy)


def machine_note(scores: Sequence[SystemScore]) -> str | None:
    """The footnote of the machine-judged rate, once; None where no machine verdict counts."""
    if not scores or not any(s.machine_seen is not None for s in scores):
        return None
    return machines.note(scores[0].k, judges_of(scores))


def judges_of(scores: Sequence[SystemScore]) -> str:
    """Whose verdicts counted (``all`` unless the scores say ``machines``)."""
    return next((s.judges for s in scores if s.judges != "all"), "all")


def _machine_cell(s: SystemScore) -> str:
    rate = s.machine_rate
    return "" if rate is None else f"{rate:.1%}"


def _disputed_cell(s: SystemScore) -> str:
    rate = s.disputed_rate
    return "" if rate is None else f"{rate:.1%}"


def _system(s: SystemScore, high: float, per_query: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "system": s.system,
        "run": str(s.run_path),
        "run_sha256": s.run_sha256,
        "queries": len(s.qids),
        "skipped": {key: int(v) for key, v in s.skipped.items()},
        "coverage": coverage.to_json(of(s)),
        "unjudged_rate": _f(s.unjudged_rate),
        "reading": reading(s.unjudged_rate, high),
        **({} if s.disputed_rate is None else {"disputed_rate": _f(s.disputed_rate)}),
        **({} if s.machine_rate is None else {"machine_rate": _f(s.machine_rate)}),
        "measures": {
            name: {side: _f(getattr(m, side)) for side in SIDES} for name, m in s.means.items()
        },
        "warnings": list(s.warnings),
    }
    if per_query:
        out["per_query"] = {
            str(q): {
                "unjudged_rate": _f(s.unjudged[i]),
                **_per_question_disputed(s, i),
                **({} if s.machine is None else {"machine_rate": float(s.machine[i])}),
                "measures": {
                    name: {side: _f(values[side][i]) for side in SIDES}
                    for name, values in s.per_query.items()
                },
            }
            for i, q in enumerate(s.qids)
        }
    return out


def _per_question_disputed(s: SystemScore, i: int) -> dict[str, float]:
    return {} if s.disputed is None else {"disputed_rate": float(s.disputed[i])}


def document(scores: Sequence[SystemScore], view: ScoreView = DEFAULT_VIEW) -> dict[str, Any]:
    k = scores[0].k if scores else 10
    level = scores[0].relevance_level if scores else 1
    doc: dict[str, Any] = {
        "labels_commit": view.labels_commit,
        "labels_dirty": view.labels_dirty,
        "k": k,
        "relevance_level": level,
        "systems": [_system(s, view.high, view.per_query) for s in scores],
        "no_relevant": list(scores[0].no_relevant) if scores else [],
        "not_judged": list(scores[0].not_judged) if scores else [],
    }
    if view.preview is not None:
        doc["preview"] = {"filled_not_merged": view.preview}
    policy = next((s.disputes for s in scores if s.disputed_seen is not None), None)
    if policy is not None:
        doc["disputes"] = policy
    if any(s.judges != "all" for s in scores):
        doc["judges"] = judges_of(scores)
    return doc


def render_json(scores: Sequence[SystemScore], view: ScoreView = DEFAULT_VIEW) -> str:
    return sanitize.json_dumps(document(scores, view), indent=2) + "\n"


def _measure_names(scores: Sequence[SystemScore]) -> list[str]:
    names: list[str] = []
    for s in scores:
        for name in s.means:
            if name not in names:
                names.append(name)
    return names


def render_csv(scores: Sequence[SystemScore], view: ScoreView = DEFAULT_VIEW) -> str:
    """One row per system (``qid`` = ``all``), and with ``per_query`` one per question too."""
    names = _measure_names(scores)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    disputed = any(s.disputed_rate is not None for s in scores)
    header = ["system", "qid", "queries", "unjudged_rate", "reading"]
    header += ["disputed_rate"] if disputed else []
    machine = any(s.machine_rate is not None for s in scores)
    header += ["machine_rate"] if machine else []
    for name in names:
        header += [name, f"{name} judged_only", f"{name} optimistic"]
    writer.writerow(header)
    for s in scores:
        row: list[Any] = [
            sanitize.csv_cell(s.system),
            "all",
            len(s.qids),
            _num(s.unjudged_rate),
            reading(s.unjudged_rate, view.high),
        ]
        row += [_num(s.disputed_rate or 0.0)] if disputed else []
        row += [_num(s.machine_rate or 0.0)] if machine else []
        for name in names:
            m = s.means.get(name)
            row += [_num(getattr(m, side)) if m else "" for side in SIDES]
        writer.writerow(row)
        if view.per_query:
            for i, q in enumerate(s.qids):
                row = [
                    sanitize.csv_cell(s.system),
                    sanitize.csv_cell(q),
                    1,
                    _num(s.unjudged[i]),
                    "",
                ]
                row += (
                    [_num(_per_question_disputed(s, i).get("disputed_rate", 0.0))]
                    if disputed
                    else []
                )
                row += [_num(0.0 if s.machine is None else s.machine[i])] if machine else []
                for name in names:
                    values = s.per_query.get(name)
                    row += [_num(values[side][i]) if values else "" for side in SIDES]
                writer.writerow(row)
    return buffer.getvalue()


def _num(value: Any) -> str:
    return repr(float(value))


def _cell(s: SystemScore, name: str) -> str:
    m = s.means.get(name)
    if m is None:
        return ""
    if name.startswith("Judged"):
        return f"{m.raw:.3f}"
    return f"{m.raw:.3f} · {m.judged_only:.3f} · {m.optimistic:.3f}"


def table_rows(scores: Sequence[SystemScore], high: float) -> tuple[list[str], list[list[str]]]:
    names = _measure_names(scores)
    k = scores[0].k if scores else 10
    disputed = any(s.disputed_rate is not None for s in scores)
    header = ["system", "queries", f"unjudged@{k}", "reading"]
    header += [f"disputed@{k}"] if disputed else []
    machine = any(s.machine_rate is not None for s in scores)
    header += [f"machine@{k}"] if machine else []
    rows = [
        [
            s.system,
            str(len(s.qids)),
            f"{s.unjudged_rate:.1%}",
            reading(s.unjudged_rate, high),
            *([_disputed_cell(s)] if disputed else []),
            *([_machine_cell(s) or "0.0%"] if machine else []),
            *(_cell(s, name) for name in names),
        ]
        for s in scores
    ]
    return [*header, *names], rows


LEGEND = (
    "Each measure: raw · judged-only (unjudged dropped; sanity check) · optimistic (every "
    "unjudged document in the top k relevant). Neither side bounds what documents a system "
    "did not return could do."
)


def per_question_rows(s: SystemScore) -> tuple[list[str], list[list[str]]]:
    """The measures, and per question its id, unjudged rate and raw values (as shown)."""
    names = list(s.per_query)
    rows = [
        [str(q), f"{s.unjudged[i]:.1%}", *(f"{s.per_query[n]['raw'][i]:.3f}" for n in names)]
        for i, q in enumerate(s.qids)
    ]
    return names, rows


def coverage_line(scores: Sequence[SystemScore]) -> str | None:
    """The header line when some run and the labels differ in their questions (plain text)."""
    return coverage.line([of(s) for s in scores])


def render_markdown(scores: Sequence[SystemScore], view: ScoreView = DEFAULT_VIEW) -> str:
    header, rows = table_rows(scores, view.high)
    covered = coverage_line(scores)
    lines = (
        [] if covered is None else [sanitize.markdown(covered[:1].upper() + covered[1:]) + ".", ""]
    )
    lines += [
        "| " + " | ".join(sanitize.measure_name(cell) for cell in header) + " |",
        "|" + "|".join("---" if i < 1 or i == 3 else "---:" for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(sanitize.markdown(cell) for cell in row) + " |" for row in rows]
    lines += ["", LEGEND]
    for note in (disputes_note(scores), machine_note(scores)):
        if note is not None:
            lines += ["", sanitize.markdown(note[:1].upper() + note[1:]) + "."]
    if scores:
        lines += [
            "",
            *(
                sanitize.markdown(n) + "."
                for n in question_notes(scores[0].no_relevant, scores[0].not_judged)
            ),
        ]
    if view.labels_commit:
        lines.append(
            f"Labels at commit `{sanitize.code_span(view.labels_commit)}`"
            f"{dirty_note(view.labels_dirty)}."
        )
    if view.per_query:
        for s in scores:
            names, per_question = per_question_rows(s)
            lines += ["", f"### {sanitize.markdown(s.system)}", ""]
            lines.append(
                "| qid | unjudged | " + " | ".join(sanitize.measure_name(n) for n in names) + " |"
            )
            lines.append("|---|---:|" + "---:|" * len(names))
            lines += [
                "| " + " | ".join(sanitize.markdown(cell) for cell in row) + " |"
                for row in per_question
            ]
    return sanitize.lines("\n".join(lines) + "\n")
