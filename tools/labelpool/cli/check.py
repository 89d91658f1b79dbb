"""``labelpool check RUN --against REF``: the CI regression gate (exit 0, 1, 3; 2 usage)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _common as common
from labelpool.cli import _lazy, _runs
from labelpool.cli._common import app, load_config, say, usage_error, warn
from labelpool.cli._width import output_width
from labelpool.render import sanitize


@app.command("check")
def check(
    run: Annotated[
        list[str],
        typer.Argument(metavar="RUN", help="The run file to check (or a system name)."),
    ],
    against: Annotated[
        str,
        typer.Option(
            "--against",
            help="Reference: a run file if one exists at this path, else a git revision whose "
            "copy of RUN is used.",
        ),
    ],
    measure: common.MeasuresOption = None,
    budget: Annotated[
        float,
        typer.Option(
            "--budget", help="Tolerated loss: fail when the CI's upper end is below -BUDGET."
        ),
    ] = 0.0,
    min_coverage: Annotated[
        float,
        typer.Option(
            "--min-coverage",
            help="Share (0 to 1) of the labelled questions both RUN and REF must hold; below "
            "it, exit 3 (default 1: every one; a question a run lacks counts 0).",
        ),
    ] = 1.0,
    k: common.CutoffOption = 10,
    relevance_level: common.RelevanceLevelOption = 1,
    fmt: common.ReportFormatOption = common.ReportFormat.text,
    seed: common.SeedOption = 0,
    draws: common.DrawsOption = None,
    resamples: common.ResamplesOption = None,
    wide: Annotated[
        bool, typer.Option("--wide", help="Ignore the width ($COLUMNS, the terminal's, 80).")
    ] = False,
    judges: common.JudgesOption = None,
    repo: common.RepoOption = None,
) -> None:
    """Exit 0 when RUN is not worse than REF, 1 when significantly worse (or an input cannot be
    used, such as a run with no question in common with the labels), 3 when the comparison is
    not meaningful (unjudged rates, or fewer labelled questions in both runs than
    --min-coverage), 2 on usage errors."""
    workflow = _lazy.check_workflow
    cfg = load_config(repo)
    if not budget >= 0 or budget == float("inf"):  # also refuses nan
        usage_error(f"--budget must be a number >= 0, not {budget}")
    if not 0.0 <= min_coverage <= 1.0:  # also refuses nan
        usage_error(f"--min-coverage must be a number from 0 to 1, not {min_coverage}")
    parsed = common.comparison_options(measure, k, relevance_level, seed, draws, resamples)
    selected = _runs.select(cfg, run, measure)  # RunNotFound: 2
    if len(selected) != 1:
        usage_error(f"check takes one run, not {len(selected)}: {', '.join(selected)}")
    run_path = selected[0]
    if judges is not None:
        cfg = _lazy.api_repo.with_judges(cfg, judges)
    labels = _lazy.labelset.scored(cfg)
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
        min_coverage=min_coverage,
        draws=draws,
        resamples=resamples,
    )
    for note in outcome.result.warnings:
        warn(note)
    report = _lazy.compare_report
    if fmt is common.ReportFormat.json:
        doc = report.to_json(outcome.result)
        doc["check"] = {
            "status": outcome.status,
            "exit_code": outcome.exit_code,
            "reference": outcome.reference,
            "budget": budget,
            "coverage": outcome.coverage,
            "min_coverage": outcome.min_coverage,
            "reasons": list(outcome.reasons),
            **({"notes": list(outcome.notes)} if outcome.notes else {}),
        }
        print(sanitize.json_dumps(doc, indent=2))
    elif fmt is common.ReportFormat.markdown:
        print(report.to_markdown(outcome.result), end="")
        reference = sanitize.code_span(outcome.reference)
        print(f"\n**check: {outcome.status}** against `{reference}`\n")
        for reason in (*outcome.reasons, *outcome.notes):
            print(f"- {sanitize.markdown(reason)}")
    else:
        width = output_width(wide)
        print(_lazy.compare_text.render(outcome.result, width), end="")
        wrap = _lazy.compare_text.wrap
        for line in wrap(f"check: {outcome.status} against {outcome.reference}", width):
            say(line)
        for reason in (*outcome.reasons, *outcome.notes):
            for line in wrap(f"  {reason}", width, indent="    "):
                say(line)
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)
