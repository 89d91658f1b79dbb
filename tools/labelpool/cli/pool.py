"""``labelpool pool RUN... --depth K``: write a judging batch of what the runs disagree on."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    NoCommitOption,
    RepoOption,
    app,
    check_at_least,
    check_cutoff,
    load_config,
    usage_error,
    warn,
)
from labelpool.report import sanitize


class PoolFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


@app.command("pool")
def pool(
    runs: Annotated[list[str], typer.Argument(help="Run files or system names in runs/.")],
    depth: Annotated[int, typer.Option("--depth", "-k", help="Pool each run's top K.")],
    max_docs: Annotated[
        int | None,
        typer.Option(
            "--max-docs",
            help="Budget: at most N documents, those ranked highest across the runs first "
            "(best rank, then number of runs, then id).",
        ),
    ] = None,
    questions: Annotated[
        str | None, typer.Option("--questions", help="Only these question ids (Q1,Q2,...).")
    ] = None,
    no_text: Annotated[
        bool, typer.Option("--no-text", help="Leave question and chunk text out of the batch.")
    ] = False,
    no_commit: NoCommitOption = False,
    branch: Annotated[
        str | None, typer.Option("--branch", help="Branch name (default labelpool/batch-...).")
    ] = None,
    fmt: Annotated[PoolFormat, typer.Option("--format", help="Output format.")] = PoolFormat.text,
    repo: RepoOption = None,
) -> None:
    """Pool RUNs at --depth, write the unjudged remainder as a pending batch, and commit it on
    a new branch."""
    cfg = load_config(repo)
    check_at_least("--depth", depth, 1)
    check_cutoff("--depth", depth)
    if max_docs is not None and max_docs < 0:
        usage_error(f"--max-docs must be >= 0, not {max_docs}")
    wanted = None
    if questions is not None:
        wanted = [q.strip() for q in questions.split(",") if q.strip()]
        if not wanted:
            usage_error(f"--questions {questions!r}: no question id given")
    result = _lazy.api_pool.pool(
        runs,
        depth=depth,
        max_docs=max_docs,
        questions=wanted,
        with_text=not no_text,
        write=True,
        commit=not no_commit,
        branch=branch,
        repo=cfg.root,
    ).result
    for note in result.notes:
        if note != "nothing to write":
            warn(note)
    report = _lazy.pool_report
    if fmt is PoolFormat.json:
        print(sanitize.json_dumps(report.to_json(result), indent=2))
        return
    out = report.markdown(result) if fmt is PoolFormat.markdown else report.text(result)
    print(out, end="")
