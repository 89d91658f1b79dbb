"""``labelpool add ID "question text"``."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, WaitOption, app, check_wait, load_config, say


@app.command("add")
def add_command(
    qid: Annotated[str, typer.Argument(metavar="ID", help="Question id (the file's stem).")],
    question: Annotated[str, typer.Argument(help="The question text.")],
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Create labels/ID.yaml for a question nobody has judged yet."""
    check_wait(wait)
    cfg = load_config(repo)
    workflow = _lazy.import_workflow
    path = workflow.add_question(
        cfg.labels_dir, qid, question, limits=workflow.limits_of(cfg), wait=wait
    )
    say(f"created {_lazy.validate_warm.display(path)}")  # relative, as init and validate print
