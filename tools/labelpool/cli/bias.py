"""``labelpool bias``: the leave-one-system-out pool-bias audit."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    LooseFormatOption,
    RepoOption,
    app,
    check_cutoff,
    load_config,
    usage_error,
)
from labelpool.cli._progress import progress
from labelpool.cli._width import output_width

FORMATS = ("text", "json", "markdown")


@app.command("bias", context_settings={"allow_extra_args": True})
def bias(
    ctx: typer.Context,
    k: Annotated[
        int,
        typer.Option("--k", min=1, help="Cutoff for the unjudged rate (and measures without one)."),
    ] = 10,
    measure: Annotated[
        str, typer.Option("-m", "--measure", help="The measure to rescore with (ir_measures name).")
    ] = "nDCG@10",
    relevance_level: Annotated[
        int, typer.Option("--relevance-level", min=1, help="As trec_eval's -l.")
    ] = 1,
    fmt: LooseFormatOption = "text",
    repo: RepoOption = None,
) -> None:
    """Leave each pooled system out of the pool: how much do it and the ranking move?

    For each pooled system with a committed run in runs/, the judgments only it contributed
    (its top k, at its pool depth, that no other pooled system's top k holds) are removed and
    every system with a run is rescored. Needs a committed run for every pooled system and at
    least two pooled systems (exit 1 saying which are missing otherwise).
    """
    extra = list(ctx.args)
    if extra:  # bias takes no runs: it rescores every run of runs/
        if _lazy.run_args.is_measure(extra[0]):
            usage_error(f"{extra[0]} is a measure, not a run; bias rescores one measure (-m)")
        usage_error(f"unexpected argument {extra[0]!r}: bias scores every run in runs/")
    if fmt not in FORMATS:
        usage_error(f"--format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    cfg = load_config(repo)
    workflow = _lazy.bias_workflow
    try:
        chosen = _lazy.measures.parse_one(measure)
    except _lazy.measures.MeasureError as exc:  # the prefix says which option
        usage_error(f"-m: {exc}")
    check_cutoff(f"the cut-off of {chosen.name}", chosen.depth(k))
    with progress("auditing"):
        report = workflow.audit_loading(
            cfg,
            lambda: _lazy.labelset.scored(cfg),
            measure=chosen,
            k=k,
            relevance_level=relevance_level,
        )
    render = _lazy.bias_report
    if fmt == "json":
        sys.stdout.write(render.render_json(report))
    elif fmt == "markdown":
        sys.stdout.write(render.render_markdown(report))
    else:
        sys.stdout.write(render.render_text(report, output_width()))
