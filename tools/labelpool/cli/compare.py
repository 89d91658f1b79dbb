"""``labelpool compare BASELINE CHALLENGER`` / ``labelpool compare RUN... --baseline NAME``."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli import _common as common
from labelpool.cli import _lazy
from labelpool.cli._common import app, load_config, usage_error, warn
from labelpool.report import sanitize


@app.command("compare")
def compare(
    runs: Annotated[
        list[str], typer.Argument(help="Run files or system names in runs/ (baseline first).")
    ],
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", help="Compare every other run against this system."),
    ] = None,
    measure: common.MeasuresOption = None,
    k: common.CutoffOption = 10,
    relevance_level: common.RelevanceLevelOption = 1,
    fmt: common.ReportFormatOption = common.ReportFormat.text,
    seed: common.SeedOption = 0,
    repo: common.RepoOption = None,
) -> None:
    """Compare systems: delta, both unjudged rates and their reading, significance, the range
    over unjudged documents, the judging cost and a verdict."""
    cfg = load_config(repo)
    if len(runs) < 2 and baseline is None:
        usage_error("compare needs two runs (BASELINE CHALLENGER) or --baseline NAME")
    if len(runs) > 2 and baseline is None:
        usage_error("with more than two runs, say which is the baseline: --baseline NAME")
    common.comparison_options(measure, k, relevance_level, seed)
    result = _lazy.api_compare.compare(
        runs[0] if baseline is None else baseline,
        runs[1:] if baseline is None else runs,
        measures=measure,
        k=k,
        relevance_level=relevance_level,
        seed=seed,
        repo=cfg.root,
    ).result
    for note in result.warnings:
        warn(note)
    report = _lazy.compare_report
    if fmt is common.ReportFormat.json:
        print(sanitize.json_dumps(report.to_json(result), indent=2))
    elif fmt is common.ReportFormat.markdown:
        print(report.to_markdown(result), end="")
    else:
        report.render_text(result)
