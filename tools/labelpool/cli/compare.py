"""``labelpool compare BASELINE CHALLENGER`` / ``labelpool compare RUN... --baseline NAME``."""

from __future__ import annotations

import json
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


@app.command("compare")
def compare(
    runs: Annotated[
        list[str], typer.Argument(help="Run files or system names in runs/ (baseline first).")
    ],
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", help="Compare every other run against this system."),
    ] = None,
    measure: MeasuresOption = None,
    k: CutoffOption = 10,
    relevance_level: RelevanceLevelOption = 1,
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")] = (
        ReportFormat.text
    ),
    seed: SeedOption = 0,
    repo: RepoOption = None,
) -> None:
    """Compare systems: delta, both unjudged rates and their reading, significance, the range
    over unjudged documents, the judging cost and a verdict."""
    from labelpool import gitio, labelset, yamlio
    from labelpool import runs as runs_mod
    from labelpool.report import compare as report
    from labelpool.workflows import compare as workflow

    cfg = load_config(repo)
    if len(runs) < 2 and baseline is None:
        fail("error: compare needs two runs (BASELINE CHALLENGER) or --baseline NAME", EXIT_USAGE)
    if len(runs) > 2 and baseline is None:
        fail("error: with more than two runs, say which is the baseline: --baseline NAME", 2)
    parsed = comparison_options(measure, workflow.COMPARE_DEFAULT, k, relevance_level, seed)
    try:
        labels = labelset.load(cfg)
        loaded, base_name = workflow.load_runs(cfg, runs, baseline)
        result = workflow.compare(
            cfg,
            labels,
            loaded,
            baseline=base_name,
            measures=parsed,
            k=k,
            relevance_level=relevance_level,
            seed=seed,
            labels_commit=gitio.head_commit(cfg.root),
        )
    except runs_mod.RunError as exc:
        fail(f"error: {exc}", EXIT_USAGE if exc.line is None and not exc.path.exists() else 1)
    except (labelset.LabelSetError, yamlio.YamlError) as exc:
        fail(f"error: {exc}")
    except workflow.CompareError as exc:
        fail(f"error: {exc}", EXIT_USAGE)
    for note in result.warnings:
        warn(note)
    if fmt is ReportFormat.json:
        print(json.dumps(report.to_json(result), indent=2))
    elif fmt is ReportFormat.markdown:
        print(report.to_markdown(result), end="")
    else:
        report.render_text(result)
