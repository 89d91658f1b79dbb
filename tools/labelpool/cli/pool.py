"""``labelpool pool RUN... --depth K``: write a judging batch of what the runs disagree on."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli import _lazy, _runs
from labelpool.cli._common import (
    NoCommitOption,
    RepoOption,
    ReportFormat,
    ReportFormatOption,
    WaitOption,
    app,
    check_at_least,
    check_cutoff,
    check_wait,
    load_config,
    usage_error,
    warn,
)
from labelpool.cli._progress import progress


@app.command("pool")
def pool(
    runs: Annotated[
        list[str] | None,
        typer.Argument(help="Run files or system names in runs/ (none with a task batch)."),
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth", metavar="K", help="Pool each run's top K (required).", show_default=False
        ),
    ] = None,
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
    fmt: ReportFormatOption = ReportFormat.text,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Text: also a line per question (to judge / union).")
    ] = False,
    judges: Annotated[
        int,
        typer.Option(
            "--judges",
            metavar="N",
            help="Judges per document: N seats, each with every document, blind (default 1).",
        ),
    ] = 1,
    assign: Annotated[
        str | None,
        typer.Option(
            "--assign",
            metavar="A,B,...",
            help="The judge of each seat, in order ('Name <email>' or a known email).",
        ),
    ] = None,
    adjudicate: Annotated[
        bool,
        typer.Option(
            "--adjudicate", help="A batch of every open dispute, for an adjudicator (no runs)."
        ),
    ] = False,
    second_opinion: Annotated[
        float | None,
        typer.Option(
            "--second-opinion",
            metavar="FRACTION",
            help="A batch of that share of the judged documents, stratified by question and "
            "grade, for another judge (no runs).",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", metavar="S", help="Seed of --second-opinion's sample.")
    ] = 0,
    of: Annotated[
        str,
        typer.Option(
            "--of",
            help="--second-opinion samples the documents judged by: machines (a machine "
            "alone), people, or all.",
        ),
    ] = "all",
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
    old_k: Annotated[int | None, typer.Option("-k", hidden=True)] = None,
) -> None:
    """Pool RUNs at --depth, write the unjudged remainder as a pending batch, and commit it on
    a new branch."""
    if old_k is not None:  # 0.1.0's short spelling: -k is a cut-off elsewhere, so no alias
        usage_error(
            f"pool's depth is --depth {old_k}: -k is not an option of pool (0.1.0 spelled the "
            "depth -k, which reads as the cut-off --k of the other commands)"
        )
    if of not in ("machines", "people", "all"):
        usage_error(f"--of must be one of machines, people, all, not {of!r}")
    if of != "all" and second_opinion is None:
        usage_error("--of chooses the documents of --second-opinion: only with it")
    task = adjudicate or second_opinion is not None
    if adjudicate and second_opinion is not None:
        usage_error("--adjudicate and --second-opinion make different batches: one at a time")
    if task and (runs or depth is not None or max_docs is not None):
        usage_error(
            "--adjudicate and --second-opinion batch judged documents: no runs, --depth or "
            "--max-docs"
        )
    if not task and not runs:
        usage_error("missing argument RUN... (the runs to pool)")
    if not task and depth is None:
        usage_error("missing option --depth K (pool each run's top K)")
    if second_opinion is not None and not 0 < second_opinion <= 1:
        usage_error(
            f"--second-opinion takes a fraction above 0 and at most 1, not {second_opinion}"
        )
    cfg = load_config(repo)
    check_wait(wait)
    if depth is not None:
        check_at_least("--depth", depth, 1)
        check_cutoff("--depth", depth)
    if max_docs is not None and max_docs < 0:
        usage_error(f"--max-docs must be >= 0, not {max_docs}")
    wanted = None
    if questions is not None:
        wanted = [q.strip() for q in questions.split(",") if q.strip()]
        if not wanted:
            usage_error(f"--questions {questions!r}: no question id given")
    check_at_least("--judges", judges, 1)
    assigned = [a.strip() for a in (assign or "").split(",") if a.strip()]
    if assign is not None and not assigned:
        usage_error(f"--assign {assign!r}: no judge given")
    specs = _runs.select(cfg, runs, takes_measures=False) if runs else []
    with progress("pooling"):
        pooled = _lazy.api_pool.pool(
            specs,
            depth=depth,
            max_docs=max_docs,
            questions=wanted,
            with_text=not no_text,
            write=True,
            commit=not no_commit,
            branch=branch,
            repo=cfg.root,
            wait=wait,
            judges=judges,
            assign=assigned,
            adjudicate=adjudicate,
            second_opinion=second_opinion,
            seed=seed,
            of=of,
        )
    result = pooled.result
    for note in result.notes:
        if note != "nothing to write":
            warn(note)
    report = _lazy.pool_report
    if fmt is ReportFormat.json:
        print(pooled.to_json(), end="")
        return
    if fmt is ReportFormat.markdown:
        out = report.markdown(result)
    else:
        out = report.text(result, verbose=verbose)
    print(out, end="")
