"""``labelpool init DIR``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import app, say, warn


@app.command("init")
def init_command(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Where the repository goes.")],
    force: Annotated[
        bool,
        typer.Option("--force", help="Fill in a non-empty folder (existing files are kept)."),
    ] = False,
) -> None:
    """Scaffold a label repository: config, schema, hooks, CI workflow, labels/, runs/."""
    result = _lazy.init_workflow.scaffold(folder, force=force)
    for path in result.created:
        say(f"created {path}")
    for path in result.skipped:
        say(f"skipped {path} (exists; left unchanged)")
    for name in result.missing_templates:
        warn(f"this labelpool installation does not ship {name}; not created")
    say(f"initialised {folder}: {len(result.created)} created, {len(result.skipped)} skipped")
