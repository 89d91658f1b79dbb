"""``labelpool pool-info``: which systems built the set, and which it can fairly compare."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from labelpool.cli._common import EXIT_USAGE, RepoOption, app, fail, load_config


@app.command("pool-info")
def pool_info(
    k: Annotated[int, typer.Option("--k", help="The cut-off fairness is judged at.", min=1)] = 10,
    fmt: Annotated[str, typer.Option("--format", help="text, json or markdown.")] = "text",
    repo: RepoOption = None,
) -> None:
    """Systems pooled (depths, dates, questions), the systems the set can fairly compare at k
    (pooled at depth >= k on every judged question), the ones it was born from, questions of
    unknown origin and questions not judged yet."""
    from labelpool import labelset
    from labelpool.report import poolinfo as report
    from labelpool.workflows.poolinfo import pool_info as compute
    from labelpool.workflows.poolinfo import run_systems

    if fmt not in ("text", "json", "markdown"):
        fail(f"error: --format must be text, json or markdown, not {fmt!r}", EXIT_USAGE)
    cfg = load_config(repo)
    try:
        labels = labelset.load(cfg)
    except labelset.LabelSetError as exc:
        fail(f"error: {exc}")
    info = compute(labels, k, run_systems(cfg.runs_dir))
    if fmt == "json":
        print(json.dumps(report.to_json(info), indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        print(report.render_markdown(info), end="")
    else:
        print(report.render_text(info), end="")
