"""``labelpool.api.score``: runs scored against the labels, as ``labelpool score`` prints them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import gitio
from labelpool import runs as runs_mod
from labelpool.api.repository import (
    Repository,
    RepoSpec,
    RunSpec,
    checked_measures,
    config_of,
    plain,
    specs,
    with_disputes,
    with_judges,
)
from labelpool.errors import UsageError
from labelpool.render.score import formats as score_report
from labelpool.render.score.formats import ScoreView
from labelpool.scoring import SystemScore
from labelpool.scoring import measures as measures_mod
from labelpool.workflows.evaluate import run_args
from labelpool.workflows.evaluate import score as score_workflow


@dataclass(frozen=True)
class ScoreReport:
    """One :class:`~labelpool.scoring.SystemScore` per run, and what the output shows beside
    them (the labels' commit, the reading threshold, whether every question is shown)."""

    systems: tuple[SystemScore, ...]
    view: ScoreView

    def to_dict(self) -> dict[str, Any]:
        """What ``labelpool score --format json`` prints, parsed
        (``schema/score-report.schema.json``)."""
        return plain(score_report.document(self.systems, self.view))

    def to_json(self) -> str:
        """Exactly what ``labelpool score --format json`` prints (the command prints this)."""
        return score_report.render_json(self.systems, self.view)

    def __getitem__(self, system: str) -> SystemScore:
        """The score of one system, by name."""
        for s in self.systems:
            if s.system == system:
                return s
        raise KeyError(system)


def score(
    runs: RunSpec | Sequence[RunSpec],
    *,
    measures: Sequence[str] | None = None,
    k: int = 10,
    relevance_level: int = 1,
    names: Sequence[str] | None = None,
    per_query: bool = False,
    with_pending: bool = False,
    repo: RepoSpec = ".",
    on_progress: Callable[[], None] | None = None,
    judge: str | None = None,
    disputes: str | None = None,
    judges: str | None = None,
) -> ScoreReport:
    """Score ``runs`` (files, folders of run files, or system names in ``runs/``) against
    the labels: every measure raw, judged-only and optimistic, with the unjudged rate.

    ``measures``: ir_measures or trec_eval names (default ``R@10 nDCG@10 P@10``);
    ``names``: one system name per run file (default: the file name);
    ``with_pending``: scored as if the filled verdicts of the working tree were merged
    (``score --with-pending``; nothing written; ``view.preview`` counts them);
    ``on_progress()`` is called after each run. Raises the ``LabelpoolError`` classes:
    ``UsageError`` for a bad argument, ``RunError`` for a missing or unreadable run,
    ``LabelSetError``, ``NothingToScore``, ``NoCommonQuestion`` for a run that shares no
    question with the labels. ``ScoreReport.systems[i].missing`` names the labelled questions
    a run lacks (each counted 0, as ``trec_eval -c``). ``judge``: one judge's own verdict
    wherever they gave one (``score --judge``; their full identity, or a person's email);
    ``disputes``: how an open dispute counts (``bounds``, ``majority``, ``max``, ``min``;
    default ``[tool.labelpool] disputes``); ``systems[i].disputed_rate`` where disputes exist.
    ``judges``: whose verdicts count (``people``, ``machines`` or ``all``, where a person
    outranks a machine; default ``[tool.labelpool] score_judges``); ``systems[i].machine_rate``
    where machine verdicts count alone on some document."""
    chosen = checked_measures(measures, k, relevance_level, measures_mod.SCORE_DEFAULT)
    cfg = with_judges(with_disputes(config_of(repo), disputes), judges)
    try:  # what the CLI's run arguments stand for (a folder: its run files)
        paths = list(run_args.select(cfg, specs(runs), measures=measures).paths)
    except runs_mod.RunNotFound as exc:  # 0.1.0: score exits 1 for a missing run
        raise runs_mod.RunError(exc.path, exc.line, exc.message) from None
    system_names = list(names) if names is not None else [runs_mod.system_name(p) for p in paths]
    if len(system_names) != len(paths):
        raise UsageError(
            f"--name given {len(system_names)} time(s) for {len(paths)} run(s); "
            "give one name per run, in order"
        )
    seen: dict[str, Path] = {}
    for system, path in zip(system_names, paths, strict=True):
        if system in seen:
            raise UsageError(
                f"two runs are named {system!r} ({seen[system]}, {path}); "
                "use --name to tell them apart"
            )
        seen[system] = path
    pending = None
    if with_pending:  # merge's reading and fold: imported only for a preview
        from labelpool.workflows.merge import commits as merge_workflow

        pending = merge_workflow.preview(cfg)
    results = score_workflow.score_files(
        cfg,
        paths,
        system_names,
        chosen,
        k=k,
        relevance_level=relevance_level,
        on_progress=on_progress,
        preview=pending.texts if pending is not None else None,
        labels=repo.labels if isinstance(repo, Repository) else None,
        judge=judge,
    )
    commit, dirty = gitio.head_state(cfg.root)
    view = ScoreView(
        labels_commit=commit,
        labels_dirty=dirty,
        high=cfg.readings.high,
        per_query=per_query,
        preview=pending.filled if pending is not None else None,
    )
    return ScoreReport(tuple(results), view)
