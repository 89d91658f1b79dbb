"""``labelpool pool-info``: which systems built the set, and which it can fairly compare."""

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
    say,
)
from labelpool.cli._width import output_width


@app.command("pool-info")
def pool_info(
    k: Annotated[int, typer.Option("--k", help="The cut-off fairness is judged at.", min=1)] = 10,
    fmt: LooseFormatOption = "text",
    baseline: Annotated[
        bool,
        typer.Option(
            "--baseline",
            help="Print only the system CI compares against: [tool.labelpool] baseline, else "
            "the one with a run in runs/ pooled on the most questions (nothing if none).",
        ),
    ] = False,
    repo: RepoOption = None,
) -> None:
    """Systems pooled (depths, dates, questions), the systems the set can fairly compare at k
    (pooled at depth >= k on every judged question), the ones it was born from, questions of
    unknown origin and questions not judged yet."""
    check_format(fmt, ("text", "json", "markdown"))
    cfg = load_config(repo)
    labels = _lazy.labelset.load(cfg)
    workflow = _lazy.poolinfo_workflow
    if baseline:
        name = workflow.ci_baseline(cfg, labels)
        if name is not None:
            say(name)
        return
    measured = workflow.measure_runs(cfg, labels, workflow.pooled_systems(labels), k)
    info = workflow.pool_info(labels, k, workflow.run_systems(cfg.runs_dir), measured)
    report = _lazy.poolinfo_report
    width = output_width()
    print_report(
        fmt, info, report.to_json, report.render_markdown, lambda i: report.render_text(i, width)
    )
