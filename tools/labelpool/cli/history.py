"""``labelpool history QUESTION [DOC]``: who judged what, and when."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, app, check_format, load_config, usage_error
from labelpool.cli._width import output_width
from labelpool.render import sanitize


@app.command("history")
def history(
    question: Annotated[str, typer.Argument(help="The question id (its label file's stem).")],
    doc: Annotated[
        str | None, typer.Argument(help="Only this document's judgment history.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    repo: RepoOption = None,
) -> None:
    """Each judgment of QUESTION (or of DOC): its verdict, who set it, when, in which batch,
    and what it was before. Honours .git-blame-ignore-revs."""
    check_format(fmt, ("text", "json"))
    if doc is not None and not doc.strip():
        usage_error("DOC is empty: give a document id, or leave it out")
    cfg = load_config(repo)
    result = _lazy.history_workflow.question_history(cfg, question, doc)
    report = _lazy.history_report
    if fmt == "json":
        print(sanitize.json_dumps(report.to_json(result), indent=2))
    else:
        print(sanitize.lines(report.render_text(result, output_width())), end="")
