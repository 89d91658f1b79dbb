"""Leave-one-system-out pool-bias audit (Zobel 1998; Büttcher et al. 2007).

For each pooled system with a committed run, the judgments only that system contributed are
removed (documents in its top ``k`` of a question, ``k`` from that question's pool entry, and in
no other pooled system's top ``k`` at *their* pool depths there), then every system with a run
in ``runs/`` is rescored on the reduced labels. The report gives the left-out system's score and
rank change and Kendall's tau-b between the full and the reduced ranking of all systems: a
system that loses much when it leaves the pool is one the set cannot fairly compare with
systems outside it.

Decisions:

* Contributions are computed from the run *as pooled*: the blob a pool entry records
  (``run: <blob id>``) when git still has it, else the current file. Scores always use the
  current files in ``runs/``.
* A question with a pool entry of unknown origin (``system: unknown`` or ``k: null``) cannot
  be attributed: nothing is removed there (counted as ``unattributed_questions``).
* It needs a committed run for every pooled system (a missing one could have contributed any
  document) and at least two pooled systems with runs: with a single pooled system every
  pooled judgment is its own contribution, so leaving it out leaves nothing to score against.
  Both cases raise :class:`BiasError` naming the systems.
* A removed judgment leaves the label as if the document had never been judged: it leaves
  ``judged_ids``, ``relevant_doc_ids``, ``grades`` and its relevance class; a class that
  loses its relevant members keeps its remaining members relevant at the class's grade.
* A question whose judgments all go is left out of the reduced averages (as any unjudged
  question is).
* Ranks are competition ranks by score, descending (ties share the better rank);
  ``rank_change = rank - reduced_rank`` (negative: the system dropped places).

The JSON shape (:func:`to_json`), stable::

    {"measure": "nDCG@10", "k": 10, "relevance_level": 1,
     "unattributed_questions": 0,
     "systems": [{"system", "run", "pooled", "score", "rank", "unjudged_rate"}, ...],
     "leave_one_out": [
        {"system", "removed_judgments", "removed_relevant", "questions",
         "score", "reduced_score", "delta", "rank", "reduced_rank", "rank_change",
         "kendall_tau" (null when undefined),
         "systems": [{"system", "score", "reduced_score", "delta", "rank", "reduced_rank",
                      "rank_change", "unjudged_rate", "reduced_unjudged_rate"}, ...]},
        ...]}

``systems`` lists every system with a run, best first; ``leave_one_out`` one entry per pooled
system, in name order. Numbers are floats; an undefined value (a tau over tied scores, a mean
over no question) is ``null``.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.errors import InputError, LabelpoolError
from labelpool.labelset import LabelSet
from labelpool.model import Label
from labelpool.runs import Run
from labelpool.scoring import cache_file_for, prepare, qrels
from labelpool.scoring import score as score_run
from labelpool.scoring.measures import Measure
from labelpool.scoring.reduced import relevant_removed, without_judgments
from labelpool.workflows.evaluate import contributions as contributions_mod
from labelpool.workflows.evaluate import pooled as pools
from labelpool.workflows.validate.pooledruns import PooledRuns, committed_runs

if TYPE_CHECKING:  # the reference's type only: provenance imports validate's rules
    from labelpool.workflows.validate.provenance import EntryTop


class BiasError(InputError):
    """The audit cannot run on this repository (exit 1); the message says why and what to do."""


# --------------------------------------------------------------------------- statistics


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b between two paired score lists (ties handled); NaN when undefined.

    ``(concordant - discordant) / sqrt((n0 - ties_x) * (n0 - ties_y))`` over all pairs,
    where ``n0 = n(n-1)/2``; equals ``scipy.stats.kendalltau(x, y)`` (variant ``b``).
    """
    if len(x) != len(y):
        raise ValueError("kendall_tau_b: the two lists differ in length")
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = x[i] - x[j]
            dy = y[i] - y[j]
            if dx == 0:
                ties_x += 1
            if dy == 0:
                ties_y += 1
            if dx == 0 or dy == 0:
                continue
            if (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    n0 = n * (n - 1) // 2
    denom = math.sqrt((n0 - ties_x) * (n0 - ties_y))
    if denom == 0:
        return math.nan
    return (concordant - discordant) / denom


def competition_ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """Rank 1 = best score; equal scores share the better rank (1, 2, 2, 4)."""
    return {s: 1 + sum(1 for v in scores.values() if v > score) for s, score in scores.items()}


# --------------------------------------------------------------------------- contributions


def unique_contributions(
    labels: Mapping[str, Label], pooled: Mapping[str, Mapping[str, Iterable[str]]]
) -> dict[str, dict[str, frozenset[str]]]:
    """Per pooled system, per question: the judged documents only that system contributed.

    ``pooled[qid][system]`` is the system's top ``k`` of the question as pooled (``k`` of its
    pool entry there). A document is the system's own contribution when it is judged and in no
    other pooled system's top ``k`` of that question.
    """
    out: dict[str, dict[str, frozenset[str]]] = {}
    for qid, by_system in pooled.items():
        judged = labels[qid].judged
        sets = {s: frozenset(docs) for s, docs in by_system.items()}
        for system, docs in sets.items():
            others: set[str] = set()
            for other, odocs in sets.items():
                if other != system:
                    others |= odocs
            mine = frozenset(d for d in docs - others if d in judged)
            if mine:
                out.setdefault(system, {})[qid] = mine
    return out


def pooled_tops(
    entry_tops: Iterable[EntryTop],
) -> tuple[dict[str, dict[str, frozenset[str]]], set[str]]:
    """``pooled[qid][system]`` (the deepest entry wins) and the unattributable questions.

    A question is unattributable when one of its pool entries is of unknown origin or its run
    as pooled cannot be read (a recorded blob git no longer has).
    """
    pooled: dict[str, dict[str, frozenset[str]]] = {}
    unattributed: set[str] = set()
    for et in entry_tops:
        if et.docs is None:
            unattributed.add(et.qid)
            continue
        by_system = pooled.setdefault(et.qid, {})
        if len(et.docs) >= len(by_system.get(et.entry.system, ())):
            by_system[et.entry.system] = frozenset(et.docs)
    for qid in unattributed:
        pooled.pop(qid, None)
    return pooled, unattributed


def without(label: Label, docs: Iterable[str]) -> Label:
    """``label`` as if ``docs`` had never been judged (see the module's decisions)."""
    drop = frozenset(docs)
    if not drop:
        return label

    def keep(ids: Iterable[str]) -> tuple[str, ...]:
        return tuple(d for d in ids if d not in drop)

    relevant = list(keep(label.relevant_doc_ids))
    grades = {d: g for d, g in label.grades.items() if d not in drop}
    classes: list[tuple[str, ...]] = []
    for cls in label.relevant_classes:
        rest = keep(cls)
        if not rest:
            continue
        grade = label.gain.get(cls[0], 1)
        if grade > 0 and len(rest) < len(cls) and not any(d in relevant for d in rest):
            # The class's relevant member went; its remaining members stay relevant.
            relevant.append(rest[0])
            if grade != 1:
                grades[rest[0]] = grade
        classes.append(rest)
    return replace(
        label,
        relevant_doc_ids=tuple(sorted(relevant)),
        judged_ids=keep(label.judged_ids),
        grades=grades,
        relevant_classes=tuple(classes),
    )


def reduce_labels(labels: LabelSet, removed: Mapping[str, frozenset[str]]) -> LabelSet:
    """A label set with ``removed[qid]`` taken out of each question's judgments (the
    reference: every label rebuilt by :func:`without`)."""
    return LabelSet(
        labels={q: without(lab, removed.get(q, ())) for q, lab in labels.items()},
        paths=labels.paths,
        digest="",
    )


class _Without(Mapping[str, Label]):
    """The labels of a set with ``removed`` taken out, each built by :func:`without` only
    when asked for (a scorer reading the labels themselves, e.g. a trec_eval measure)."""

    def __init__(self, labels: Mapping[str, Label], removed: Mapping[str, frozenset[str]]):
        self._labels = labels
        self._removed = removed

    def __getitem__(self, qid: str) -> Label:
        return without(self._labels[qid], self._removed.get(qid, ()))

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels)

    def __len__(self) -> int:
        return len(self._labels)


