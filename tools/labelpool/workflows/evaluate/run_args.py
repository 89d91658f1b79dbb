"""What a command's run arguments stand for: the one reading every command that takes runs
(``score``, ``compare``, ``check``, ``pool``, ``diff --scores``) applies to its arguments.

A run is a file whose name ends in a run suffix (``.trec .run .txt .tsv .jsonl``, optionally
``.gz``), or a system name in ``runs/``. A shell's ``runs/*`` also hands over the README, the
script that made the runs, ``.gitkeep`` and subfolders: those are left out and named in one
note; nothing left is a usage error. An argument that is no file and no system but parses as a
measure is the ``-m nDCG@10 R@10 RUN`` trap (``-m`` takes one value): a usage error that says
how to write it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool.config import Config
from labelpool.errors import UsageError
from labelpool.runs import FORMAT_SUFFIXES, has_run_suffix, is_run_file, resolve
from labelpool.scoring import measures as measures_mod
from labelpool.scoring.measures import MeasureError


class RunArgumentError(UsageError):
    """The run arguments name no run, or a measure where a run belongs (exit 2)."""


@dataclass(frozen=True)
class RunArgs:
    """The runs the arguments stand for, in order, and what was left out as not a run."""

    paths: tuple[Path, ...]
    left_out: tuple[str, ...] = ()

    @property
    def specs(self) -> list[str]:
        """The runs as strings, for the workflows that take run specs."""
        return [str(p) for p in self.paths]

    @property
    def note(self) -> str | None:
        """The one note naming what was left out (None when nothing was)."""
        if not self.left_out:
            return None
        return f"not runs, left out: {', '.join(self.left_out)}"


def suffixes_text() -> str:
    return f"{' '.join(FORMAT_SUFFIXES)}, optionally .gz"


def is_measure(spec: str) -> bool:
    """Whether ``spec`` parses as one or more measure names."""
    try:
        measures_mod.parse([spec])
    except (MeasureError, ValueError):
        return False
    return True


def measure_trap(
    spec: str, given: Sequence[str] | None, *, takes_measures: bool = True
) -> RunArgumentError:
    """``R@10 is a measure, not a run; write -m nDCG@10 -m R@10`` (``takes_measures`` false:
    the command has no ``-m``)."""
    if not takes_measures:
        return RunArgumentError(f"{spec} is a measure, not a run; this command takes no -m")
    spelled = [f"-m {m}" for m in (*(given or ()), spec)]
    return RunArgumentError(f"{spec} is a measure, not a run; write {' '.join(spelled)}")


def select(
    cfg: Config,
    specs: Sequence[str],
    *,
    measures: Sequence[str] | None = None,
    takes_measures: bool = True,
) -> RunArgs:
    """The runs ``specs`` name (see the module's text); ``measures``: the ``-m`` values given,
    for the trap's message. Raises :class:`RunArgumentError` (exit 2), and
    :class:`labelpool.runs.RunNotFound` for a name that is no file, no system and no measure.

    A folder given alone stands for the run files in it; a folder among other arguments (a
    subfolder of ``runs/*``) is left out.
    """
    paths: list[Path] = []
    left_out: list[str] = []
    for spec in specs:
        path = _in_repo(cfg, spec)
        if path.is_dir():
            if len(specs) == 1:
                inside = sorted(path.iterdir())
                paths.extend(p for p in inside if is_run_file(p))
                left_out.extend(_shown(p) for p in inside if not is_run_file(p))
            else:
                left_out.append(spec if spec.endswith("/") else f"{spec}/")
        elif path.exists():
            if has_run_suffix(path) and path.is_file():
                paths.append(path)
            else:
                left_out.append(spec)
        else:
            try:
                paths.append(resolve(cfg, spec))
            except UsageError:
                if is_measure(spec):
                    raise measure_trap(spec, measures, takes_measures=takes_measures) from None
                raise
    if not paths:
        raise RunArgumentError(
            f"no run among {', '.join(specs) if specs else 'the arguments'}: a run is a file "
            f"ending in {suffixes_text()}, or a system name in {cfg.runs_dir}"
        )
    return RunArgs(tuple(paths), tuple(left_out))


def _shown(path: Path) -> str:
    """A left-out path as the note names it (a folder with a trailing ``/``)."""
    return f"{path}/" if path.is_dir() else str(path)


def _in_repo(cfg: Config, spec: str) -> Path:
    """A relative run path that does not exist here but does in the repository, made absolute
    (as :func:`labelpool.workflows.evaluate.compared.in_repo`)."""
    direct = Path(spec)
    if not direct.exists() and (cfg.root / spec).exists():
        return cfg.root / spec
    return direct
