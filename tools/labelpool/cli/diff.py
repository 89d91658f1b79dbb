"""``labelpool diff REV [REV2]``: what a change does to the label set, in meaning."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from labelpool.cli._common import (
    EXIT_USAGE,
    RepoOption,
    app,
    check_cutoff,
    fail,
    load_config,
    warn,
)

RUN_SUFFIXES = (".trec", ".run", ".txt", ".tsv", ".jsonl", ".gz")


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
    fmt: Annotated[str, typer.Option("--format", help="text, json or markdown.")] = "text",
    repo: RepoOption = None,
) -> None:
    """Semantic diff of the labels between REV and REV2: questions added or removed, question
    text edited, judgments added or removed, verdicts flipped, grades changed, classes created,
    merged or split, pool entries and pending batches. A pure reordering is no change."""
    from labelpool.report import diff as report
    from labelpool.workflows.diff import DiffError, diff, score_changes

    if fmt not in ("text", "json", "markdown"):
        fail(f"error: --format must be text, json or markdown, not {fmt!r}", EXIT_USAGE)
    rev, rev2, runs = _split(revs, scores)
    if runs and measure:
        from labelpool import measures as measures_mod

        try:
            for m in measures_mod.parse(measure):
                check_cutoff(f"the cut-off of {m.name}", m.depth(10))
        except measures_mod.MeasureError as exc:
            fail(f"error: {exc}", EXIT_USAGE)
    cfg = load_config(repo)
    from labelpool import runs as runs_mod

    for spec in runs:
        try:
            runs_mod.resolve(cfg, spec)
        except runs_mod.RunError as exc:  # no such file or system: a usage error
            fail(f"error: {exc}", EXIT_USAGE)
    try:
        result = diff(cfg, rev, rev2)
        if runs:
            result = score_changes(cfg, result, runs, measure or ["nDCG@10"])
    except DiffError as exc:
        fail(f"error: {exc}")
    if fmt == "json":
        print(json.dumps(report.to_json(result), indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        print(report.render_markdown(result), end="")
    else:
        print(report.render_text(result), end="")


def _split(revs: list[str], scores: list[str] | None) -> tuple[str, str | None, list[str]]:
    """REV, REV2 and the runs, from the positional words (a shell expands ``--scores runs/*``
    into one option value and many positional words: the existing files among them are runs)."""
    from pathlib import Path

    if not revs:
        fail("error: missing REV (the revision to compare with)", EXIT_USAGE)
    rev, rest = revs[0], revs[1:]
    given = list(scores or [])
    runs: list[str] = []
    rev2: str | None = None
    words = [(w, True) for w in given] + [(w, False) for w in rest]
    for word, from_option in words:
        is_file = Path(word).is_file()
        if not from_option and not (given and is_file):
            if rev2 is not None:
                fail(
                    f"error: unexpected argument {word!r} (REV [REV2] [--scores RUN...])",
                    EXIT_USAGE,
                )
            rev2 = word
        elif is_file and not word.endswith(RUN_SUFFIXES):
            warn(f"{word}: not a run file (by its name), left out of --scores")
        else:
            runs.append(word)
    if given and not runs:
        fail("error: --scores: no run file given", EXIT_USAGE)
    return rev, rev2, runs
