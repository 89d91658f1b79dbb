"""``labelpool classes propose``: near-duplicate classes proposed from the corpus text."""

from __future__ import annotations

from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    NoCommitOption,
    RepoOption,
    WaitOption,
    check_format,
    check_wait,
    load_config,
    sub_app,
    usage_error,
)
from labelpool.cli._progress import progress
from labelpool.cli._width import output_width

classes_app = sub_app(
    "classes",
    "Near-duplicate classes: proposed from the corpus text, accepted in review.",
)


@classes_app.command("propose")
def propose(
    threshold: Annotated[
        float, typer.Option("--threshold", help="Jaccard of word 5-gram shingles (0..1].")
    ] = 0.8,
    containment: Annotated[
        float | None,
        typer.Option(
            "--containment",
            help="Also propose a pair one of whose texts holds this much of the other (0..1].",
        ),
    ] = None,
    corpus_wide: Annotated[
        bool,
        typer.Option(
            "--corpus",
            help="Compare with every corpus document (MinHash LSH; the [dedup] extra), not "
            "only within each question.",
        ),
    ] = False,
    questions: Annotated[
        str | None, typer.Option("--questions", help="Only these question ids (Q1,Q2,...).")
    ] = None,
    branch: Annotated[
        str | None, typer.Option("--branch", help="Branch name (default labelpool/classes-DATE).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Text: also each document skipped, and why.")
    ] = False,
    no_commit: NoCommitOption = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Find near-duplicate documents among those each label file names (or, with --corpus,
    in the whole corpus) and write them as proposed classes on a new branch, in one commit:
    the pull request is the review (delete a `proposed:` line to accept a class, the entry
    to reject it). Two versions of one document are never proposed together."""
    check_format(fmt, ("text", "json"))
    check_wait(wait)
    qids = [q for q in questions.split(",") if q] if questions is not None else None
    if qids is not None and not qids:
        usage_error("--questions: name at least one question id")
    cfg = load_config(repo)
    workflow = _lazy.classes_workflow
    with progress("comparing documents", total=None) as advance:
        result = workflow.propose(
            cfg,
            threshold=threshold,
            containment=containment,
            corpus_wide=corpus_wide,
            questions=qids,
            branch=branch,
            commit=not no_commit,
            wait=wait,
            advance=advance,
        )
    report = _lazy.classes_report
    if fmt == "json":
        print(report.render_json(result))
    else:
        print(report.text(result, verbose, output_width()), end="")