def reduced_set_of(labels: LabelSet, removed: Mapping[str, frozenset[str]]) -> LabelSet:
    """:func:`reduce_labels`, building no label when the set carries its columns (and no
    record of judges): the reduced judgment arrays are the full set's with the removed keys
    masked out (:func:`labelpool.scoring.reduced.without_judgments`), held for the new set."""
    cols = labels.columns
    if cols is None or cols.resolves:
        return reduce_labels(labels, removed)
    out = LabelSet(labels=_Without(labels.labels, removed), paths=labels.paths, digest="")
    qrels.hold(out, without_judgments(qrels.qrels_for(labels), cols, removed))
    return out


# --------------------------------------------------------------------------- the audit


@dataclass(frozen=True)
class Row:
    """One system's score with and without the left-out system's contributions."""

    system: str
    score: float
    reduced_score: float
    rank: int
    reduced_rank: int
    unjudged_rate: float
    reduced_unjudged_rate: float

    @property
    def delta(self) -> float:
        return self.reduced_score - self.score

    @property
    def rank_change(self) -> int:
        return self.rank - self.reduced_rank


@dataclass(frozen=True)
class LeaveOut:
    """The pool without one system: what went, and how every system's score moved."""

    system: str
    removed_judgments: int  # (question, document) judgments removed
    removed_relevant: int  # ... of which relevant (grade >= 1)
    questions: int  # questions where something was removed
    kendall_tau: float  # tau-b, full vs reduced ranking of all systems (NaN if undefined)
    rows: tuple[Row, ...]  # every system, best (full score) first

    @property
    def own(self) -> Row:
        return next(r for r in self.rows if r.system == self.system)


