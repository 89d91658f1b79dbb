"""Compare systems honestly: the delta, both unjudged rates, their reading, and the noise floor.

:func:`compare` takes read runs and the labels and returns a :class:`CompareResult` with one
:class:`Comparison` per (pair, measure): each system's raw, judged-only and optimistic score
(from :func:`labelpool.scoring.score`), the unjudged rates at the measure's cut-off
(``k`` for measures read to the whole ranking), the reading of the two rates
(:mod:`labelpool.readings`), pool membership, the sign-flip test, the bootstrap interval, Holm's
adjustment over every comparison of the call, the minimum detectable effect, the range of the
delta over the unjudged documents (:mod:`labelpool.scoring.delta.question`), the judging cost,
per-question wins/ties/losses and a verdict. How many draws and resamples the noise floor
makes is :mod:`labelpool.workflows.evaluate.noise`'s choice.

The verdict names a direction (``improvement``/``regression``) when the Holm-adjusted p-value
is below ``alpha`` and either the reading is ``meaningful`` or the sign is *robust*: the
measure's value depends only on the documents each system returned (P@k, RR, Success@k:
:data:`ROBUST_FAMILIES`), so its delta range covers every labelling of the unjudged documents,
and that range excludes zero. Otherwise it is ``no-difference``, ``uninterpretable`` (with the
batch to judge) or ``relabel``. R, nDCG and AP never have a robust sign: their denominators
count relevant documents neither system returned.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from labelpool import gitio, stats
from labelpool.config import Config
from labelpool.errors import UsageError
from labelpool.model import Label
from labelpool.readings import reading, why
from labelpool.runs import Run
from labelpool.scoring import MeasureMeans, SystemScore, score
from labelpool.scoring.delta import arrays as delta_vector
from labelpool.scoring.delta.question import METHODS, DeltaRange, JudgeCost, delta_range
from labelpool.scoring.evaluate import (
    disputed_at,
    disputes_of,
    judges_of,
    machine_at,
    machine_of,
    means_of,
    unjudged_in,
)
from labelpool.scoring.join import TopRows, top_rows
from labelpool.scoring.measures import Measure
from labelpool.scoring.qrels import qrels_for
from labelpool.workflows.evaluate import coverage as coverage_mod
from labelpool.workflows.evaluate import noise
from labelpool.workflows.evaluate import pooled as pools
from labelpool.workflows.evaluate.coverage import Coverage
from labelpool.workflows.evaluate.robust import robust
from labelpool.workflows.evaluate.verdict import ADJUDICATE, verdict_of

TIE = 1e-12
MOST_CHANGED = 3


class CompareError(UsageError):
    """The runs cannot be compared (say why; a usage error, exit 2)."""


@dataclass(frozen=True)
class Comparison:
    baseline: str
    challenger: str
    measure: str
    cutoff: int  # cut-off of the unjudged rates and the judging cost
    depth: int | None  # cut-off the measure reads (None: the whole ranking)
    questions: int
    baseline_score: MeasureMeans
    challenger_score: MeasureMeans
    delta: float
    baseline_unjudged: float
    challenger_unjudged: float
    reading: str
    reading_why: str
    test: stats.TestResult
    p_adjusted: float
    ci95: tuple[float, float]
    mde: float
    delta_range: DeltaRange
    judge_cost: JudgeCost
    pooled: Mapping[str, int]  # system -> questions with a pool entry (k >= cutoff)
    wins: int
    ties: int
    losses: int
    most_changed: tuple[tuple[str, float], ...]
    verdict: str
    verdict_code: str
    pool_command: str
    robust_sign: bool = False  # the sign holds for every labelling of the unjudged documents
    unjudged_in_range: int = 0  # unjudged documents the delta range is taken over
    qids: tuple[str, ...] = ()  # the questions, in the order of the per-question scores
    baseline_per_query: tuple[float, ...] = ()  # raw score of each question
    challenger_per_query: tuple[float, ...] = ()
    # where the labels hold open disputes: each run's disputed rate at ``cutoff``
    baseline_disputed: float | None = None
    challenger_disputed: float | None = None
    # where a machine's verdict counts alone on some document: each run's machine-judged rate
    baseline_machine: float | None = None
    challenger_machine: float | None = None
    # under ``disputes = "bounds"``, where open disputes are among the documents to judge:
    # the command that makes the batch settling them (``pool --depth`` leaves them out)
    adjudicate_command: str | None = None

    @property
    def sign_can_flip(self) -> bool:
        return self.delta_range.sign_can_flip


@dataclass(frozen=True)
class CompareResult:
    labels_commit: str | None
    k: int
    seed: int
    alpha: float
    relevance_level: int
    built_by: tuple[str, ...]  # the system(s) whose pool entries cover the most questions
    pool_systems: Mapping[str, int]  # every pooled system -> questions it was pooled on
    comparisons: tuple[Comparison, ...] = field(default_factory=tuple)
    warnings: tuple[str, ...] = ()  # the scorer's warnings (ties, pending batches, ...)
    no_relevant: tuple[str, ...] = ()  # judged questions with no relevant document (in, at 0)
    not_judged: tuple[str, ...] = ()  # labels with no judgment: left out
    coverage: tuple[Coverage, ...] = ()  # each run against the scored questions, baseline first
    labels_dirty: bool | None = None  # the work tree differs from labels_commit (None: unknown)
    disputes: str | None = None  # the policy that settled open disputes (None: there are none)
    judges: str = "all"  # whose verdicts counted (people, machines, all)
    # where machine verdicts count: each comparison whose verdict differs when only people's
    # verdicts count (labelpool.workflows.evaluate.machines.without_machines)
    without_machines: tuple[str, ...] = ()
    draws: int = stats.DRAWS  # the sign-flip test's Monte Carlo draws (not used when exact)
    resamples: int = stats.RESAMPLES  # the bootstrap's resamples of the questions


@dataclass(frozen=True)
class _Partial:
    """A comparison before Holm's adjustment and the verdict."""

    fields: dict[str, Any]
    p_value: float
    range_key: str


