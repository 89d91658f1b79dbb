"""``labelpool todo [--batch B] [--mine]``: what is left to judge, and where to go next."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, app, load_config
from labelpool.render import sanitize


class TodoFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("todo")
def todo_command(
    batch: Annotated[
        str | None, typer.Option("--batch", help="Only this pending batch (its name).")
    ] = None,
    mine: Annotated[
        bool,
        typer.Option(
            "--mine",
            help="Also count the filled verdict lines last changed by you (git blame; "
            "uncommitted lines count as yours).",
        ),
    ] = False,
    fmt: Annotated[TodoFormat, typer.Option("--format", help="Output format.")] = TodoFormat.text,
    repo: RepoOption = None,
) -> None:
    """Per pending batch and question: verdicts filled / total, and the first empty verdict
    (next: path:line). Exit 0."""
    cfg = load_config(repo)
    result = _lazy.todo_workflow.todo(cfg, batch=batch, mine=mine)
    report = _lazy.todo_report
    if fmt is TodoFormat.json:
        print(sanitize.json_dumps(report.to_json(result), indent=2))
    else:
        print(report.render_text(result), end="")
