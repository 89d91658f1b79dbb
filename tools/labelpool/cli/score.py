"""``labelpool score RUN...``: every measure raw, judged-only and optimistic, with the unjudged
rate and its reading, one row per system."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from labelpool.cli import _lazy, _runs
from labelpool.cli import _trec_eval as score_trec_eval
from labelpool.cli._common import (
    CutoffOption,
    DisputesOption,
    JudgeOption,
    JudgesOption,
    MeasuresOption,
    RelevanceLevelOption,
    RepoOption,
    app,
    check_cutoff,
    check_measure_cutoffs,
    load_config,
    parse_measures,
    say,
    usage_error,
    warn,
)
from labelpool.cli._progress import progress
from labelpool.cli._width import output_width
from labelpool.words import counted

FORMATS = ("text", "json", "csv", "markdown", "trec_eval")
ALIASES = {"table": "text"}  # 0.1.0's name of the text format, kept


@app.command("score")
def score(
    runs: Annotated[
        list[str],
        typer.Argument(
            help="Run files (TREC or JSON Lines, gzip allowed) or system names in runs/."
        ),
    ],
    measure: MeasuresOption = None,
    k: CutoffOption = 10,
    relevance_level: RelevanceLevelOption = 1,
    per_query: Annotated[
        bool, typer.Option("--per-query", help="Also show every question.")
    ] = False,
    bounds: Annotated[
        bool,
        typer.Option(
            "--bounds", help="Table: also each measure's judged-only and optimistic values."
        ),
    ] = False,
    wide: Annotated[
        bool,
        typer.Option("--wide", help="Table: ignore the width ($COLUMNS, the terminal's, 80)."),
    ] = False,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", help="text, json, csv, markdown or trec_eval (table: an alias of text)."
        ),
    ] = "text",
    complete: Annotated[
        bool,
        typer.Option("--complete", help="trec_eval -c: a missing question is an empty ranking."),
    ] = False,
    max_depth: Annotated[
        int | None, typer.Option("--max-depth", help="trec_eval -M: only the first N documents.")
    ] = None,
    judged_only: Annotated[
        bool, typer.Option("--judged-only", help="trec_eval -J: unjudged documents dropped.")
    ] = False,
    name: Annotated[
        list[str] | None,
        typer.Option("--name", help="System name for each run, in order (default: file name)."),
    ] = None,
    with_pending: Annotated[
        bool,
        typer.Option(
            "--with-pending",
            help="Score as if the filled verdicts of the working tree were merged (a preview: "
            "nothing is written).",
        ),
    ] = False,
    judge: JudgeOption = None,
    disputes: DisputesOption = None,
    judges: JudgesOption = None,
    repo: RepoOption = None,
) -> None:
    """Score runs against the labels: raw, judged-only and optimistic, and the unjudged rate."""
    fmt = ALIASES.get(fmt, fmt)
    if fmt not in FORMATS:
        usage_error(f"--format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    if k < 1:
        usage_error(f"--k must be at least 1 (got {k})")
    if relevance_level < 1:
        usage_error(f"--relevance-level must be at least 1 (got {relevance_level})")
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    score_trec_eval.check_trec_only(fmt, complete, max_depth, judged_only)
    names = list(name or [])
    if with_pending and fmt == "trec_eval":
        usage_error("--with-pending: not with --format trec_eval (trec_eval reads the qrels)")
    if fmt == "trec_eval" and (judge is not None or disputes is not None or judges is not None):
        usage_error(
            "--judge, --judges and --disputes: not with --format trec_eval (it reads the qrels)"
        )
    if fmt == "trec_eval":
        score_trec_eval.run(
            runs, measure, relevance_level, per_query, complete, max_depth, judged_only, names, repo
        )
        return
    chosen = parse_measures(measure or list(_lazy.measures.SCORE_DEFAULT))
    check_measure_cutoffs(chosen, k)
    cfg = load_config(repo)
    paths = _runs.select_paths(cfg, runs, measure)  # 0.1.0: a missing run is exit 1 here
    with progress("scoring", total=len(paths)) as advance:
        report = _lazy.api_score.score(
            paths,
            measures=measure or list(_lazy.measures.SCORE_DEFAULT),
            k=k,
            relevance_level=relevance_level,
            names=names or None,
            per_query=per_query,
            repo=cfg.root,
            with_pending=with_pending,
            on_progress=advance,
            judge=judge,
            disputes=disputes,
            judges=judges,
        )
    results, view = list(report.systems), report.view
    notes: list[str] = []
    for result in results:
        notes += result.warnings
        missing = result.skipped["missing_from_run"]
        if missing:
            notes.append(
                f"{result.system}: {missing} judged question(s) missing from the run score 0"
            )
    for message in dict.fromkeys(notes):  # one warning once (a pending batch: every system)
        warn(message)

    render = _lazy.score_report
    if view.preview is not None and fmt != "json":
        # the first line of text and markdown; beside CSV (a table only) on stderr
        line = f"preview: {counted(view.preview, 'filled verdict')} not merged"
        print(line, file=sys.stderr if fmt == "csv" else sys.stdout)
        if fmt == "markdown":
            print()
    covered = render.coverage_line(results)
    if covered is not None and fmt == "csv":  # text and markdown: their first line
        say(covered, err=True)
    if fmt == "json":
        sys.stdout.write(report.to_json())
    elif fmt == "csv":
        sys.stdout.write(render.render_csv(results, view))
    elif fmt == "markdown":
        sys.stdout.write(render.render_markdown(results, view))
    else:
        sys.stdout.write(
            _lazy.score_table.render_table(results, view, width=output_width(wide), bounds=bounds)
        )
