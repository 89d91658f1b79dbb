"""``labelpool fmt [PATHS...] [--check]``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    RepoOption,
    WaitOption,
    app,
    check_wait,
    load_config,
    say,
    usage_error,
)
from labelpool.errors import EXIT_FINDINGS


@app.command("fmt")
def fmt_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Label files or folders (default: every file in labels/)."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 listing files that would.")
    ] = False,
    upgrade: Annotated[
        bool,
        typer.Option(
            "--upgrade",
            help="Also write who judged (judge:, verdicts:) from git blame where a file "
            "does not say it.",
        ),
    ] = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Sort lists, quote ambiguous scalars, block style: comments and unknown keys kept."""
    check_wait(wait)
    label_files = _lazy.labelset.label_files
    files: list[Path] = []
    if paths:
        for p in paths:
            if p.is_dir():
                files.extend(label_files(p))
            elif p.is_file():
                files.append(p)
            else:
                usage_error(f"{p}: no such file or folder")
    else:
        files = label_files(load_config(repo).labels_dir)
    if upgrade:
        _upgrade(files, check=check, wait=wait, repo=repo)
        return
    result = _lazy.fmt_workflow.fmt(files, check=check, wait=wait)
    for error in result.errors:
        say(error)
    for path in result.changed:
        say(f"{path}: {'would reformat' if check else 'reformatted'}")
    total = len(result.changed)
    verb = "would be reformatted" if check else "reformatted"
    print(
        f"{total} file(s) {verb}, {len(result.unchanged)} unchanged, "
        f"{len(result.errors)} unreadable"
    )
    if result.errors or (check and result.changed):
        raise typer.Exit(EXIT_FINDINGS)


def _upgrade(files: list[Path], *, check: bool, wait: float, repo: Path | None) -> None:
    result = _lazy.upgrade_workflow.upgrade(load_config(repo), files, check=check, wait=wait)
    for path in result.changed:
        say(f"{path}: {'would upgrade' if check else 'upgraded'}")
    total = len(result.changed)
    verb = "would be upgraded" if check else "upgraded"
    print(f"{total} file(s) {verb}, {len(result.unchanged)} unchanged")
    if check and result.changed:
        raise typer.Exit(EXIT_FINDINGS)