@dataclass(frozen=True)
class SystemInfo:
    system: str
    run: str  # path relative to the repository root
    pooled: bool
    score: float
    rank: int
    unjudged_rate: float


@dataclass(frozen=True)
class BiasReport:
    measure: str
    k: int
    relevance_level: int
    systems: tuple[SystemInfo, ...]  # every system with a run, best first
    leave_outs: tuple[LeaveOut, ...]  # one per pooled system, by name
    unattributed_questions: int


@dataclass(frozen=True)
class Scored:
    """What the audit needs from a scorer: the mean of one measure and the unjudged rate."""

    score: float
    unjudged_rate: float


Scorer = Callable[[Path, str, LabelSet], Scored]


def default_scorer(
    measure: Measure, k: int, relevance_level: int, loaded: dict[Path, Run] | None = None
) -> Scorer:
    """Score with :func:`labelpool.scoring.score` (each run read once: ``loaded``)."""
    cache: dict[Path, Run] = loaded if loaded is not None else {}

    def scorer(path: Path, system: str, labels: LabelSet) -> Scored:
        if path not in cache:
            cache[path] = runs_mod.read_run(path, name=system)
        result = score_run(cache[path], labels, [measure], k=k, relevance_level=relevance_level)
        return Scored(
            score=float(result.means[measure.name].raw), unjudged_rate=result.unjudged_rate
        )

    return scorer


def audit_loading(
    cfg: Config,
    load: Callable[[], LabelSet],
    measure: Measure,
    k: int = 10,
    relevance_level: int = 1,
) -> BiasReport:
    """:func:`audit` of the labels ``load()`` gives, the committed run files parsed meanwhile
    on a thread (pyarrow's C++ releases the GIL the Python label reader holds). Prefetching
    is best effort: a run it cannot read is read again, and its error raised, where
    :func:`audit` reads it, after any problem with the labels."""

    def prefetch() -> dict[Path, Run]:
        try:
            return {path: runs_mod.read_run(path) for path in committed_runs(cfg).values()}
        except LabelpoolError:
            return {}

    with ThreadPoolExecutor(max_workers=1) as background:
        pending = background.submit(prefetch)
        labels = load()
        # the full set's arrays through score's file cache (a warm audit loads them)
        prepare(labels, cache_file_for(cfg.labels_dir))
        loaded = pending.result()
    return audit(cfg, labels, measure, k, relevance_level, loaded=loaded)


