"""The score table for a terminal (rich): :func:`render_table`.

Apart from :mod:`labelpool.report.score` so that ``score --format json`` (or csv, markdown)
never imports rich; the cells are the ones every format shows
(:func:`~labelpool.report.score.table_rows`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from labelpool.report import sanitize
from labelpool.report.console import plain
from labelpool.report.score import (
    DEFAULT_VIEW,
    LEGEND,
    ScoreView,
    dirty_note,
    per_question_rows,
    table_rows,
)
from labelpool.scoring import SystemScore


def render_table(
    scores: Sequence[SystemScore], view: ScoreView = DEFAULT_VIEW, width: int | None = None
) -> str:
    """A rich table as plain text; ``width``: the terminal's (None: rows never wrap)."""
    header, rows = table_rows(scores, view.high)
    table = Table(title="labelpool score")
    for i, name in enumerate(header):
        table.add_column(plain(name), justify="left" if i in (0, 3) else "right", no_wrap=True)
    for row in rows:
        table.add_row(*(plain(cell) for cell in row))
    # no terminal width given (output to a file or a pipe): never wrap a row
    console = Console(file=io.StringIO(), width=width or 100_000, color_system=None)
    console.print(table)
    console.print(LEGEND, soft_wrap=width is None)
    if view.labels_commit:
        console.print(plain(f"labels at commit {view.labels_commit}{dirty_note(view)}"))
    if view.per_query:
        for s in scores:
            names, per_question = per_question_rows(s)
            detail = Table(title=plain(f"{sanitize.text(s.system)}: per question (raw)"))
            for col in ("qid", "unjudged", *names):
                detail.add_column(plain(col), justify="left" if col == "qid" else "right")
            for row in per_question:
                detail.add_row(*(plain(cell) for cell in row))
            console.print(detail)
    out = console.file
    assert isinstance(out, io.StringIO)
    return sanitize.lines("".join(line.rstrip() + "\n" for line in out.getvalue().splitlines()))
