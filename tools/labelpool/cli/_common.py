"""What every command shares: the app, the ``--repo`` option, error exits, consoles."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from labelpool import config as config_mod

app = typer.Typer(
    name="labelpool",
    help="A git-native label repository for retrieval evaluation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

RepoOption = Annotated[
    Path | None,
    typer.Option(
        "--repo",
        help="The label repository (default: the one holding the working folder).",
        file_okay=False,
    ),
]

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
MAX_CUTOFF = 1_000_000_000  # larger cut-offs (--k, --depth, P@k) overflow numpy's integers


def check_cutoff(option: str, value: int | None) -> None:
    """Usage error (exit 2) for a cut-off above :data:`MAX_CUTOFF` (numpy cannot hold it)."""
    if value is not None and value > MAX_CUTOFF:
        fail(f"error: {option} must be at most {MAX_CUTOFF:,}, not {value}", EXIT_USAGE)


def fail(message: str, code: int = EXIT_FINDINGS) -> NoReturn:
    """Print ``message`` on stderr and leave with ``code`` (never a traceback)."""
    print(message, file=sys.stderr)
    raise typer.Exit(code)


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def load_config(repo: Path | None) -> config_mod.Config:
    try:
        return config_mod.load(repo)
    except config_mod.ConfigError as exc:
        fail(f"error: {exc}", EXIT_USAGE)


@app.callback()
def _root() -> None:
    """A git-native label repository for retrieval evaluation."""