def audit(
    cfg: Config,
    labels: LabelSet,
    measure: Measure,
    k: int = 10,
    relevance_level: int = 1,
    scorer: Scorer | None = None,
    loaded: Mapping[Path, Run] | None = None,
) -> BiasReport:
    """Run the leave-one-system-out audit over every run in ``cfg.runs_dir`` (``loaded``:
    run files already read, by path)."""
    runs = committed_runs(cfg)
    pooled_names = pools.pooled_systems(labels)
    missing = [s for s in pooled_names if s not in runs]
    if missing:
        raise BiasError(
            "bias needs a committed run for every pooled system; no run in "
            f"{_rel(cfg, cfg.runs_dir)}/ for: {', '.join(missing)} "
            "(a missing system could have contributed any judged document)"
        )
    if len(pooled_names) < 2:
        which = pooled_names[0] if pooled_names else "none"
        raise BiasError(
            "leave-one-system-out needs at least two pooled systems with committed runs; "
            f"pooled here: {which}. With a single pooled system every pooled judgment is its "
            "own contribution, so leaving it out leaves nothing to score the others against. "
            + _pool_second(cfg, labels, runs, pooled_names)
        )

    pooled_runs = PooledRuns(cfg, runs)
    pooled_runs.loaded.update(loaded or {})
    # unique_contributions(labels, pooled_tops(entry_tops(pooled_runs, labels))), over arrays
    contributions, unattributed = contributions_mod.contributions(labels, pooled_runs)

    score = scorer or default_scorer(measure, k, relevance_level, pooled_runs.loaded)
    names = sorted(runs)
    full = {s: score(runs[s], s, labels) for s in names}
    full_scores = {s: v.score for s, v in full.items()}
    full_ranks = competition_ranks(full_scores)
    order = sorted(names, key=lambda s: (-full_scores[s], s))

    leave_outs: list[LeaveOut] = []
    for system in pooled_names:
        removed = contributions.get(system, {})
        reduced_set = reduced_set_of(labels, removed)
        reduced = {s: score(runs[s], s, reduced_set) for s in names}
        reduced_scores = {s: v.score for s, v in reduced.items()}
        reduced_ranks = competition_ranks(reduced_scores)
        rows = tuple(
            Row(
                system=s,
                score=full_scores[s],
                reduced_score=reduced_scores[s],
                rank=full_ranks[s],
                reduced_rank=reduced_ranks[s],
                unjudged_rate=full[s].unjudged_rate,
                reduced_unjudged_rate=reduced[s].unjudged_rate,
            )
            for s in order
        )
        leave_outs.append(
            LeaveOut(
                system=system,
                removed_judgments=sum(len(d) for d in removed.values()),
                removed_relevant=_relevant(labels, removed),
                questions=len(removed),
                kendall_tau=kendall_tau_b(
                    [full_scores[s] for s in names], [reduced_scores[s] for s in names]
                ),
                rows=rows,
            )
        )
    systems = tuple(
        SystemInfo(
            system=s,
            run=_rel(cfg, runs[s]),
            pooled=s in pooled_names,
            score=full_scores[s],
            rank=full_ranks[s],
            unjudged_rate=full[s].unjudged_rate,
        )
        for s in order
    )
    return BiasReport(
        measure=measure.name,
        k=k,
        relevance_level=relevance_level,
        systems=systems,
        leave_outs=tuple(leave_outs),
        unattributed_questions=len(unattributed),
    )


def _relevant(labels: LabelSet, removed: Mapping[str, frozenset[str]]) -> int:
    """How many of ``removed`` were relevant (from the arrays when the set has columns)."""
    cols = labels.columns
    if cols is not None and not cols.resolves:
        return relevant_removed(qrels.qrels_for(labels), cols, removed)
    return sum(1 for q, docs in removed.items() for d in docs if labels[q].gain.get(d, 0) > 0)


def _pool_second(
    cfg: Config, labels: LabelSet, runs: Mapping[str, Path], pooled: Sequence[str]
) -> str:
    """What to do next: a ``labelpool pool`` command that runs as printed when a run of
    another system is committed, else what to commit first."""
    depths = [p.k for lab in labels.values() for p in lab.pool if not p.unknown and p.k]
    depth = max(depths, default=10)
    others = [s for s in runs if s not in pooled]
    if not others:
        return (
            f"Commit a second system's run in {_rel(cfg, cfg.runs_dir)}/, pool it with "
            "labelpool pool at the same depth, judge the batch and merge it."
        )
    paths = [runs[s] for s in (*pooled, others[0])]
    command = " ".join(["labelpool pool", *(shlex.quote(_rel(cfg, p)) for p in paths)])
    return f"Pool a second system first (`{command} --depth {depth}`, then judge and merge)."


def _rel(cfg: Config, path: Path) -> str:
    try:
        return path.relative_to(cfg.root).as_posix()
    except ValueError:
        return str(path)
