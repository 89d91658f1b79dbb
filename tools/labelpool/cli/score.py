"""``labelpool score RUN...``: every measure raw, judged-only and optimistic, with the unjudged
rate and its reading, one row per system."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Annotated, Any

import typer

from labelpool.cli import _lazy, score_trec_eval
from labelpool.cli._common import (
    CutoffOption,
    MeasuresOption,
    RelevanceLevelOption,
    RepoOption,
    app,
    check_cutoff,
    check_measure_cutoffs,
    load_config,
    parse_measures,
    usage_error,
    warn,
)

FORMATS = ("table", "json", "csv", "markdown", "trec_eval")
PROGRESS_AFTER = 1.0  # seconds: shorter jobs show no progress bar


@app.command("score", bare_errors=True)
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
    fmt: Annotated[
        str, typer.Option("--format", help="table, json, csv, markdown or trec_eval.")
    ] = "table",
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
    repo: RepoOption = None,
) -> None:
    """Score runs against the labels: raw, judged-only and optimistic, and the unjudged rate."""
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
    if names and len(names) != len(runs):
        usage_error(
            f"--name given {len(names)} time(s) for {len(runs)} run(s); "
            "give one name per run, in order"
        )
    if fmt == "trec_eval":
        score_trec_eval.run(
            runs, measure, relevance_level, per_query, complete, max_depth, judged_only, names, repo
        )
        return
    chosen = parse_measures(measure or list(_lazy.measures.DEFAULT))
    check_measure_cutoffs(chosen, k)
    cfg = load_config(repo)
    runs_mod = _lazy.runs
    paths: list[Path] = []
    for spec in runs:
        try:
            paths.extend(runs_mod.expand(cfg, spec))
        except runs_mod.RunNotFound as exc:  # 0.1.0: score alone exits 1 for a missing run
            raise runs_mod.RunError(exc.path, exc.line, exc.message) from None
    system_names = names or [runs_mod.system_name(p) for p in paths]
    seen: dict[str, Path] = {}
    for system, path in zip(system_names, paths, strict=True):
        if system in seen:
            usage_error(
                f"two runs are named {system!r} ({seen[system]}, {path}); "
                "use --name to tell them apart"
            )
        seen[system] = path
    with _progress(paths) as advance:
        report = _lazy.api_score.score(
            paths,
            measures=measure,
            k=k,
            relevance_level=relevance_level,
            names=system_names,
            per_query=per_query,
            repo=cfg.root,
            on_progress=advance,
        )
    results, view = list(report.systems), report.view
    for result in results:
        for message in result.warnings:
            warn(message)
        missing = result.skipped["missing_from_run"]
        if missing:
            warn(f"{result.system}: {missing} judged question(s) missing from the run score 0")

    render = _lazy.score_report
    if fmt == "json":
        sys.stdout.write(render.render_json(results, view))
    elif fmt == "csv":
        sys.stdout.write(render.render_csv(results, view))
    elif fmt == "markdown":
        sys.stdout.write(render.render_markdown(results, view))
    else:
        width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
        sys.stdout.write(_lazy.score_table.render_table(results, view, width=width))


class _progress:
    """A rich progress bar on stderr that appears only once the work has taken a second."""

    def __init__(self, paths: list[Path]) -> None:
        self.total = len(paths)
        self.progress: Any = None
        self.timer: Any = None

    def __enter__(self) -> Any:
        if not _may_be_terminal():
            return _no_progress  # rich (0.04-0.08 s to import) would show nothing
        console = _lazy.rich_console.Console(stderr=True)
        # on a terminal only: a log or a pipe gets no bar (and no stray blank line)
        self.progress = _lazy.rich_progress.Progress(
            console=console, transient=True, disable=not console.is_terminal
        )
        self.task = self.progress.add_task("scoring", total=self.total)
        self.timer = threading.Timer(PROGRESS_AFTER, self.progress.start)
        self.timer.daemon = True
        self.timer.start()
        return self.advance

    def advance(self) -> None:
        self.progress.advance(self.task)

    def __exit__(self, *exc: object) -> None:
        if self.progress is None:
            return
        self.timer.cancel()
        self.timer.join()
        self.progress.stop()


def _may_be_terminal() -> bool:
    """Whether rich's console on stderr could be a terminal: stderr is a TTY, or the
    environment tells rich to act as one (``FORCE_COLOR``, ``TTY_COMPATIBLE``)."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr: rich says no too
        return False


def _no_progress() -> None:
    """The progress callback when no bar can show."""
