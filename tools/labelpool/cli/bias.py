"""``labelpool bias``: the leave-one-system-out pool-bias audit."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from labelpool.cli._common import EXIT_USAGE, RepoOption, app, check_cutoff, fail, load_config

FORMATS = ("text", "json", "markdown")


@app.command("bias")
def bias(
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
    fmt: Annotated[str, typer.Option("--format", help="text, json or markdown.")] = "text",
    repo: RepoOption = None,
) -> None:
    """Leave each pooled system out of the pool: how much do it and the ranking move?

    For each pooled system with a committed run in runs/, the judgments only it contributed
    (its top k, at its pool depth, that no other pooled system's top k holds) are removed and
    every system with a run is rescored. Needs a committed run for every pooled system and at
    least two pooled systems (exit 1 saying which are missing otherwise).
    """
    if fmt not in FORMATS:
        fail(f"error: --format must be one of {', '.join(FORMATS)} (got {fmt!r})", EXIT_USAGE)
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    cfg = load_config(repo)

    from labelpool import labelset
    from labelpool.report import bias as render
    from labelpool.runs import RunError
    from labelpool.workflows import bias as workflow
    from labelpool.workflows.provenance import ProvenanceError

    try:
        measure = workflow.canonical_measure(measure)
    except ValueError as exc:
        fail(f"error: -m: {exc}", EXIT_USAGE)
    from labelpool import measures as measures_mod

    check_cutoff(f"the cut-off of {measure}", measures_mod.parse([measure])[0].depth(k))
    try:
        labels = labelset.load(cfg)
        report = workflow.audit(cfg, labels, measure=measure, k=k, relevance_level=relevance_level)
    except (workflow.BiasError, ProvenanceError, RunError, labelset.LabelSetError) as exc:
        fail(f"error: {exc}")
    if fmt == "json":
        sys.stdout.write(render.render_json(report))
    elif fmt == "markdown":
        sys.stdout.write(render.render_markdown(report))
    else:
        sys.stdout.write(render.render_text(report))
