"""``labelpool export trec [--out FILE]``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli._common import EXIT_FINDINGS, EXIT_USAGE, RepoOption, app, fail, load_config

export_app = typer.Typer(
    name="export",
    help="Write the labels in another format.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(export_app, name="export")


@export_app.command("trec")
def export_trec(
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the qrels here (default: stdout).")
    ] = None,
    repo: RepoOption = None,
) -> None:
    """TREC qrels: irrelevant 0, grades kept, class members the class grade, unjudged -1."""
    from labelpool import labelset, yamlio
    from labelpool.workflows.exporting import format_qrels, qrels_rows

    cfg = load_config(repo)
    try:
        labels = labelset.load(cfg)
    except labelset.LabelSetError as exc:
        fail(f"error: {exc}", EXIT_FINDINGS)
    if out is not None and (out.is_dir() or (out.exists() and not out.is_file())):
        # atomic replacement would put a regular file where a folder or a device is
        fail(f"error: --out {out}: not a regular file", EXIT_USAGE)
    text = format_qrels(qrels_rows(labels))
    if out is None:
        sys.stdout.write(text)
        return
    try:
        yamlio.atomic_write_text(out, text)
    except OSError as exc:
        fail(f"error: {out}: cannot write: {exc.strerror or exc}", EXIT_FINDINGS)
    print(f"wrote {out}: {len(labels)} question(s), {text.count(chr(10))} row(s)", file=sys.stderr)
