"""``labelpool diff REV [REV2]``: what a change does to the label set, in meaning."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy, _runs
from labelpool.cli._common import (
    LooseFormatOption,
    RepoOption,
    app,
    check_format,
    check_measure_cutoffs,
    load_config,
    parse_measures,
    print_report,
    usage_error,
)
from labelpool.cli._progress import progress


@app.command("diff")
def diff(
    revs: Annotated[
        list[str],
        typer.Argument(
            help="REV (the old revision: a commit, branch or tag), then optionally REV2 (the "
            "new one; default: the working tree). With --scores, the run files that follow it.",
            show_default=False,
        ),
    ],
    scores: Annotated[
        list[str] | None,
        typer.Option(
            "--scores",
            help="A run file (or a system name in runs/): show how its headline measure and "
            "unjudged rate at 10 move between the two revisions. Every existing run file "
            "(.trec .run .txt .tsv .jsonl .gz) given after REV counts as one more run, so "
            "`--scores runs/*` works (other files there, such as scripts, are left out).",
        ),
    ] = None,
    measure: Annotated[
        list[str] | None,
        typer.Option("-m", "--measure", help="Measures; the first is the headline (nDCG@10)."),
    ] = None,
    fmt: LooseFormatOption = "text",
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", help="With --scores: also each question's changes (after the summary)."
        ),
    ] = False,
    repo: RepoOption = None,
) -> None:
    """Semantic diff of the labels between REV and REV2: questions added or removed, question
    text edited, judgments added or removed, verdicts flipped, grades changed, classes created,
    merged or split, pool entries and pending batches. A pure reordering is no change."""
    check_format(fmt, ("text", "json", "markdown"))
    rev, rev2, runs = _split(revs, scores, measure)
    chosen = parse_measures(measure or ["nDCG@10"]) if runs else []
    check_measure_cutoffs(chosen, 10)
    cfg = load_config(repo)
    if runs:  # before the diff: no such file or system is RunNotFound
        runs = _runs.select(cfg, runs, measure)
    workflow = _lazy.diff_workflow
    with progress("comparing labels"):
        result = workflow.diff(cfg, rev, rev2)
        if runs:
            result = workflow.score_changes(cfg, result, runs, chosen)
    report = _lazy.diff_report
    print_report(
        fmt,
        result,
        report.to_json,
        report.render_markdown,
        lambda d: report.render_text(d, verbose=verbose),
    )


def _split(
    revs: list[str], scores: list[str] | None, measure: list[str] | None
) -> tuple[str, str | None, list[str]]:
    """REV, REV2 and the runs, from the positional words (a shell expands ``--scores runs/*``
    into one option value and many positional words: with ``--scores``, every existing file
    or folder among them is a run argument, and what is not a run is left out by
    :func:`labelpool.cli._runs.select` with one note; a word that parses as a measure is the
    ``-m nDCG@10 R@10`` trap, never REV2)."""
    if not revs:
        usage_error("missing REV (the revision to compare with)")
    rev, rest = revs[0], revs[1:]
    given = list(scores or [])
    runs: list[str] = list(given)
    rev2: str | None = None
    for word in rest:
        if given and Path(word).exists():
            runs.append(word)
        elif given and _lazy.run_args.is_measure(word):
            raise _lazy.run_args.measure_trap(word, measure)
        elif rev2 is not None:
            usage_error(f"unexpected argument {word!r} (REV [REV2] [--scores RUN...])")
        else:
            rev2 = word
    return rev, rev2, runs
