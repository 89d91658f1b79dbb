"""``labelpool init DIR``."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import app, note, say, warn


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
    hook_repo: Annotated[
        str | None,
        typer.Option(
            "--hook-repo",
            metavar="URL",
            help="Use the hooks published by this repository (with --hook-rev) instead of "
            "local hooks running the installed labelpool.",
        ),
    ] = None,
    hook_rev: Annotated[
        str | None,
        typer.Option("--hook-rev", metavar="REV", help="The tag or commit of --hook-repo."),
    ] = None,
) -> None:
    """Scaffold a label repository: config, schema, hooks, CI workflow, labels/, runs/; a
    folder in no git work tree gets `git init -b main` (no commit); a folder inside another
    repository's work tree is said so first (its labels are committed there)."""
    result = _lazy.init_workflow.scaffold(
        folder,
        force=force,
        labelpool_source=labelpool_source,
        hook_repo=hook_repo,
        hook_rev=hook_rev,
    )
    if result.enclosing_work_tree is not None:
        note(
            f"{folder} is inside the git work tree of {result.enclosing_work_tree}: its labels "
            "will be committed in that repository (right for a monorepo's labels/; not for a "
            "clone of another project). For a repository of their own, run now:",
            wrap=True,
        )
        say(f"    git init -b main {shlex.quote(str(folder))}", err=True)
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
            "--labelpool-source SPEC (or edit .github/workflows/labels.yml)",
            wrap=True,
        )
    if result.git_initialised:
        say(f"git init -b main in {folder} (nothing committed)")
    elif result.git_problem is not None:
        warn(f"git init did not run: {result.git_problem}; run `git init -b main` in {folder}")
    say(f"initialised {folder}: {len(result.created)} created, {len(result.skipped)} skipped")
    say("next:")
    for command in next_commands(folder):
        say(f"  {command}")


EXAMPLE_QUESTION = ("where-is-my-order", "Where is my order?")


def next_commands(folder: Path) -> list[str]:
    """What to run after ``init``, each runnable as printed (from the folder init ran in)."""
    qid, question = EXAMPLE_QUESTION
    return [
        f"cd {shlex.quote(str(folder))}",
        f"labelpool add {qid} {shlex.quote(question)}  # your first question",
        "pre-commit install  # label files formatted and validated before every commit",
    ]
