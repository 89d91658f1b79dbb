"""What every command shares: the app, the ``--repo`` option, error exits, consoles."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from labelpool import config as config_mod


class _App(typer.Typer):
    """The typer app, turning output that cannot be written (disk full, a closed pipe) into
    ``error: ...`` and exit 1 instead of a traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except OSError as exc:
            _quiet_stdout()
            where = f"{exc.filename}: " if exc.filename else ""
            print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
            raise SystemExit(EXIT_FINDINGS) from None
        except Exception as exc:  # a bug: one line, not a traceback (unless LABELPOOL_DEBUG)
            import os

            if os.environ.get("LABELPOOL_DEBUG"):
                raise
            print(
                f"error: internal error: {type(exc).__name__}: {exc} (a labelpool bug; "
                "set LABELPOOL_DEBUG=1 to see where)",
                file=sys.stderr,
            )
            raise SystemExit(EXIT_INTERNAL) from None


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail again."""
    import contextlib
    import os

    with contextlib.suppress(OSError):
        sys.stdout.flush()
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no real stdout in tests
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


app = _App(
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

MeasuresOption = Annotated[
    list[str] | None,
    typer.Option(
        "--measure",
        "-m",
        help="Measure(s), repeatable or space/comma-separated "
        "(default: R@10 P@10 nDCG@10 RR@10 AP@100 Success@10).",
    ),
]
CutoffOption = Annotated[
    int, typer.Option("--k", help="Cut-off of unjudged rates and of measures without one.")
]
RelevanceLevelOption = Annotated[
    int, typer.Option("--relevance-level", help="Lowest grade counted relevant (trec_eval -l).")
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the resampling.")]

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70  # a bug (sysexits EX_SOFTWARE): never mistaken for check's 0, 1 or 3
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


class ReportFormat(str, Enum):
    """``--format`` of the commands that print a comparison."""

    text = "text"
    json = "json"
    markdown = "markdown"


def comparison_options(
    measure: list[str] | None, default: Sequence[str], k: int, relevance_level: int, seed: int
) -> list[str]:
    """Check the options ``compare`` and ``check`` share; the parsed measure names (exit 2)."""
    from labelpool import measures

    if k < 1:
        fail(f"error: --k must be at least 1, not {k}", EXIT_USAGE)
    if relevance_level < 1:
        fail(f"error: --relevance-level must be at least 1, not {relevance_level}", EXIT_USAGE)
    if seed < 0:
        fail(f"error: --seed must be >= 0, not {seed}", EXIT_USAGE)
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    try:
        chosen = measures.parse(measure or list(default))
    except measures.MeasureError as exc:
        fail(f"error: {exc}", EXIT_USAGE)
    for m in chosen:
        check_cutoff(f"the cut-off of {m.name}", m.depth(k))
    return [m.name for m in chosen]
