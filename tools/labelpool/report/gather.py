"""Everything the report shows, computed through the API calls and the workflows.

The comparisons are ``labelpool compare``'s (:func:`labelpool.api.comparison.compare`: the same
baseline rule, Holm over the whole call, the same seed); the scores are the scorer's
(:func:`labelpool.scoring.score`, as ``labelpool score``); the pool is ``pool-info``'s; each
document's mark is what ``labelpool history`` calls its state. Nothing here is a statistic of
its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from labelpool import __version__, gitio, scoring, stats
from labelpool.api.comparison import compare
from labelpool.api.repository import Repository, checked_measures
from labelpool.corpus import Text, load_texts
from labelpool.report import priority, timeline
from labelpool.runs import Run
from labelpool.scoring import SystemScore
from labelpool.scoring.measures import Measure
from labelpool.workflows.audit import history, poolinfo
from labelpool.workflows.evaluate import compared
from labelpool.workflows.evaluate.compare import CompareResult
from labelpool.workflows.evaluate.coverage import require_overlap

DRILL_DEPTH = 20  # the drill-down shows at most each ranking's top 20


@dataclass(frozen=True)
class Doc:
    doc: str
    mark: str  # relevant | irrelevant | duplicate | unjudged
    grade: int | None
    text: Text | None  # the chunk's text, when a corpus is configured and holds it


@dataclass(frozen=True)
class Question:
    qid: str
    text: str
    rankings: tuple[tuple[Doc, ...], ...]  # one per run, in the order of ReportData.runs


@dataclass(frozen=True)
class RunFacts:
    name: str
    path: str  # as given, relative to the repository when inside it
    blob: str  # git hash-object of the file


@dataclass(frozen=True)
class ReportData:
    version: str
    labels_commit: str | None
    runs: tuple[RunFacts, ...]  # the baseline first
    measures: tuple[Measure, ...]
    k: int
    relevance_level: int
    seed: int
    resamples: int  # the comparison's bootstrap resamples (compare's default for one run)
    high: float  # an unjudged rate above this is high ([tool.labelpool.readings] high)
    scores: tuple[SystemScore, ...]  # one per run, same order
    compared: CompareResult | None  # None for one run
    priorities: tuple[priority.Priority, ...]  # one per challenger (first measure)
    questions: tuple[Question, ...]
    drill_depth: int
    pool: poolinfo.PoolInfo
    history: timeline.Timeline


def gather(
    repo: Repository,
    runs: Sequence[str],
    *,
    baseline: str | None = None,
    measures: Sequence[str] | None = None,
    k: int = 10,
    relevance_level: int = 1,
    seed: int = 0,
) -> ReportData:
    """The report of ``runs`` (paths or system names; the first is the baseline unless
    ``baseline`` names one). One run and no ``baseline``: the scores without comparisons."""
    cfg = repo.config
    chosen = checked_measures(measures, k, relevance_level)
    result: CompareResult | None = None
    if len(runs) >= 2 or baseline is not None:
        report = compare(
            runs[0] if baseline is None else baseline,
            list(runs[1:] if baseline is None else runs),
            measures=measures,
            k=k,
            relevance_level=relevance_level,
            seed=seed,
            repo=repo,
        )
        loaded, result = list(report.runs), report.result
    else:
        loaded, _ = compared.load_runs(cfg, list(runs))
    scores = tuple(
        scoring.score(r, repo.labels, chosen, k=k, relevance_level=relevance_level) for r in loaded
    )
    for s in scores:  # compare refused these already; one run is scored here only
        require_overlap(s)
    qids = [str(q) for q in scores[0].qids]
    return ReportData(
        version=__version__,
        labels_commit=gitio.head_commit(cfg.root),
        runs=tuple(_facts(repo, r) for r in loaded),
        measures=tuple(chosen),
        k=k,
        relevance_level=relevance_level,
        seed=seed,
        resamples=stats.RESAMPLES if result is None else result.resamples,
        high=cfg.readings.high,
        scores=scores,
        compared=result,
        priorities=_priorities(repo, loaded, result),
        questions=_questions(repo, loaded, qids, min(k, DRILL_DEPTH)),
        drill_depth=min(k, DRILL_DEPTH),
        pool=_pool(repo, k),
        history=timeline.timeline(cfg),
    )


def _facts(repo: Repository, run: Run) -> RunFacts:
    path = run.path
    try:
        shown = path.resolve().relative_to(repo.root.resolve()).as_posix()
    except ValueError:
        shown = str(path)
    return RunFacts(run.name, shown, gitio.blob_id(repo.root, path))


def _priorities(
    repo: Repository, loaded: Sequence[Run], result: CompareResult | None
) -> tuple[priority.Priority, ...]:
    if result is None:
        return ()
    first = result.comparisons[0].measure
    by_name = {r.name: r for r in loaded}
    out = []
    for c in result.comparisons:
        if c.measure != first:
            continue
        base = by_name[c.baseline].top(c.cutoff)
        chal = by_name[c.challenger].top(c.cutoff)
        out.append(
            priority.rank(c, repo.labels, base, chal, relevance_level=result.relevance_level)
        )
    return tuple(out)


def mark(label_state: history.DocState | None) -> tuple[str, int | None]:
    """A document's mark in the drill-down, from its state in the label."""
    if label_state is None or label_state.kind in ("pending", "pooled-unjudged"):
        return "unjudged", None
    if label_state.kind == "irrelevant":
        return "irrelevant", 0
    if label_state.kind == "class-member":
        return "duplicate", label_state.grade
    return "relevant", label_state.grade


def _questions(
    repo: Repository, loaded: Sequence[Run], qids: Sequence[str], depth: int
) -> tuple[Question, ...]:
    texts: Mapping[str, Text] = load_texts(repo.config)
    tops = [r.top(depth) for r in loaded]
    out = []
    for q in qids:
        label = repo.labels[q]
        rankings = []
        for top in tops:
            docs = []
            for d in top.get(q, []):
                kind, grade = mark(history.doc_state(label, d))
                docs.append(Doc(d, kind, grade, texts.get(d) if d in texts else None))
            rankings.append(tuple(docs))
        out.append(Question(q, label.question, tuple(rankings)))
    return tuple(out)


def _pool(repo: Repository, k: int) -> poolinfo.PoolInfo:
    cfg, labels = repo.config, repo.labels
    measured = poolinfo.measure_runs(cfg, labels, poolinfo.pooled_systems(labels), k)
    return poolinfo.pool_info(labels, k, poolinfo.run_systems(cfg.runs_dir), measured)


def unjudged_of(s: SystemScore) -> dict[str, float]:
    """Each question's unjudged rate at k."""
    return {str(q): float(u) for q, u in zip(s.qids, np.asarray(s.unjudged), strict=True)}
