"""``labelpool compare BASELINE CHALLENGER`` / ``labelpool compare RUN... --baseline NAME``."""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated

import typer

from labelpool.cli._common import (
    EXIT_USAGE,
    CutoffOption,
    MeasuresOption,
    RelevanceLevelOption,
    RepoOption,
    SeedOption,
    app,
    check_cutoff,
    fail,
    load_config,
    warn,
)


class CompareFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


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
    fmt: Annotated[CompareFormat, typer.Option("--format", help="Output format.")] = (
        CompareFormat.text
    ),
    seed: SeedOption = 0,
    repo: RepoOption = None,
) -> None:
    """Compare systems: delta, both unjudged rates and their reading, significance, the range
    over unjudged documents, the judging cost and a verdict."""
    from labelpool import gitio, labelset, measures, yamlio
    from labelpool import runs as runs_mod
    from labelpool.report import compare as report
    from labelpool.workflows import compare as workflow

    cfg = load_config(repo)
    if k < 1:
        fail(f"error: --k must be at least 1, not {k}", EXIT_USAGE)
    if relevance_level < 1:
        fail(f"error: --relevance-level must be at least 1, not {relevance_level}", EXIT_USAGE)
    if seed < 0:
        fail(f"error: --seed must be >= 0, not {seed}", EXIT_USAGE)
    if len(runs) < 2 and baseline is None:
        fail("error: compare needs two runs (BASELINE CHALLENGER) or --baseline NAME", EXIT_USAGE)
    if len(runs) > 2 and baseline is None:
        fail("error: with more than two runs, say which is the baseline: --baseline NAME", 2)
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    try:
        chosen = measures.parse(measure or list(workflow.COMPARE_DEFAULT))
    except measures.MeasureError as exc:
        fail(f"error: {exc}", EXIT_USAGE)
    for m in chosen:
        check_cutoff(f"the cut-off of {m.name}", m.depth(k))
    parsed = [m.name for m in chosen]
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
    if fmt is CompareFormat.json:
        print(json.dumps(report.to_json(result), indent=2))
    elif fmt is CompareFormat.markdown:
        print(report.to_markdown(result), end="")
    else:
        report.render_text(result)
