"""The run arguments of a command, read once (:mod:`labelpool.workflows.evaluate.run_args`): what is
not a run is left out with one note on stderr."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from labelpool.cli import _lazy
from labelpool.cli._common import say
from labelpool.config import Config


def select(
    cfg: Config,
    specs: Sequence[str],
    measures: Sequence[str] | None = None,
    *,
    takes_measures: bool = True,
) -> list[str]:
    """The runs ``specs`` stand for, as paths (exit 2 for a measure given as a run, or when
    nothing left is a run)."""
    chosen = _lazy.run_args.select(cfg, specs, measures=measures, takes_measures=takes_measures)
    if chosen.note:
        say(f"note: {chosen.note}", err=True)
    return chosen.specs


def select_paths(
    cfg: Config, specs: Sequence[str], measures: Sequence[str] | None = None
) -> list[Path]:
    """:func:`select` for ``score``, which (as 0.1.0) exits 1 for a name that is no run and
    no measure."""
    runs_mod = _lazy.runs
    try:
        return [Path(s) for s in select(cfg, specs, measures)]
    except runs_mod.RunNotFound as exc:
        raise runs_mod.RunError(exc.path, exc.line, exc.message) from None
