"""``labelpool merge``, the dry run: every decision folded once, in commit order, nothing
written.

It says which decisions each judge folds (an entry that stays pending joins the unresolved),
refuses every contradiction at once, and finds the new disputes. The state it folds a file
into is the fold itself when one judge folds that file and none of its entries stays pending:
the same decisions in the same order on the same lists, so the writer takes that state
(:func:`~labelpool.workflows.merge.file.fold_file`'s ``after``) instead of folding again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from labelpool import corpus
from labelpool.config import Config
from labelpool.workflows.merge import record as record_mod
from labelpool.workflows.merge.collect import Cache, Labels, Unresolved, commit_order
from labelpool.workflows.merge.fold import (
    Decision,
    Judge,
    MergeError,
    State,
    Supersedes,
    fold,
    state_of,
)

__all__ = ["DryRun", "dry_run"]


@dataclass(frozen=True)
class DryRun:
    plan: dict[Judge, list[Decision]]  # the decisions each judge folds, in commit order
    supersedes: Supersedes | None
    disputes: tuple[tuple[str, str], ...]  # (question, document) disputed since this merge
    # path -> the file's lists after the fold, where one judge folds it and nothing of it
    # stays pending (each used once: popped by the writer)
    folded: dict[Path, State]


def _supersedes(cfg: Config) -> Supersedes | None:
    if cfg.versions is None and cfg.version_pattern is None:
        return None
    try:
        versions = corpus.load_versions(cfg)
    except corpus.CorpusError as exc:
        raise MergeError(str(exc)) from None
    return versions.supersedes


def dry_run(
    cfg: Config,
    decisions: list[Decision],
    unresolved: list[Unresolved],
    cache: Cache,
    labels: Labels | None = None,
) -> DryRun:
    """Every decision folded in commit order on the labels' lists, nothing written (see the
    module doc); every contradiction is one :class:`MergeError` naming them all. ``labels``:
    the label of each file's data in ``cache`` the reading built (not built again)."""
    labels = labels or {}
    decisions = commit_order(decisions)
    supersedes = _supersedes(cfg) if any(d.duplicate_of for d in decisions) else None
    errors: list[str] = []
    plan: dict[Judge, list[Decision]] = {}
    states: dict[Path, State] = {}
    judge_of: dict[Path, Judge | None] = {}  # the one judge folding a file; None: not one
    for d in decisions:
        if d.path not in states:
            data, text, _ = cache[d.path]
            states[d.path] = state_of(data, d.path, text, labels.get(d.path))
        outcome, message = fold(states[d.path], d, supersedes)
        if outcome == "error":
            errors.append(str(message))
        elif outcome == "pending":
            unresolved.append(Unresolved(d.path, d.line, d.qid, d.batch, d.doc, str(message)))
            judge_of[d.path] = None
        else:
            plan.setdefault(d.judge, []).append(d)
            if judge_of.setdefault(d.path, d.judge) != d.judge:
                judge_of[d.path] = None
    if errors:
        raise MergeError("\n".join(errors))
    qids = {d.path: d.qid for d in decisions}
    disputes = [
        (qids[path], doc)
        for path, state in states.items()
        if any(len(entries) > 1 for entries in state.record.values())  # a dispute needs two
        for doc in record_mod.disputes(
            state_of(cache[path][0], path, cache[path][1], labels.get(path)), state
        )
    ]
    folded = {p: states[p] for p, j in judge_of.items() if j is not None}
    for state in folded.values():
        state.where = {}  # where each verdict is, for a message of a fold that is done
    return DryRun(plan, supersedes, tuple(sorted(disputes)), folded)
