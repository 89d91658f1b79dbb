"""``labelpool.api.compare``: a challenger (or several) against a baseline, as ``labelpool
compare`` prints it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import labelset
from labelpool.api.repository import (
    RepoSpec,
    RunSpec,
    checked_measures,
    config_of,
    labels_of,
    plain,
    specs,
    with_disputes,
)
from labelpool.errors import UsageError
from labelpool.render.compare import formats as compare_report
from labelpool.runs import Run
from labelpool.workflows.evaluate import compare as compare_workflow
from labelpool.workflows.evaluate import run_args
from labelpool.workflows.evaluate.compare import CompareResult, Comparison


@dataclass(frozen=True)
class CompareReport:
    """The comparisons of one call: one per (challenger, measure), Holm-adjusted together."""

    result: CompareResult
    runs: tuple[Run, ...] = ()  # the runs read, baseline first

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        return self.result.comparisons

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.result.warnings

    def to_dict(self) -> dict[str, Any]:
        """What ``labelpool compare --format json`` prints, parsed
        (``schema/compare-report.schema.json``)."""
        return plain(compare_report.to_json(self.result))

    def to_json(self) -> str:
        """Exactly what ``labelpool compare --format json`` prints (the command prints this)."""
        return compare_report.render_json(self.result)

    def to_markdown(self) -> str:
        """What ``labelpool compare --format markdown`` prints."""
        return compare_report.to_markdown(self.result)


def compare(
    baseline: RunSpec,
    challenger: RunSpec | Sequence[RunSpec],
    *,
    measures: Sequence[str] | None = None,
    k: int = 10,
    relevance_level: int = 1,
    seed: int = 0,
    repo: RepoSpec = ".",
    show_path: Callable[[Path], str] | None = None,
    judge: str | None = None,
    disputes: str | None = None,
) -> CompareReport:
    """Compare ``challenger`` (one run, or several) with ``baseline``: per measure the delta,
    both unjudged rates and their reading, the sign-flip test (Holm over the whole call),
    the bootstrap interval, the range of the delta over the unjudged documents, the judging
    cost and a verdict. Runs are files or system names in ``runs/``; ``baseline`` may also
    be the system name of one of the challengers' runs. Raises the ``LabelpoolError``
    classes (``CompareError`` and ``MeasureError`` are usage errors; ``NoCommonQuestion``, an
    input error, for a run that shares no question with the labels). ``show_path``: how the
    suggested ``labelpool pool`` command names a run file (default: relative to the
    repository when inside it). ``judge`` and ``disputes`` as for :func:`labelpool.api.score`:
    under ``bounds`` (the default) an open dispute is unjudged, so the delta range and the
    sign-flip reading cover every way it can be settled."""
    if seed < 0:
        raise UsageError(f"--seed must be >= 0, not {seed}")
    chosen = checked_measures(measures, k, relevance_level)
    cfg = with_disputes(config_of(repo), disputes)
    labels = labelset.scored(cfg, labels_of(repo, cfg), judge)
    chosen_runs = run_args.select(cfg, specs(challenger), measures=measures).specs
    loaded, base_name = compare_workflow.load_runs(cfg, chosen_runs, specs(baseline)[0])
    result = compare_workflow.compare(
        cfg,
        labels,
        loaded,
        baseline=base_name,
        measures=chosen,
        k=k,
        relevance_level=relevance_level,
        seed=seed,
        display_paths=None if show_path is None else {r.name: show_path(r.path) for r in loaded},
    )
    return CompareReport(result, tuple(loaded))
