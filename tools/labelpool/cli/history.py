"""``labelpool history QUESTION [DOC]``: who judged what, and when."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from labelpool.cli._common import EXIT_USAGE, RepoOption, app, fail, load_config


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
    from labelpool.report import history as report
    from labelpool.workflows.history import HistoryError, question_history

    if fmt not in ("text", "json"):
        fail(f"error: --format must be text or json, not {fmt!r}", EXIT_USAGE)
    if doc is not None and not doc.strip():
        fail("error: DOC is empty: give a document id, or leave it out", EXIT_USAGE)
    cfg = load_config(repo)
    try:
        result = question_history(cfg, question, doc)
    except HistoryError as exc:
        fail(f"error: {exc}")
    if fmt == "json":
        print(json.dumps(report.to_json(result), indent=2, ensure_ascii=False))
    else:
        print(report.render_text(result), end="")
