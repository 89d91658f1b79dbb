"""``labelpool check RUN --against REF``: the CI regression gate (exit 0, 1, 3; 2 usage)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli._common import (
    EXIT_USAGE,
    CutoffOption,
    MeasuresOption,
    RelevanceLevelOption,
    RepoOption,
    ReportFormat,
    SeedOption,
    app,
    comparison_options,
    fail,
    load_config,
    warn,
)


@app.command("check")
def check(
    run: Annotated[str, typer.Argument(help="The run file to check (or a system name).")],
    against: Annotated[
        str,
        typer.Option(
            "--against",
            help="Reference: a run file if one exists at this path, else a git revision whose "
            "copy of RUN is used.",
        ),
    ],
    measure: MeasuresOption = None,
    budget: Annotated[
        float,
        typer.Option(
            "--budget", help="Tolerated loss: fail when the CI's upper end is below -BUDGET."
        ),
    ] = 0.0,
    k: CutoffOption = 10,
    relevance_level: RelevanceLevelOption = 1,
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")] = (
        ReportFormat.text
    ),
    seed: SeedOption = 0,
    repo: RepoOption = None,
) -> None:
    """Exit 0 when RUN is not worse than REF, 1 when significantly worse, 3 when the comparison
    is not meaningful (unjudged rates), 2 on usage errors."""
    from labelpool import gitio, labelset, yamlio
    from labelpool import runs as runs_mod
    from labelpool.report import compare as report
    from labelpool.workflows import check as workflow
    from labelpool.workflows.compare import in_repo

    cfg = load_config(repo)
    if not budget >= 0 or budget == float("inf"):  # also refuses nan
        fail(f"error: --budget must be a number >= 0, not {budget}", EXIT_USAGE)
    parsed = comparison_options(measure, workflow.COMPARE_DEFAULT, k, relevance_level, seed)
    try:
        run_path = runs_mod.resolve(cfg, in_repo(cfg, run))
    except runs_mod.RunError as exc:
        fail(f"error: {exc}", EXIT_USAGE)
    try:
        labels = labelset.load(cfg)
        outcome = workflow.check(
            cfg,
            labels,
            Path(run_path),
            against,
            measures=parsed,
            budget=budget,
            k=k,
            relevance_level=relevance_level,
            seed=seed,
            labels_commit=gitio.head_commit(cfg.root),
        )
    except workflow.CheckError as exc:
        fail(f"error: {exc}", EXIT_USAGE)
    except runs_mod.RunError as exc:
        fail(f"error: {exc}")
    except (labelset.LabelSetError, yamlio.YamlError, gitio.GitError) as exc:
        fail(f"error: {exc}")
    for note in outcome.result.warnings:
        warn(note)
    if fmt is ReportFormat.json:
        doc = report.to_json(outcome.result)
        doc["check"] = {
            "status": outcome.status,
            "exit_code": outcome.exit_code,
            "reference": outcome.reference,
            "budget": budget,
            "reasons": list(outcome.reasons),
        }
        print(json.dumps(doc, indent=2))
    elif fmt is ReportFormat.markdown:
        print(report.to_markdown(outcome.result), end="")
        print(f"\n**check: {outcome.status}** against `{outcome.reference}`\n")
        for reason in outcome.reasons:
            print(f"- {reason}")
    else:
        report.render_text(outcome.result)
        print(f"check: {outcome.status} against {outcome.reference}")
        for reason in outcome.reasons:
            print(f"  {reason}")
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)
