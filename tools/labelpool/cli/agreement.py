"""``labelpool agreement``: how far the judges agree (alpha, kappa, AC2, raw agreement, per
pair and per judge), the open disputes, and with ``--runs`` what the judges' differences do to
the systems' ranking."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    LooseFormatOption,
    RepoOption,
    app,
    check_format,
    load_config,
    print_report,
    usage_error,
)
from labelpool.cli._progress import progress
from labelpool.cli._width import output_width

FORMATS = ("text", "json", "markdown")


@app.command("agreement", context_settings={"allow_extra_args": True})
def agreement(
    ctx: typer.Context,
    judges: Annotated[
        list[str] | None,
        typer.Option(
            "--judges",
            help="Only these judges, comma-separated or repeated: 'Name <email>', a "
            "person's email alone, a machine's identity, machine:NAME (each identity of a "
            "machine judge) or people (every person as one rater; a document then needs "
            "verdicts by two of them).",
        ),
    ] = None,
    question_pattern: Annotated[
        str | None,
        typer.Option(
            "--question-pattern",
            help="Only questions whose id this RE2 pattern finds (search, not full match).",
        ),
    ] = None,
    runs: Annotated[
        list[str] | None,
        typer.Option(
            "--runs",
            help="Runs (files or system names in runs/): each system's score under each "
            "judge's labels, and Kendall's tau between the judges' rankings. --runs A B C.",
        ),
    ] = None,
    measure: Annotated[
        str, typer.Option("-m", "--measure", help="The measure of --runs.")
    ] = "nDCG@10",
    k: Annotated[int, typer.Option("--k", help="Cut-off of a measure without one.")] = 10,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap resamples of the questions (0: none).")
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the resampling.")] = 0,
    fmt: LooseFormatOption = "text",
    wide: Annotated[
        bool, typer.Option("--wide", help="Ignore the width ($COLUMNS, the terminal's, 80).")
    ] = False,
    repo: RepoOption = None,
) -> None:
    """Agreement between judges over every document with verdicts by two or more of them.

    Krippendorff's alpha (ordinal on grades, nominal on relevance), Gwet's AC2 (quadratic
    weights) and AC1 (relevance), raw agreement; per pair of judges Cohen's kappa (relevance,
    and quadratic weights on grades) and the confusion matrix; 95% bootstrap intervals
    resampling questions. Per judge: the odd one out and the grades given. Open disputes by
    question. Adjudicators' verdicts are left out.
    """
    check_format(fmt, FORMATS)
    extra = list(ctx.args)
    if extra and runs is None:
        usage_error(f"unexpected argument {extra[0]!r}: runs go after --runs")
    chosen_runs = [*(runs or []), *extra]
    cfg = load_config(repo)
    with progress("measuring agreement"):
        result = _lazy.api_agreement.agreement(
            judges=judges,
            question_pattern=question_pattern,
            runs=chosen_runs,
            measure=measure,
            k=k,
            bootstrap=bootstrap,
            seed=seed,
            repo=cfg.root,
        )
    print_report(
        fmt,
        result,
        lambda r: r.to_dict(),
        lambda r: r.to_markdown(),
        lambda r: r.to_text(output_width(wide)),
    )
