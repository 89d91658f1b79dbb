"""``labelpool report RUN... [--baseline NAME] [-o report.html]``: one self-contained HTML
report with plots (the ``[report]`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _common as common
from labelpool.cli import _lazy, _runs
from labelpool.cli._common import app, load_config, say, usage_error, warn

EXTRA = "pip install 'labelpool[report]'"


@app.command("report")
def report(
    # shape kept: typer declares options per command (compare's, from the same _common aliases)
    runs: common.ComparedRunsArgument,
    baseline: common.BaselineOption = None,
    measure: common.MeasuresOption = None,
    k: common.CutoffOption = 10,
    relevance_level: common.RelevanceLevelOption = 1,
    seed: common.SeedOption = 0,
    output: Annotated[
        Path, typer.Option("-o", "--output", help="The HTML file (replaced whole).")
    ] = Path("report.html"),
    repo: common.RepoOption = None,
) -> None:
    """Write one self-contained HTML report: the verdicts in words, the scores with their
    unjudged rates, plots of the first measure per question, the documents to judge first,
    each question's rankings side by side, the pool and the label history."""
    cfg = load_config(repo)
    common.comparison_options(measure, k, relevance_level, seed)
    specs = _runs.select(cfg, runs, measure)
    try:
        build = _lazy.report_build
    except ImportError as exc:
        if (exc.name or "").split(".")[0] != "matplotlib":
            raise
        usage_error(f"labelpool report draws its plots with matplotlib: {EXTRA}")
    repository = _lazy.api_repo.Repository(cfg, _lazy.labelset.scored(cfg))
    data = build.write(
        repository,
        specs,
        output,
        baseline=baseline,
        measures=measure,
        k=k,
        relevance_level=relevance_level,
        seed=seed,
    )
    if data.compared is not None:
        for note in data.compared.warnings:
            warn(note)
    say(f"wrote {output}")
