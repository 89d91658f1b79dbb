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
    labelpool_source: Annotated[
        str | None,
        typer.Option(
            "--labelpool-source",
            metavar="SPEC",
            help="The pip requirement the CI workflow installs, written verbatim "
            "(default: labelpool==<this version>, from PyPI), e.g. "
            "'labelpool @ git+https://github.com/ORG/labelpool@v0.2.0'.",
        ),
    ] = None,
) -> None:
    """Scaffold a label repository: config, schema, hooks, CI workflow, labels/, runs/."""
    result = _lazy.init_workflow.scaffold(folder, force=force, labelpool_source=labelpool_source)
    for path in result.created:
        say(f"created {path}")
    for path in result.skipped:
        say(f"skipped {path} (exists; left unchanged)")
    for name in result.missing_templates:
        warn(f"this labelpool installation does not ship {name}; not created")
    if result.default_source and any(p.name == "labels.yml" for p in result.created):
        warn(
            f"the CI workflow installs {result.labelpool_source} from PyPI, which assumes the "
            "package is published under that name; if it is not, point it elsewhere with "
            "--labelpool-source SPEC (or edit .github/workflows/labels.yml)"
        )
    say(f"initialised {folder}: {len(result.created)} created, {len(result.skipped)} skipped")
