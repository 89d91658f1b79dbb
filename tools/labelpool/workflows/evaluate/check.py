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

Before any of these, coverage: the share of the scored (labelled, judged) questions that both
the run and its reference hold. Below ``min_coverage`` (default 1.0: every one) the outcome
is 3 (``not-meaningful``) whatever the measures say, with the questions each side lacks (they
count 0, as ``trec_eval -c``, so a delta may be only their absence). A run or reference that
shares no question with the labels is an input error (exit 1,
:class:`~labelpool.workflows.evaluate.coverage.NoCommonQuestion`).
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
from labelpool.workflows.evaluate import raters
from labelpool.workflows.evaluate.compare import CompareResult, compare
from labelpool.workflows.evaluate.coverage import in_both, some
from labelpool.workflows.evaluate.verdict import to_judge

__all__ = ["CheckError", "CheckResult", "check", "reference_bytes"]

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_NOT_MEANINGFUL = 3
NAMED_MISSING = 5  # questions a coverage reason names per side


class CheckError(UsageError):
    """The check cannot run (a usage problem, exit 2: say why)."""


@dataclass(frozen=True)
class CheckResult:
    exit_code: int
    status: str  # "ok" | "regression" | "not-meaningful"
    reasons: tuple[str, ...]
    reference: str  # what the run was checked against
    result: CompareResult
    coverage: float = 1.0  # share of the scored questions both the run and the reference hold
    min_coverage: float = 1.0
    # [tool.labelpool] machine_min_agreement: each machine judge's agreement said, where it
    # is not measured yet (fewer documents than machine_min_sample) or passes
    notes: tuple[str, ...] = ()


def _reference_file(cfg: Config, against: str) -> Path:
    """Where a reference run file named ``against`` would be: the path as given when it is
    absolute or exists, else under the repository root (it may be a git revision instead)."""
    ref_file = Path(against)
    if not ref_file.is_absolute() and not ref_file.exists():
        ref_file = cfg.root / against
    return ref_file


def reference_bytes(cfg: Config, run_path: Path, against: str) -> tuple[bytes, str]:
    """The reference run's content and a description: a file at ``against``, or ``REV:path``."""
    ref_file = _reference_file(cfg, against)
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
    ref_file = _reference_file(cfg, against)
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
    min_coverage: float = 1.0,
    draws: int | None = None,
    resamples: int | None = None,
) -> CheckResult:
    if budget < 0:
        raise CheckError(f"--budget must be >= 0, not {budget}")
    if not 0.0 <= min_coverage <= 1.0:  # also refuses nan
        raise CheckError(f"--min-coverage must be a number from 0 to 1, not {min_coverage}")
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
        draws=draws,
        resamples=resamples,
        pool_names={ref_name: run.name},
        display_paths={ref_name: _poolable(cfg, against, run.name)},
    )
    both, share = in_both(result.coverage[0], result.coverage[1])

    failing, notes = machine_gate(cfg, labels, relevance_level)

    def outcome(code: int, status: str, reasons: Sequence[str]) -> CheckResult:
        return CheckResult(
            code, status, tuple(reasons), described, result, share, min_coverage, notes
        )

    if share < min_coverage:
        reason = _coverage_reason(result, both, share, min_coverage)
        return outcome(EXIT_NOT_MEANINGFUL, "not-meaningful", [reason, *failing])
    if failing:
        return outcome(EXIT_NOT_MEANINGFUL, "not-meaningful", failing)
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
                f"{to_judge(c.judge_cost, c.pool_command, c.adjudicate_command)}"
            )
    if regressions:
        return outcome(EXIT_REGRESSION, "regression", regressions)
    if unclear:
        return outcome(EXIT_NOT_MEANINGFUL, "not-meaningful", unclear)
    return outcome(EXIT_OK, "ok", [])


def machine_gate(
    cfg: Config, labels: Mapping[str, Label], relevance_level: int = 1
) -> tuple[list[str], tuple[str, ...]]:
    """``[tool.labelpool] machine_min_agreement``: (the machine judges whose kappa with
    people, on at least ``machine_min_sample`` documents both judged, is below it; the notes
    on the others). Nothing when the gate is off or machine verdicts do not count
    (``judges = people``)."""
    minimum = cfg.machine_min_agreement
    if minimum is None or cfg.judges == "people":
        return [], ()
    failing: list[str] = []
    notes: list[str] = []
    for row in raters.machine_agreement(labels, cfg.disputes, relevance_level):
        n = counted(row.documents, "document")
        if row.documents < cfg.machine_min_sample:
            notes.append(
                f"machine judge {row.identity}: agreement with people not measured yet ({n} "
                f"both judged, machine_min_sample {cfg.machine_min_sample})"
            )
        elif row.kappa is None or row.kappa < minimum:
            shown = "undefined" if row.kappa is None else f"{row.kappa:.2f}"
            failing.append(
                f"machine judge {row.identity}: kappa with people {shown} on {n}, below "
                f"machine_min_agreement {minimum:g} (labelpool agreement --judges "
                f"machine:{row.identity.split('@', 1)[0]},people)"
            )
        else:
            notes.append(
                f"machine judge {row.identity}: kappa with people {row.kappa:.2f} on {n} "
                f"(machine_min_agreement {minimum:g})"
            )
    return failing, tuple(notes)


def _coverage_reason(result: CompareResult, both: int, share: float, minimum: float) -> str:
    """Why the coverage fails: how many scored questions both runs hold, and which each lacks."""
    scored = result.coverage[0].scored
    lacking = "; ".join(
        f"{c.system} lacks {some(c.missing, limit=NAMED_MISSING)}"
        for c in result.coverage
        if c.missing
    )
    return (
        f"coverage: {both} of {scored} labelled questions in both runs ({share:.1%}), below "
        f"--min-coverage {minimum:g}: {lacking} (each counted 0, as trec_eval -c)"
    )
