"""What every command shares: the app (with the one error handler), options, option checks.

A command parses its options, calls one workflow and prints the result; it never catches an
error. Option checks raise :class:`~labelpool.errors.UsageError` through :func:`usage_error`
(exit 2); everything a workflow raises is a :class:`~labelpool.errors.LabelpoolError` that
:mod:`labelpool.cli._handler` prints and turns into its exit code. Heavy modules are reached
through :mod:`labelpool.cli._lazy` only.
"""

from __future__ import annotations

import copy
import sys
import textwrap
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from labelpool import __version__
from labelpool import config as config_mod
from labelpool.cli import _handler, _lazy
from labelpool.cli._width import output_width
from labelpool.errors import UsageError
from labelpool.limits import CUTOFF_MAX
from labelpool.render import sanitize

if TYPE_CHECKING:
    from typer.models import CommandInfo, TyperInfo

    from labelpool.scoring.measures import Measure

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")


class _App(typer.Typer):
    """The typer app: every command it registers runs under the one error handler, and output
    that cannot be written (disk full, a closed pipe) is ``error: ...`` and exit 1."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super(_App, self._only(kwargs.get("args"))).__call__(*args, **kwargs)
        except OSError as exc:
            _handler.exit_on_os_error(exc)
        except Exception as exc:  # a bug: one line, not a traceback (unless LABELPOOL_DEBUG)
            _handler.exit_on_bug(exc)

    def _only(self, args: Sequence[str] | None) -> _App:
        """This app with only the command ``args`` names built whole (start-up).

        typer builds every registered command (their signatures, their annotations evaluated)
        before it parses anything: 20 ms of the 0.1 s of ``labelpool validate FILE``. The
        root takes no option with a value, so the first word that is not an option names the
        command: that command is built alone. With no such word (``--help``, no arguments,
        ``--version``, a typo) every command is built as a stub of its name and docstring,
        which is all that the root's help and click's "Did you mean" read.
        """
        words = [a for a in (sys.argv[1:] if args is None else args) if not a.startswith("-")]
        if self is not app:
            return self
        name = words[0] if words else None
        commands = [c for c in self.registered_commands if _command_name(c) == name]
        groups = [g for g in self.registered_groups if g.name == name]
        only = copy.copy(self)
        if commands or groups:
            only.registered_commands, only.registered_groups = commands, groups
        else:
            only.registered_commands = [_stub_command(c) for c in self.registered_commands]
            only.registered_groups = [_stub_group(g) for g in self.registered_groups]
        return only

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[F], F]:
        """Register a command, run under the one error handler."""
        register = super().command(name, **kwargs)

        def decorator(command: F) -> F:
            register(_handler.guard(command))
            return command

        return decorator


def _stub(callback: Any) -> Any:
    """A function of no parameters with ``callback``'s name and docstring."""

    def stub() -> None:
        raise AssertionError("a stub command runs")  # pragma: no cover

    stub.__name__ = getattr(callback, "__name__", "stub")
    stub.__doc__ = getattr(callback, "__doc__", None)
    return stub


def _stub_command(info: CommandInfo) -> CommandInfo:
    """``info`` with a stub callback (its name kept, since typer names a command after it)."""
    stub = copy.copy(info)
    stub.name = _command_name(info)
    stub.callback = _stub(info.callback)
    return stub


def _stub_group(info: TyperInfo) -> TyperInfo:
    """``info`` as a group of no commands whose callbacks are stubs (its help kept)."""
    stub = copy.copy(info)
    if callable(info.callback):
        stub.callback = _stub(info.callback)
    group = info.typer_instance
    if group is not None:
        stub.typer_instance = copy.copy(group)
        stub.typer_instance.registered_commands = []
        stub.typer_instance.registered_groups = []
        registered = group.registered_callback
        if registered is not None:
            stub.typer_instance.registered_callback = copy.copy(registered)
            stub.typer_instance.registered_callback.callback = _stub(registered.callback)
    return stub


def _command_name(info: CommandInfo) -> str:
    """The name typer gives a registered command."""
    if info.name:
        return info.name
    return typer.main.get_command_name(getattr(info.callback, "__name__", ""))


