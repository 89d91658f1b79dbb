"""``labelpool export trec [--out FILE]``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, load_config, say, sub_app

export_app = sub_app("export", "Write the labels in another format.")


@export_app.command("trec")
def export_trec(
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the qrels here (default: stdout).")
    ] = None,
    repo: RepoOption = None,
) -> None:
    """TREC qrels: irrelevant 0, grades kept, class members the class grade, unjudged -1."""
    workflow = _lazy.export_workflow
    cfg = load_config(repo)
    labels = _lazy.labelset.load(cfg)
    if out is not None:
        workflow.check_out_path(out)
    text = workflow.format_qrels(workflow.qrels_rows(labels))
    if out is None:
        sys.stdout.write(text)
        return
    workflow.write_qrels(out, text)
    say(f"wrote {out}: {len(labels)} question(s), {text.count(chr(10))} row(s)", err=True)