def _display_path(cfg: Config, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(cfg.root.resolve()))
    except ValueError:
        return str(path)


def _pool_args(cfg: Config, shown: Mapping[str, str | None], runs: Sequence[Run]) -> str:
    """The runs of a suggested ``labelpool pool`` command, shell-quoted so that it runs as
    printed; a run shown as None (``check``'s reference at a git revision: no file to pool)
    is left out."""
    paths = []
    for r in runs:
        path = shown[r.name] if r.name in shown else _display_path(cfg, Path(r.path))
        if path is not None:
            paths.append(shlex.quote(path))
    return " ".join(paths)


def _score_arrays(result: SystemScore, measure: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    per = result.per_query[measure]
    return (
        np.asarray(per["raw"], dtype=np.float64),
        np.asarray(per["judged_only"], dtype=np.float64),
        np.asarray(per["optimistic"], dtype=np.float64),
    )


def compare(
    cfg: Config,
    labels: Mapping[str, Label],
    runs: Sequence[Run],
    *,
    measures: Sequence[Measure],
    baseline: str | None = None,
    k: int = 10,
    relevance_level: int = 1,
    seed: int = 0,
    draws: int | None = None,
    resamples: int | None = None,
    budget: noise.Budget = noise.BUDGET,
    pool_names: Mapping[str, str] | None = None,
    display_paths: Mapping[str, str | None] | None = None,
) -> CompareResult:
    """Compare ``runs`` pairwise: every other run against ``baseline`` (default: the first).

    ``runs`` are :class:`labelpool.runs.Run` objects with distinct names; ``pool_names`` maps a
    run's name to the system name its pool entries carry (default: the same name);
    ``display_paths`` how a run is named in the suggested ``labelpool pool`` command (default:
    its path, relative to the repository when inside it; None: left out, no file to pool).
    A run that shares no question with the labels raises
    :class:`~labelpool.workflows.evaluate.coverage.NoCommonQuestion` (its deltas would be the
    baseline's scores, read as a result); ``CompareResult.coverage`` says how each run covers
    the scored questions (those it lacks count 0, as ``trec_eval -c``).
    ``draws`` and ``resamples``: the noise floor's counts, made exactly; None: the defaults
    within ``budget`` of draws x questions (:func:`labelpool.workflows.evaluate.noise.counts`).
    The result names the labels' commit: the repository's ``HEAD`` (None outside git).
    """
    if len(runs) < 2:
        raise CompareError("compare needs at least two runs")
    noise.checked("--draws", draws)
    noise.checked("--resamples", resamples)
    by_name = {r.name: r for r in runs}
    if len(by_name) != len(runs):
        raise CompareError("two runs have the same system name; rename one (--name or file name)")
    base_name = baseline if baseline is not None else runs[0].name
    if base_name not in by_name:
        raise CompareError(f"baseline {base_name!r} is not among the runs ({', '.join(by_name)})")
    parsed = tuple(measures)
    pool_of = dict(pool_names or {})
    shown = dict(display_paths or {})

    scored = {r.name: score(r, labels, parsed, k=k, relevance_level=relevance_level) for r in runs}
    qids = [str(q) for q in scored[base_name].qids]
    if not qids:
        raise CompareError("no judged question in the labels: nothing to compare on")
    for name, res in scored.items():
        if [str(q) for q in res.qids] != qids:
            raise CompareError(f"{name}: scored on other questions than {base_name}")
    for run in runs:
        coverage_mod.require_overlap(scored[run.name])
    made = noise.counts(len(qids), draws, resamples, budget)
    qrels = qrels_for(labels)
    ideal = (qrels.ideal_q, qrels.ideal_g)
    rows_cache: dict[tuple[str, int | None], TopRows] = {}

    def tops(name: str, depth: int | None) -> TopRows:
        """Each question's ranking cut at ``depth`` (None: whole), as arrays."""
        key = (name, depth)
        if key not in rows_cache:
            rows_cache[key] = top_rows(by_name[name], qrels, depth, qrels.qids)
        return rows_cache[key]

    lists_cache: dict[tuple[str, int | None], dict[str, list[str]]] = {}

    def lists(name: str, depth: int | None) -> dict[str, list[str]]:
        """The same rankings as lists (the measures whose range is computed per question)."""
        key = (name, depth)
        if key not in lists_cache:
            run = by_name[name]
            lists_cache[key] = run.top(depth) if depth else {q: run.ranking(q) for q in qids}
        return lists_cache[key]

    def delta_range_of(m: Measure, depth: int | None, challenger: str) -> DeltaRange:
        if m.range_key in METHODS:  # the families computed over every question at once
            b, c = tops(base_name, depth), tops(challenger, depth)
            return delta_vector.ranges(
                m.range_key, depth, b, c, ideal, relevance_level, (qrels.open_q, qrels.open_g)
            )
        b_lists, c_lists = lists(base_name, depth), lists(challenger, depth)
        return delta_range(m.range_key, depth, labels, qids, b_lists, c_lists, relevance_level)

    rates_cache: dict[tuple[str, int], float] = {}
    disputed_on, policy = disputes_of(labels)
    disputed_cache: dict[tuple[str, int], float] = {}

    def disputed(name: str, cutoff: int) -> float | None:
        if disputed_on and (name, cutoff) not in disputed_cache:
            disputed_cache[(name, cutoff)] = disputed_at(by_name[name], labels, qids, cutoff)
        return disputed_cache.get((name, cutoff))

    machine_on = machine_of(labels)
    machine_cache: dict[tuple[str, int], float] = {}

    def machine(name: str, cutoff: int) -> float | None:
        if machine_on and (name, cutoff) not in machine_cache:
            machine_cache[(name, cutoff)] = machine_at(by_name[name], labels, qids, cutoff)
        return machine_cache.get((name, cutoff))

    def rates(name: str, cutoff: int) -> float:
        if (name, cutoff) not in rates_cache:
            # read from the cut rankings the judging cost holds anyway (the same questions,
            # qrels.qids), not a second join of the whole run
            _, rate = unjudged_in(tops(name, cutoff), cutoff)
            rates_cache[(name, cutoff)] = float(rate)
        return rates_cache[(name, cutoff)]

    pooled_cache: dict[tuple[str, int], int] = {}

    def pooled_on(system: str, cutoff: int) -> int:
        if (system, cutoff) not in pooled_cache:
            pooled_cache[(system, cutoff)] = pools.pooled_on(labels, qids, system, cutoff)
        return pooled_cache[(system, cutoff)]

    counts = pools.pool_counts(labels, qids)
    top_count = max(counts.values(), default=0)
    built_by = tuple(sorted(s for s, n in counts.items() if n == top_count and n > 0))

    partials: list[_Partial] = []
    base_run = by_name[base_name]
    qid_rank = _ranks(qids)
    for chal_run in (r for r in runs if r.name != base_name):
        pool_cmd_paths = _pool_args(cfg, shown, (base_run, chal_run))
        floors = _noise_floors(
            [
                _score_arrays(scored[chal_run.name], m.name)[0]
                - _score_arrays(scored[base_name], m.name)[0]
                for m in parsed
            ],
            samples=made.draws,
            resamples=made.resamples,
            seed=seed,
        )
        for m, (test, ci) in zip(parsed, floors, strict=True):
            depth = m.depth(k)
            cutoff = depth if depth is not None else k
            b_raw, b_jo, b_opt = _score_arrays(scored[base_name], m.name)
            c_raw, c_jo, c_opt = _score_arrays(scored[chal_run.name], m.name)
            deltas = c_raw - b_raw
            b_unj = rates(base_name, cutoff)
            c_unj = rates(chal_run.name, cutoff)
            dr = delta_range_of(m, depth, chal_run.name)
            cost = delta_vector.cost(tops(base_name, cutoff), tops(chal_run.name, cutoff))
            in_range = (
                cost
                if depth == cutoff
                else delta_vector.cost(tops(base_name, depth), tops(chal_run.name, depth))
            )
            most = _most_changed(deltas, qids, qid_rank)
            rd = reading(b_unj, c_unj, cfg.readings)
            fields: dict[str, Any] = {
                "baseline": base_name,
                "challenger": chal_run.name,
                "measure": m.name,
                "cutoff": cutoff,
                "depth": depth,
                "questions": len(qids),
                "baseline_score": means_of(b_raw, b_jo, b_opt),
                "challenger_score": means_of(c_raw, c_jo, c_opt),
                "delta": float(np.mean(deltas)) if len(deltas) else 0.0,
                "baseline_unjudged": b_unj,
                "challenger_unjudged": c_unj,
                "baseline_disputed": disputed(base_name, cutoff),
                "challenger_disputed": disputed(chal_run.name, cutoff),
                "baseline_machine": machine(base_name, cutoff),
                "challenger_machine": machine(chal_run.name, cutoff),
                "reading": rd,
                "reading_why": why(b_unj, c_unj, cfg.readings),
                "test": test,
                "ci95": ci,
                "mde": stats.mde(deltas, alpha=cfg.alpha),
                "delta_range": dr,
                "judge_cost": cost,
                "pooled": {
                    name: pooled_on(pool_of.get(name, name), cutoff)
                    for name in (base_name, chal_run.name)
                },
                "wins": int(np.sum(deltas > TIE)),
                "ties": int(np.sum(np.abs(deltas) <= TIE)),
                "losses": int(np.sum(deltas < -TIE)),
                "most_changed": most,
                "pool_command": f"labelpool pool {pool_cmd_paths} --depth {cutoff}",
                "adjudicate_command": (
                    ADJUDICATE if policy == "bounds" and cost.disputed else None
                ),
                "unjudged_in_range": in_range.documents,
                "qids": tuple(qids),
                "baseline_per_query": tuple(float(x) for x in b_raw),
                "challenger_per_query": tuple(float(x) for x in c_raw),
            }
            partials.append(_Partial(fields=fields, p_value=test.p_value, range_key=m.range_key))

    adjusted = stats.holm(np.array([p.p_value for p in partials]))
    comparisons = []
    for part, p_adj in zip(partials, adjusted, strict=True):
        sure = robust(part.fields, part.range_key, float(p_adj), cfg.alpha)
        text, code = verdict_of(part.fields, float(p_adj), cfg.alpha, sure)
        comparisons.append(
            Comparison(
                **part.fields,
                p_adjusted=float(p_adj),
                verdict=text,
                verdict_code=code,
                robust_sign=sure,
            )
        )
    labels_commit, labels_dirty = gitio.head_state(cfg.root)
    return CompareResult(
        labels_commit=labels_commit,
        labels_dirty=labels_dirty,
        k=k,
        seed=seed,
        alpha=cfg.alpha,
        relevance_level=relevance_level,
        draws=made.draws,
        resamples=made.resamples,
        built_by=built_by,
        pool_systems=dict(sorted(counts.items())),
        comparisons=tuple(comparisons),
        no_relevant=scored[base_name].no_relevant,
        not_judged=scored[base_name].not_judged,
        disputes=policy,
        judges=judges_of(labels),
        coverage=tuple(
            coverage_mod.of(scored[name])
            for name in (base_name, *(r.name for r in runs if r.name != base_name))
        ),
        warnings=tuple(
            dict.fromkeys(
                [
                    w if w.startswith(res.system) else f"{res.system}: {w}"
                    for res in scored.values()
                    for w in res.warnings
                ]
                + [
                    _missing_note(res.system, res.skipped["missing_from_run"], len(qids))
                    for res in scored.values()
                    if res.skipped.get("missing_from_run")
                ]
            )
        ),
    )


def _noise_floors(
    deltas: Sequence[np.ndarray], *, samples: int, resamples: int, seed: int
) -> list[tuple[stats.TestResult, tuple[float, float]]]:
    """The sign-flip test and the bootstrap interval of each measure's deltas.

    The bootstrap draws its seeded resamples once for every measure; the tests and that one
    bootstrap job run on two threads (numpy's gathers and sums release the GIL; each job has
    its own seeded generator, so the results are those of one call after another).
    """

    def test(d: np.ndarray) -> stats.TestResult:
        return stats.paired_randomization(d, samples=samples, seed=seed)

    def intervals() -> list[tuple[float, float]]:
        return stats.bootstrap_ci_many(deltas, resamples=resamples, seed=seed)

    if len(deltas) < 2 or len(deltas[0]) <= stats.EXACT_MAX_N:
        return list(zip([test(d) for d in deltas], intervals(), strict=True))
    with ThreadPoolExecutor(max_workers=2) as pool:
        cis = pool.submit(intervals)
        tests = list(pool.map(test, deltas))
        return list(zip(tests, cis.result(), strict=True))


def _ranks(qids: Sequence[str]) -> np.ndarray:
    """Each question id's place in the ids sorted as Python sorts strings."""
    out = np.empty(len(qids), dtype=np.int64)
    out[sorted(range(len(qids)), key=qids.__getitem__)] = np.arange(len(qids))
    return out


def _most_changed(
    deltas: np.ndarray, qids: Sequence[str], qid_rank: np.ndarray
) -> tuple[tuple[str, float], ...]:
    """The questions whose delta moved most (ties: by id), at most ``MOST_CHANGED``."""
    moved = np.flatnonzero(np.abs(deltas) > TIE)
    order = moved[np.lexsort((qid_rank[moved], -np.abs(deltas[moved])))]
    return tuple((qids[i], float(deltas[i])) for i in order[:MOST_CHANGED])


def _missing_note(system: str, missing: int, total: int) -> str:
    # a run missing every question never gets here: coverage.require_overlap refused it
    return f"{system}: {missing} of {total} judged question(s) are missing from the run and score 0"