def sub_app(name: str, help: str) -> _App:
    """A command group (``export``, ``import``) registered on :data:`app`."""
    group = _App(name=name, help=help, no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(group, name=name)
    return group


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
COUNT_MAX = 10_000_000  # --draws and --resamples (labelpool.workflows.evaluate.noise.MAX_COUNT)
DrawsOption = Annotated[
    int | None,
    typer.Option(
        "--draws",
        metavar="N",
        help="Monte Carlo draws of the sign-flip test (default: 100,000 while draws x "
        "questions <= 1e9, fewer past it, at least 10,000).",
    ),
]
ResamplesOption = Annotated[
    int | None,
    typer.Option(
        "--resamples",
        metavar="N",
        help="Bootstrap resamples of the 95% CI (default: 10,000 while resamples x "
        "questions <= 1e8, fewer past it, at least 1,000).",
    ),
]
JudgeOption = Annotated[
    str | None,
    typer.Option(
        "--judge",
        help="Score with this judge's own verdict wherever they gave one (their full "
        "identity, or a person's email).",
    ),
]
DisputesOption = Annotated[
    str | None,
    typer.Option(
        "--disputes",
        help="How an open dispute counts: bounds (unjudged), majority, max or min "
        "(default: [tool.labelpool] disputes).",
    ),
]
JudgesOption = Annotated[
    str | None,
    typer.Option(
        "--judges",
        help="Whose verdicts count: people, machines or all (a person outranks a machine; "
        "default: [tool.labelpool] score_judges, all).",
    ),
]
ComparedRunsArgument = Annotated[
    list[str], typer.Argument(help="Run files or system names in runs/ (baseline first).")
]
BaselineOption = Annotated[
    str | None,
    typer.Option("--baseline", help="Compare every other run against this system."),
]
NoCommitOption = Annotated[
    bool, typer.Option("--no-commit", help="Write into the working tree only.")
]
LooseFormatOption = Annotated[str, typer.Option("--format", help="text, json or markdown.")]
WAIT_MAX_SECONDS = 86_400
WaitOption = Annotated[
    float,
    typer.Option(
        "--wait",
        metavar="SECONDS",
        help="When another labelpool command is writing this repository, wait up to SECONDS "
        "for it to end (default: 0, refuse at once).",
    ),
]


def usage_error(message: str) -> NoReturn:
    """The one place an option check refuses the command line (exit 2)."""
    raise UsageError(message)


def check_cutoff(option: str, value: int | None) -> None:
    """Usage error (exit 2) for a cut-off above :data:`CUTOFF_MAX` (numpy cannot hold it)."""
    if value is not None and value > CUTOFF_MAX:
        usage_error(f"{option} must be at most {CUTOFF_MAX:,}, not {value}")


def check_at_least(option: str, value: int, low: int) -> None:
    """``option must be at least LOW, not VALUE`` (exit 2)."""
    if value < low:
        usage_error(f"{option} must be at least {low}, not {value}")


def check_wait(wait: float) -> float:
    """``--wait`` between 0 and a day (exit 2); the seconds."""
    if not 0 <= wait <= WAIT_MAX_SECONDS:  # NaN fails too
        usage_error(f"--wait must be between 0 and {WAIT_MAX_SECONDS:,} seconds, not {wait}")
    return wait


def check_format(fmt: str, choices: Sequence[str]) -> None:
    """``--format must be a, b or c, not 'x'`` (exit 2)."""
    if fmt not in choices:
        listed = f"{', '.join(choices[:-1])} or {choices[-1]}"
        usage_error(f"--format must be {listed}, not {fmt!r}")


def check_measure_cutoffs(chosen: Sequence[Measure], k: int) -> None:
    for m in chosen:
        check_cutoff(f"the cut-off of {m.name}", m.depth(k))


def parse_measures(names: Sequence[str]) -> list[Measure]:
    """Measure names parsed once, at the edge (an unknown name: MeasureError, a UsageError)."""
    return _lazy.measures.parse(list(names))


def print_report(
    fmt: str,
    result: R,
    as_json: Callable[[R], object],
    as_markdown: Callable[[R], str],
    as_text: Callable[[R], str],
) -> None:
    """Print ``result`` as ``json`` (indented, ASCII: every control and bidi character as a
    ``\\u`` escape), ``markdown`` or text (the renderers sanitise what they print)."""
    if fmt == "json":
        print(sanitize.json_dumps(as_json(result), indent=2))
    elif fmt == "markdown":
        print(as_markdown(result), end="")
    else:
        print(as_text(result), end="")


def say(message: object = "", *, err: bool = False) -> None:
    """Print one line that may hold names from files (paths, ids, judges): through
    :func:`labelpool.render.sanitize.text` (controls and bidi shown escaped, no ``::``)."""
    print(sanitize.text(message), file=sys.stderr if err else sys.stdout)


def warn(message: str, *, wrap: bool = False) -> None:
    """``warning: MESSAGE`` on stderr, sanitised like :func:`say`; ``wrap``: prose that
    continues on lines indented by two spaces, to fit the output width."""
    _prose("warning", message, wrap)


def note(message: str, *, wrap: bool = False) -> None:
    """``note: MESSAGE`` on stderr (something to know, not a problem), like :func:`warn`."""
    _prose("note", message, wrap)


def _prose(prefix: str, message: str, wrap: bool) -> None:
    line = f"{prefix}: {sanitize.text(message)}"
    width = output_width() if wrap else None
    if width is None or len(line) <= width:
        print(line, file=sys.stderr)
        return
    lines = textwrap.wrap(
        line, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )
    print("\n".join(lines), file=sys.stderr)


def load_config(repo: Path | None) -> config_mod.Config:
    """The repository's configuration (a :class:`~labelpool.config.ConfigError`: exit 2)."""
    return config_mod.load(repo)


def _print_version(value: bool) -> None:
    if value:
        print(__version__)  # what `labelpool version` prints
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print labelpool's version and exit.",
            is_eager=True,
            callback=_print_version,
        ),
    ] = False,
) -> None:
    """A git-native label repository for retrieval evaluation."""


class ReportFormat(str, Enum):
    """``--format`` of the commands that print a comparison, and of ``pool``."""

    text = "text"
    json = "json"
    markdown = "markdown"


ReportFormatOption = Annotated[ReportFormat, typer.Option("--format", help="Output format.")]


def comparison_options(
    measure: list[str] | None,
    k: int,
    relevance_level: int,
    seed: int,
    draws: int | None = None,
    resamples: int | None = None,
) -> list[Measure]:
    """Check the options ``compare`` and ``check`` share; the parsed measures (exit 2)."""
    for option, count in (("--draws", draws), ("--resamples", resamples)):
        if count is not None and not 1 <= count <= COUNT_MAX:
            usage_error(f"{option} must be from 1 to {COUNT_MAX:,}, not {count}")
    check_at_least("--k", k, 1)
    check_at_least("--relevance-level", relevance_level, 1)
    if seed < 0:
        usage_error(f"--seed must be >= 0, not {seed}")
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    chosen = parse_measures(measure or list(_lazy.measures.DEFAULT))
    check_measure_cutoffs(chosen, k)
    return chosen
