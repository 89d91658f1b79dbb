"""``labelpool.api.compare``: a challenger (or several) against a baseline, as ``labelpool
compare`` prints it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
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
    with_judges,
)
from labelpool.errors import LabelpoolError, UsageError
from labelpool.labelset import LabelSet
from labelpool.render.compare import formats as compare_report
from labelpool.runs import Run
from labelpool.scoring.evaluate import machine_of
from labelpool.workflows.evaluate import compare as compare_workflow
from labelpool.workflows.evaluate import compared, machines, noise, run_args
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
    judges: str | None = None,
    draws: int | None = None,
    resamples: int | None = None,
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
    sign-flip reading cover every way it can be settled. ``judges``: whose verdicts count
    (``people``, ``machines`` or ``all``; default ``[tool.labelpool] score_judges``); where machine
    verdicts count, each comparison carries both machine-judged rates, and
    ``result.without_machines`` names each verdict that differs on people's verdicts alone.
    ``draws`` and ``resamples``: the sign-flip test's draws and the bootstrap's resamples, made
    exactly (1 to 10,000,000); None: 100,000 and 10,000 while draws x questions stays within
    1e9 and 1e8, fewer past it (the counts made are stated where they differ)."""
    if seed < 0:
        raise UsageError(f"--seed must be >= 0, not {seed}")
    noise.checked("--draws", draws)
    noise.checked("--resamples", resamples)
    chosen = checked_measures(measures, k, relevance_level)
    cfg = with_judges(with_disputes(config_of(repo), disputes), judges)

    def read_runs() -> tuple[list[Run], str]:
        chosen_runs = run_args.select(cfg, specs(challenger), measures=measures).specs
        return compared.load_runs(cfg, chosen_runs, specs(baseline)[0])

    # pyarrow parses the runs (C++, which releases the GIL) while the labels load (Python):
    # on a cold start they overlap. A problem with the labels is still the one raised first.
    with ThreadPoolExecutor(max_workers=1) as background:
        pending_runs = background.submit(read_runs)
        loaded_labels = labels_of(repo, cfg)
        labels = labelset.scored(cfg, loaded_labels, judge)
        loaded, base_name = pending_runs.result()

    def compared_on(scored: LabelSet) -> CompareResult:
        return compare_workflow.compare(
            cfg,
            scored,
            loaded,
            baseline=base_name,
            measures=chosen,
            k=k,
            relevance_level=relevance_level,
            seed=seed,
            draws=draws,
            resamples=resamples,
            display_paths=shown,
        )

    shown = None if show_path is None else {r.name: show_path(r.path) for r in loaded}
    result = compared_on(labels)
    if machine_of(labels) and cfg.judges != "machines":
        try:
            try:  # a person named by --judge keeps their own verdicts; a machine cannot
                people = labelset.scored(cfg, loaded_labels, judge, "people")
            except UsageError:
                people = labelset.scored(cfg, loaded_labels, None, "people")
            without: CompareResult | None = compared_on(people)
        except LabelpoolError:  # nothing judged by a person, or no question in common
            without = None
        notes = machines.without_machines(result, without)
        result = replace(result, without_machines=notes)
    return CompareReport(result, tuple(loaded))
