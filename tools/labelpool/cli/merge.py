"""``labelpool merge``: fold filled verdicts into the labels, one commit per judge."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    NoCommitOption,
    RepoOption,
    WaitOption,
    app,
    check_wait,
    load_config,
    say,
    usage_error,
    warn,
)
from labelpool.cli._progress import progress
from labelpool.cli._width import output_width


class OracleMissing(str, Enum):
    pending = "pending"
    irrelevant = "irrelevant"


@app.command("merge")
def merge(
    partial: Annotated[
        bool, typer.Option("--partial", help="Exit 0 even when verdicts are still missing.")
    ] = False,
    oracle: Annotated[
        Path | None,
        typer.Option(
            "--oracle", help="Fill empty verdicts from this reference qrels file.", dir_okay=False
        ),
    ] = None,
    oracle_missing: Annotated[
        OracleMissing,
        typer.Option(
            "--oracle-missing",
            help="Documents the reference does not know: stay pending, or count as irrelevant.",
        ),
    ] = OracleMissing.pending,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="List every entry still pending.")
    ] = False,
    no_commit: NoCommitOption = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Fold filled verdicts of pending batches into the label lists, committed as their judges."""
    check_wait(wait)
    cfg = load_config(repo)
    reference = None
    if oracle is not None:
        reference = _lazy.oracle.read_qrels(oracle)
    elif oracle_missing is not OracleMissing.pending:
        usage_error("--oracle-missing needs --oracle")
    with progress("merging"):
        result = _lazy.merge_workflow.merge(
            cfg,
            oracle=reference,
            oracle_missing=oracle_missing.value,
            commit=not no_commit,
            wait=wait,
        )
    for note in result.notes:
        warn(note)
    render = _lazy.merge_report
    for line in render.judge_lines(result.commits):
        say(line)
    for line in render.pending_lines(result.unresolved, verbose=verbose, width=output_width()):
        say(line)
    if reference is not None:
        say(render.oracle_line(result, committed=not no_commit))
    for line in render.dispute_lines(result.disputes, verbose=verbose, width=output_width()):
        say(line)
    if result.unresolved and not partial:
        raise typer.Exit(1)
