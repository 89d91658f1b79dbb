"""``labelpool add ID "question text"``."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli._common import EXIT_FINDINGS, EXIT_USAGE, RepoOption, app, fail, load_config


@app.command("add")
def add_command(
    qid: Annotated[str, typer.Argument(metavar="ID", help="Question id (the file's stem).")],
    question: Annotated[str, typer.Argument(help="The question text.")],
    repo: RepoOption = None,
) -> None:
    """Create labels/ID.yaml for a question nobody has judged yet."""
    from labelpool.workflows.importing import ImportFailed, add_question

    cfg = load_config(repo)
    try:
        path = add_question(cfg.labels_dir, qid, question)
    except ImportFailed as exc:
        fail(f"error: {exc}", EXIT_USAGE if exc.usage else EXIT_FINDINGS)
    print(f"created {path}")
