"""The CI regression gate: did a run get significantly worse than its reference?

``REF`` is a run file when one exists at that path; otherwise a git revision whose copy of the
run is used (``git show REV:path``, path relative to the git top level). The run and its
reference are compared (:func:`labelpool.workflows.evaluate.compare.compare`, reference as
baseline) on every measure; the outcome, as an exit code:

* 1 (``regression``): on some measure whose comparison is ``meaningful``, the upper end of the
  95% bootstrap interval of the delta is below ``-budget``; or on some measure whose verdict is
  a *robust* regression (P@k, RR, Success@k: the test clears alpha and the delta range over
  every labelling of the unjudged documents lies below zero, whatever the reading), the
  range's upper end is below ``-budget`` (even the most favourable labelling loses more);
* 3 (``not-meaningful``): otherwise, when some comparison is not ``meaningful`` (the reason and
  the judging cost are given), unless both rankings are identical at that measure's depth on
  every question (an unchanged run cannot have got worse, however unjudged it is);
* 0 (``ok``): the run did not get worse.

A proven regression outranks an uninterpretable measure: it is the use the seed endorses for a
pooled set (regressions of the system that built the pool).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool import gitio, runs
from labelpool.config import Config
from labelpool.errors import UsageError
from labelpool.model import Label
from labelpool.readings import MEANINGFUL
from labelpool.runs import Run
from labelpool.scoring.measures import Measure
from labelpool.words import counted, noun
from labelpool.workflows.evaluate.compare import CompareResult, compare

__all__ = ["CheckError", "CheckResult", "check", "reference_bytes"]

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_NOT_MEANINGFUL = 3


class CheckError(UsageError):
    """The check cannot run (a usage problem, exit 2: say why)."""


@dataclass(frozen=True)
class CheckResult:
    exit_code: int
    status: str  # "ok" | "regression" | "not-meaningful"
    reasons: tuple[str, ...]
    reference: str  # what the run was checked against
    result: CompareResult


def reference_bytes(cfg: Config, run_path: Path, against: str) -> tuple[bytes, str]:
    """The reference run's content and a description: a file at ``against``, or ``REV:path``."""
    ref_file = Path(against)
    if not ref_file.is_absolute() and not ref_file.exists():
        ref_file = cfg.root / against
    if ref_file.is_file():
        return ref_file.read_bytes(), str(against)
    top = gitio.toplevel(run_path.resolve().parent)
    if top is None:
        raise CheckError(
            f"--against {against!r}: no such run file, and {run_path} is not in a git repository"
        )
    try:
        commit = gitio.rev_parse(top, against)
    except gitio.GitError:
        raise CheckError(
            f"--against {against!r}: neither a run file nor a git revision of {top}"
        ) from None
    rel = run_path.resolve().relative_to(top.resolve()).as_posix()
    data = gitio.show(top, commit, rel)
    if data is None:
        raise CheckError(f"--against {against!r}: {rel} does not exist at {commit[:12]}")
    return data, f"{against}:{rel}"


def _poolable(cfg: Config, against: str, system: str) -> str | None:
    """How the reference appears in the suggested ``labelpool pool`` command: a reference
    file of another system by its path; None (the checked run is pooled alone) for a git
    revision's copy (no file to pool) or a file of the same system (pool refuses one system
    twice)."""
    ref_file = Path(against)
    if not ref_file.is_absolute() and not ref_file.exists():
        ref_file = cfg.root / against
    if not ref_file.is_file() or runs.system_name(ref_file) == system:
        return None
    return against


def _same_rankings(a: Run, b: Run, depth: int | None) -> bool:
    """True when two runs rank the same documents in the same order (to ``depth``; None: all)."""
    if depth is None:
        qids = sorted(a.qid_set | b.qid_set)
        return all(a.ranking(q) == b.ranking(q) for q in qids)
    return bool(a.top(depth) == b.top(depth))


def check(
    cfg: Config,
    labels: Mapping[str, Label],
    run_path: Path,
    against: str,
    *,
    measures: Sequence[Measure],
    budget: float = 0.0,
    k: int = 10,
    relevance_level: int = 1,
    seed: int = 0,
    labels_commit: str | None = None,
    labels_dirty: bool | None = None,
) -> CheckResult:
    if budget < 0:
        raise CheckError(f"--budget must be >= 0, not {budget}")
    run = runs.read_run(run_path)
    data, described = reference_bytes(cfg, run_path, against)
    ref_name = f"{run.name}@{against}"
    ref = runs.read_run_bytes(data, described, name=ref_name, file_name=run_path.name)
    same = {depth: _same_rankings(ref, run, depth) for depth in {m.depth(k) for m in measures}}
    result = compare(
        cfg,
        labels,
        [ref, run],
        baseline=ref_name,
        measures=measures,
        k=k,
        relevance_level=relevance_level,
        seed=seed,
        labels_commit=labels_commit,
        labels_dirty=labels_dirty,
        pool_names={ref_name: run.name},
        display_paths={ref_name: _poolable(cfg, against, run.name)},
    )
    regressions = []
    unclear = []
    for c in result.comparisons:
        if c.robust_sign and c.delta < 0 and c.delta_range.high < -budget:
            regressions.append(
                f"{c.measure}: {c.delta:+.3f}, p = {c.p_adjusted:.2g}, delta range "
                f"[{c.delta_range.low:.3f}, {c.delta_range.high:.3f}] below -{budget:g} for "
                f"every labelling of the {c.unjudged_in_range} unjudged "
                f"{noun(c.unjudged_in_range, 'document')} "
                f"({c.reading})"
            )
        elif c.reading == MEANINGFUL:
            if c.ci95[1] < -budget:
                regressions.append(
                    f"{c.measure}: {c.delta:+.3f}, 95% CI [{c.ci95[0]:.3f}, {c.ci95[1]:.3f}] "
                    f"below -{budget:g}"
                )
        elif not same[c.depth]:
            unclear.append(
                f"{c.measure}: {c.reading} ({c.reading_why}); judge "
                f"{counted(c.judge_cost.documents, 'document')} over "
                f"{counted(c.judge_cost.questions, 'question')} ({c.pool_command})"
            )
    if regressions:
        return CheckResult(EXIT_REGRESSION, "regression", tuple(regressions), described, result)
    if unclear:
        return CheckResult(EXIT_NOT_MEANINGFUL, "not-meaningful", tuple(unclear), described, result)
    return CheckResult(EXIT_OK, "ok", (), described, result)
