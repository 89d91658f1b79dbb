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
    app,
    load_config,
    say,
    usage_error,
    warn,
)
from labelpool.cli._progress import progress


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
    no_commit: NoCommitOption = False,
    repo: RepoOption = None,
) -> None:
    """Fold filled verdicts of pending batches into the label lists, committed as their judges."""
    cfg = load_config(repo)
    reference = None
    if oracle is not None:
        reference = _lazy.oracle.read_qrels(oracle)
    elif oracle_missing is not OracleMissing.pending:
        usage_error("--oracle-missing needs --oracle")
    with progress("merging"):
        result = _lazy.merge_workflow.merge(
            cfg, oracle=reference, oracle_missing=oracle_missing.value, commit=not no_commit
        )
    for note in result.notes:
        warn(note)
    for c in result.commits:
        total = c.relevant + c.irrelevant + c.duplicates
        where = f"commit {c.commit[:12]}" if c.commit else "not committed"
        files = len(c.files)
        say(f"{c.judge}: {total} verdict{'' if total == 1 else 's'}, {where}")
        say(
            f"  {c.relevant} relevant, {c.irrelevant} irrelevant, {c.duplicates} duplicates; "
            f"{files} file{'' if files == 1 else 's'}"
        )
    if not result.commits:
        say("nothing to merge")
    if result.unresolved:
        say(f"still pending: {len(result.unresolved)}")
        for u in result.unresolved:
            say(f"  {u}")
    if reference is not None:
        say(_oracle_summary(result, committed=not no_commit))
    if result.unresolved and not partial:
        raise typer.Exit(1)


def _oracle_summary(result: _lazy.merge_workflow.MergeResult, *, committed: bool) -> str:
    """The last line of ``merge --oracle``: what was merged, and what stays pending and why."""
    n = result.folded
    where = (
        f"in {len(result.commits)} commit{'s' if len(result.commits) != 1 else ''}"
        if committed
        else "(not committed)"
    )
    line = f"merged {n} verdict{'s' if n != 1 else ''} {where}"
    unknown = result.unknown_to_oracle
    if unknown:
        line += (
            f"; {unknown} document{'s' if unknown != 1 else ''} unknown to the oracle stay "
            "pending (--oracle-missing irrelevant to count them as judged irrelevant)"
        )
    others = len(result.unresolved) - unknown
    if others:
        line += f"; {others} other entr{'ies' if others != 1 else 'y'} stay pending (listed above)"
    return line
