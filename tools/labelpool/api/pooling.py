"""``labelpool.api.pool``: the judging batch of what the runs disagree on; written (as
``labelpool pool`` does) only when asked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from labelpool import labelset, repolock
from labelpool.api.repository import (
    RepoSpec,
    RunSpec,
    check_at_least,
    check_cutoff,
    config_of,
    labels_of,
    plain,
    specs,
)
from labelpool.errors import UsageError
from labelpool.render import pool as pool_report
from labelpool.workflows.evaluate import run_args
from labelpool.workflows.pool import tasks as pool_tasks
from labelpool.workflows.pool import write as pool_workflow
from labelpool.workflows.pool.tasks import Task
from labelpool.workflows.pool.write import PoolPlan, PoolResult


@dataclass(frozen=True)
class PoolReport:
    """The batch (:attr:`plan`) and what was written: files, branch, commit, notes."""

    result: PoolResult

    @property
    def plan(self) -> PoolPlan:
        return self.result.plan

    @property
    def notes(self) -> tuple[str, ...]:
        return self.result.notes

    def to_dict(self) -> dict[str, Any]:
        """What ``labelpool pool --format json`` prints, parsed
        (``schema/pool-report.schema.json``)."""
        return plain(pool_report.to_json(self.result))

    def to_json(self) -> str:
        """Exactly what ``labelpool pool --format json`` prints (the command prints this)."""
        return pool_report.render_json(self.result)

    def to_text(self) -> str:
        """What ``labelpool pool`` prints."""
        return pool_report.text(self.result)

    def to_markdown(self) -> str:
        """What ``labelpool pool --format markdown`` prints: a pull-request description."""
        return pool_report.markdown(self.result)


def pool(
    runs: RunSpec | Sequence[RunSpec] = (),
    *,
    depth: int | None = None,
    max_docs: int | None = None,
    questions: Sequence[str] | None = None,
    with_text: bool = True,
    write: bool = False,
    commit: bool = True,
    branch: str | None = None,
    date: str | None = None,
    repo: RepoSpec = ".",
    wait: float = 0.0,
    judges: int = 1,
    assign: Sequence[str] | str = (),
    adjudicate: bool = False,
    second_opinion: float | None = None,
    seed: int = 0,
    of: str = "all",
) -> PoolReport:
    """The unjudged union of the runs' top ``depth`` per question, as a judging batch.

    With ``write=False`` (the default) nothing is written: the report holds the plan, what
    ``labelpool pool`` would write. With ``write=True`` the batch is written into the label
    files and, with ``commit`` (as the CLI), committed on a new branch all or nothing
    (``branch``: its name); ``commit=False`` is ``--no-commit``. ``max_docs``: a budget;
    ``questions``: only these (a list, or ``"Q1,Q2"``); ``with_text=False`` is
    ``--no-text``; ``date`` (YYYY-MM-DD, default today in UTC) names the batch. Writing
    takes the repository lock before the labels are read (a ``Repository`` handle's labels
    are read again under it); ``wait``: seconds to wait for another writer (``--wait``)
    before :class:`~labelpool.repolock.Busy`. ``judges``: seats, one copy of the batch per
    judge (``--judges``); ``assign``: the judge of each seat (``--assign``, a list or
    ``"a@x,b@y"``). ``of``: the documents ``second_opinion`` samples: ``machines`` (judged
    by a machine alone), ``people`` or ``all`` (``--of``). Raises the ``LabelpoolError`` classes
    (``PoolUsageError`` for a bad argument, ``PoolError`` when the batch cannot be made)."""
    task = _task(adjudicate, second_opinion, seed, of)
    if task is None:
        if depth is None:
            raise UsageError("missing option --depth K (pool each run's top K)")
        check_at_least("--depth", depth, 1)
        check_cutoff("--depth", depth)
    depth = depth or 1
    if max_docs is not None and max_docs < 0:
        raise UsageError(f"--max-docs must be >= 0, not {max_docs}")
    if isinstance(questions, str):  # "Q1,Q2", as --questions takes them
        questions = [q.strip() for q in questions.split(",") if q.strip()]
    wanted = None if questions is None else [str(q) for q in questions]
    if wanted is not None and not wanted:
        raise UsageError("--questions: no question id given")
    if isinstance(assign, str):
        assign = [a.strip() for a in assign.split(",") if a.strip()]
    assign = tuple(assign)
    pool_workflow.check_seats(judges, assign)
    cfg = config_of(repo)
    if write:
        if wait < 0 or wait != wait:
            raise UsageError(f"--wait must be at least 0 seconds, not {wait}")
        with repolock.held(cfg.labels_dir, command="labelpool pool", wait=wait):
            labels = labelset.load(cfg)
            names = (
                run_args.select(cfg, specs(runs), takes_measures=False).specs
                if task is None
                else []
            )
            result = pool_workflow.run(
                cfg,
                labels,
                names,
                depth,
                max_docs=max_docs,
                questions=wanted,
                with_text=with_text,
                commit=commit,
                branch=branch,
                date=date,
                judges=judges,
                assign=assign,
                task=task,
            )
        return PoolReport(result)
    labels = labels_of(repo, cfg)
    if task is not None:
        plan_ = pool_tasks.plan_task(
            labels,
            task,
            date or pool_workflow.today(),
            judges=judges,
            assign=pool_workflow.resolve_assign(cfg.root, labels, assign) if assign else (),
            questions=wanted,
        )
        return PoolReport(
            PoolResult(plan=plan_, notes=() if plan_.batched else ("nothing to write",))
        )
    names = run_args.select(cfg, specs(runs), takes_measures=False).specs
    loaded = pool_workflow.load_runs(cfg, names, depth)
    plan = pool_workflow.plan(
        labels,
        loaded,
        depth,
        date or pool_workflow.today(),
        max_docs=max_docs,
        questions=wanted,
        judges=judges,
        assign=pool_workflow.resolve_assign(cfg.root, labels, assign) if assign else (),
    )
    notes = () if plan.batched or plan.complete else ("nothing to write",)
    return PoolReport(PoolResult(plan=plan, notes=notes))


def _task(
    adjudicate: bool, second_opinion: float | None, seed: int, of: str = "all"
) -> Task | None:
    """The task batch asked for (``pool_tasks.Task``), or None for a pool."""
    if of != "all" and second_opinion is None:
        pool_tasks.check(Task(pool_tasks.ADJUDICATE, of=of))  # the usage error
    if adjudicate and second_opinion is not None:
        raise UsageError("--adjudicate and --second-opinion make different batches: one at a time")
    if adjudicate:
        return pool_tasks.Task(pool_tasks.ADJUDICATE, seed=seed)
    if second_opinion is not None:
        task = pool_tasks.Task(pool_tasks.SECOND_OPINION, second_opinion, seed, of)
        pool_tasks.check(task)
        return task
    return None
