"""The runs a comparison reads: files or system names in ``runs/``, the baseline found.

:func:`load_runs` ``(cfg, specs, baseline) -> (runs, baseline name)``; :func:`in_repo`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.runs import Run
from labelpool.workflows.evaluate.compare import CompareError


def in_repo(cfg: Config, spec: str) -> str:
    """A relative run path that does not exist here but does in the repository, made absolute."""
    if not Path(spec).exists() and (cfg.root / spec).is_file():
        return str(cfg.root / spec)
    return spec


def load_runs(
    cfg: Config, specs: Sequence[str], baseline: str | None = None
) -> tuple[list[Run], str]:
    """Read the runs ``specs`` name (files or system names in runs/) and find the baseline.

    ``baseline`` is a system name or a run spec; a baseline not among ``specs`` is read too.
    Returns the runs (baseline first) and the baseline's system name. Raises
    :class:`labelpool.runs.RunError` for unreadable runs and :class:`CompareError` otherwise.
    """
    loaded = [runs_mod.load(cfg, in_repo(cfg, s)) for s in specs]
    if baseline is None:
        if not loaded:
            raise CompareError("no runs given")
        return loaded, loaded[0].name
    names = [r.name for r in loaded]
    if baseline in names:
        i = names.index(baseline)
        return [loaded[i], *loaded[:i], *loaded[i + 1 :]], baseline
    base_path = runs_mod.resolve(cfg, in_repo(cfg, baseline))
    for r in loaded:
        if Path(r.path).resolve() == base_path.resolve():
            return [r, *(x for x in loaded if x is not r)], r.name
    base = runs_mod.read_run(base_path)
    return [base, *loaded], base.name
