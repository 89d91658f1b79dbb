"""What ``labelpool pool`` would put in front of a judge: the plan of a batch.

1. Take the union of the runs' top ``depth`` per question.
2. Subtract what is judged (``judged_ids`` and class members) and what already waits in a batch.
   A class member nobody judged is *carried*: its class's judged member's verdict stands for
   it; the batch names it (``carried:``) and ``merge`` records that verdict once the batch is
   resolved (a question without a batch gets the record at once).
3. The remainder of each question is its part of the batch; a question whose remainder is
   empty gets a ``pool`` entry per system at once.
4. The plan carries the cost (union, judged, remainder, each system's unjudged rate at depth).

Order of documents in a batch: by best (lowest) rank over the runs, then by id (code point).
``max_docs``: the budget goes to the documents ranked highest across the runs first, over all
questions: sorted by best rank over the runs, then by the number of runs that rank it within
``depth`` (more first), then by document id, then by question id; the first ``max_docs`` are
taken. A question whose batch a budget cut records ``full_depth`` per system: the depth that
the judged set, the earlier batches and this batch cover in full (its ``pool`` entry's ``k``
after the merge). Documents waiting in an earlier batch count as covered: a batch's ``pool``
entries assume the earlier batches of that question are merged too.

Also the batch's branch name and commit message, and the errors of the command.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import gitio
from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.errors import StateError, UsageError
from labelpool.labelset import LabelSet
from labelpool.model import BatchHead
from labelpool.scoring import unjudged_at
from labelpool.words import counted


class PoolError(StateError):
    """The batch cannot be made; the message says why (exit 1)."""


class PoolUsageError(UsageError, PoolError):
    """An option is wrong (the command line, not the repository): exit 2."""


@dataclass(frozen=True)
class SystemRun:
    name: str
    path: Path
    blob: str  # git blob id of the run file
    top: Mapping[str, list[str]]  # qid -> top ``depth`` documents
    run: Any = None  # the parsed :class:`labelpool.runs.Run` (for the unjudged rate)


@dataclass(frozen=True)
class QuestionPlan:
    qid: str
    path: Path
    question: str
    union: int
    judged: int  # of the union
    waiting: int  # of the union, pending in an earlier batch
    docs: tuple[str, ...]  # the remainder put in this batch, in review order
    left_out: int = 0  # remainder left out by the budget
    full_depth: Mapping[str, int] | None = None
    # (document, member): of the union, judged only through an accepted class, from a member
    carried: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PoolPlan(BatchHead):
    runs: tuple[SystemRun, ...]
    questions: tuple[QuestionPlan, ...]  # every question the runs retrieve for
    # system -> unjudged rate at depth over the judged questions, as ``labelpool score`` says
    unjudged_before: Mapping[str, float]
    max_docs: int | None = None
    judges: int = 1  # seats: one copy of each question's batch per judge (``--judges``)
    assign: tuple[str, ...] = ()  # the judge of each seat, in order (``--assign``)
    task: str | None = None  # ``adjudicate`` or ``second-opinion`` (workflows.pool.tasks)

    @property
    def union(self) -> int:
        return sum(q.union for q in self.questions)

    @property
    def judged(self) -> int:
        return sum(q.judged for q in self.questions)

    @property
    def waiting(self) -> int:
        return sum(q.waiting for q in self.questions)

    @property
    def carried(self) -> int:
        """Verdicts of the union the classes carry from a judged member: not asked again."""
        return sum(len(q.carried) for q in self.questions)

    @property
    def remainder(self) -> int:
        return sum(len(q.docs) + q.left_out for q in self.questions)

    @property
    def documents(self) -> int:
        return sum(len(q.docs) for q in self.questions)

    @property
    def batched(self) -> tuple[QuestionPlan, ...]:
        return tuple(q for q in self.questions if q.docs)

    @property
    def complete(self) -> tuple[QuestionPlan, ...]:
        """Questions whose union is judged in full: they get ``pool`` entries at once."""
        if self.task is not None:
            return ()
        return tuple(q for q in self.questions if not q.docs and not q.left_out and not q.waiting)

    @property
    def judged_fraction(self) -> float:
        return self.judged / self.union if self.union else 1.0


@dataclass(frozen=True)
class PoolResult:
    plan: PoolPlan
    written: tuple[Path, ...] = ()
    branch: str | None = None
    commit: str | None = None
    notes: tuple[str, ...] = field(default=())


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def load_runs(cfg: Config, specs: Sequence[str], depth: int) -> tuple[SystemRun, ...]:
    out: list[SystemRun] = []
    for spec in specs:
        try:
            path = runs_mod.resolve(cfg, spec)
        except runs_mod.RunError as exc:  # no such file or system: a usage error, as in compare
            raise PoolUsageError(str(exc)) from None
        try:
            run = runs_mod.read_run(path)
        except runs_mod.RunError as exc:
            raise PoolError(str(exc)) from None
        if any(r.name == run.name for r in out):
            raise PoolUsageError(f"{spec}: system {run.name!r} is given twice")
        blob = gitio.blob_id(cfg.root, path.absolute())  # git runs at the root, not here
        out.append(SystemRun(run.name, path, blob, run.top(depth), run))
    return tuple(out)


def plan(
    labels: LabelSet,
    runs: Sequence[SystemRun],
    depth: int,
    date: str,
    max_docs: int | None = None,
    questions: Sequence[str] | None = None,
    judges: int = 1,
    assign: Sequence[str] = (),
) -> PoolPlan:
    """What ``pool`` would write, without writing anything; ``judges`` seats (``assign``:
    the judge of each, in order, or none)."""
    check_seats(judges, assign)
    if depth < 1:
        raise PoolUsageError(f"--depth must be at least 1, not {depth}")
    if max_docs is not None and max_docs < 0:
        raise PoolUsageError(f"--max-docs must be >= 0, not {max_docs}")
    if questions is not None:
        unknown = sorted(set(questions) - set(labels))
        if unknown:
            raise PoolUsageError(f"--questions: no label for {', '.join(unknown)}")
    selected = sorted(questions if questions is not None else labels)
    systems = tuple(r.name for r in runs)

    rows: list[tuple[str, list[tuple[int, int, str]], int, int, int]] = []
    carried: dict[str, tuple[tuple[str, str], ...]] = {}
    for qid in selected:
        label = labels[qid]
        best: dict[str, tuple[int, int]] = {}
        for r in runs:
            for rank, doc in enumerate(r.top.get(qid, [])[:depth], start=1):
                old = best.get(doc)
                best[doc] = (rank, 1) if old is None else (min(old[0], rank), old[1] + 1)
        if not best:
            continue
        judged = sum(1 for d in best if d in label.judged)
        waiting = sum(1 for d in best if d not in label.judged and d in label.pending_ids)
        remainder = sorted(
            (rank, -count, doc)
            for doc, (rank, count) in best.items()
            if doc not in label.judged and doc not in label.pending_ids
        )
        rows.append((qid, remainder, len(best), judged, waiting))
        carried[qid] = tuple(  # recorded by an earlier merge: carried once
            sorted(
                (d, label.carried[d])
                for d in best
                if d in label.carried and d not in label.class_verdicts
            )
        )

    chosen: set[tuple[str, str]] | None = None
    if max_docs is not None:
        ranked = sorted((rank, negc, doc, qid) for qid, rem, *_ in rows for rank, negc, doc in rem)
        chosen = {(qid, doc) for _, _, doc, qid in ranked[:max_docs]}

    plans: list[QuestionPlan] = []
    for qid, remainder, union, judged, waiting in rows:
        docs = [d for _, d in sorted((r, d) for r, _n, d in remainder)]
        kept = [d for d in docs if (qid, d) in chosen] if chosen is not None else docs
        full: dict[str, int] | None = None
        if len(kept) < len(docs):
            covered = labels[qid].judged | labels[qid].pending_ids | set(kept)
            full = {}
            for r in runs:
                top = r.top.get(qid, [])[:depth]
                k = next((i for i, d in enumerate(top) if d not in covered), len(top))
                full[r.name] = depth if k == len(top) else k
        plans.append(
            QuestionPlan(
                qid=qid,
                path=labels.paths[qid],
                question=labels[qid].question,
                union=union,
                judged=judged,
                waiting=waiting,
                docs=tuple(kept),
                left_out=len(docs) - len(kept),
                full_depth=full,
                carried=carried[qid],
            )
        )

    judged_qids = [q for q in selected if labels[q].is_judged]
    unjudged: dict[str, float] = {}
    for r in runs:
        if r.run is None:
            continue
        unjudged[r.name] = float(unjudged_at(r.run, labels, judged_qids, depth)[1])
    return PoolPlan(
        batch=batch_mod.batch_id(date, systems, depth),
        systems=systems,
        depth=depth,
        date=date,
        runs=tuple(runs),
        questions=tuple(plans),
        unjudged_before=unjudged,
        max_docs=max_docs,
        judges=judges,
        assign=tuple(assign),
    )


def check_seats(judges: int, assign: Sequence[str]) -> None:
    """``--judges N`` is 1 or more; ``--assign`` names one judge per seat, each once."""
    if judges < 1:
        raise PoolUsageError(f"--judges must be at least 1, not {judges}")
    if assign and len(assign) != judges:
        raise PoolUsageError(
            f"--assign names {counted(len(assign), 'judge')} for {counted(judges, 'seat')} "
            f"(--judges {judges}): one judge per seat"
        )
    if len(set(assign)) != len(assign):
        raise PoolUsageError("--assign names a judge twice: each seat needs another judge")


def branch_name(plan: PoolPlan) -> str:
    """``labelpool/batch-DATE-SYS1+SYS2``; characters git refuses in a branch name (system
    names come from file names) become ``-``."""
    systems = plan.task or "+".join(plan.systems)
    systems = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._+-]+", "-", systems)).strip(".-")
    return f"labelpool/batch-{plan.date}-{systems or 'runs'}"


def commit_message(plan: PoolPlan) -> str:
    pct = 100.0 * plan.judged_fraction
    head = f"Systems: {', '.join(plan.systems)}; depth: {plan.depth}; date: {plan.date}."
    if plan.task is not None:
        head = f"Task: {plan.task}; date: {plan.date}."
    lines = [
        f"labelpool pool: batch {plan.batch}",
        "",
        head,
        f"Documents to judge: {plan.documents} in {counted(len(plan.batched), 'question')}.",
    ]
    if plan.task is None:  # a task batch pools no system: no union, no unjudged rate
        lines.append(
            f"Union of the top {plan.depth}: {plan.union}; already judged: {plan.judged} "
            f"({pct:.1f}%); waiting in earlier batches: {plan.waiting}."
        )
        if plan.carried:
            lines.append(f"Carried by classes: {counted(plan.carried, 'verdict')}.")
    if plan.judges > 1:
        who = f": {', '.join(plan.assign)}" if plan.assign else ""
        lines.append(f"Judges: {plan.judges}, each judging every document blind{who}.")
    if plan.max_docs is not None:
        lines.append(
            f"Budget --max-docs {plan.max_docs}: "
            f"{counted(plan.remainder - plan.documents, 'document')} left for a later batch."
        )
    if plan.complete:
        lines.append(
            f"Judged in full already (pool entries added): "
            f"{counted(len(plan.complete), 'question')}."
        )
    if plan.task is None:
        lines.append(
            "Unjudged rate at {} before judging: {}.".format(
                plan.depth,
                ", ".join(
                    f"{s} {plan.unjudged_before.get(s, float('nan')):.3f}" for s in plan.systems
                ),
            )
        )
    return "\n".join(lines) + "\n"
