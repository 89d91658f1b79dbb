"""``pool --adjudicate`` and ``pool --second-opinion FRACTION``: batches of judged documents.

* ``--adjudicate``: every open dispute (:func:`labelpool.verdicts.disputed`: the judges
  disagree and no adjudicator has settled it) not waiting in a batch already, one entry per
  question with ``task: adjudicate`` (batch ``DATE-adjudicate``); the page shows the
  adjudicator every verdict with its judge.
* ``--second-opinion FRACTION [--seed S]``: a sample of the judged documents, stratified by
  question and grade: in each (question, grade) stratum of ``n`` documents,
  ``floor(FRACTION * n)`` and one more with probability the fraction left, drawn with a
  generator seeded from (S, question, grade); ``task: second-opinion`` (batch
  ``DATE-second-opinion``), for a judge who has not judged them (LP049). A document whose
  verdict names no judge (judged before labelpool recorded judges) is refused: ``labelpool
  fmt --upgrade`` records who gave it, so that ``merge`` can keep both verdicts. ``--of
  machines`` samples only the documents judged by a machine alone (a person's check of the
  machine's verdicts, which then feeds ``agreement``), ``--of people`` only those a person
  judged; ``all`` (the default) every judged document.

Documents waiting in a batch, and documents with two verdicts or more (second opinion), are
left out. The batch pools no system: ``systems: []`` and ``depth: 1``.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from labelpool import verdicts
from labelpool.labelset import LabelSet
from labelpool.model import Label
from labelpool.workflows.pool.plan import PoolError, PoolPlan, PoolUsageError, QuestionPlan

ADJUDICATE = "adjudicate"
SECOND_OPINION = "second-opinion"


@dataclass(frozen=True)
class Task:
    kind: str  # ADJUDICATE or SECOND_OPINION
    fraction: float = 0.0  # second opinion: the share of each stratum sampled
    seed: int = 0
    of: str = "all"  # second opinion: whose documents are sampled (OF)


OF = ("machines", "people", "all")


def check(task: Task) -> None:
    if task.kind == SECOND_OPINION and not 0 < task.fraction <= 1:
        raise PoolUsageError(
            f"--second-opinion takes a fraction above 0 and at most 1, not {task.fraction}"
        )
    if task.of not in OF:
        raise PoolUsageError(f"--of must be one of {', '.join(OF)}, not {task.of!r}")
    if task.of != "all" and task.kind != SECOND_OPINION:
        raise PoolUsageError("--of chooses the documents of --second-opinion: only with it")


def _rng(seed: int, qid: str, grade: int) -> random.Random:
    key = "\x00".join((str(seed), qid, str(grade))).encode("utf-8")
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def sample(label: Label, qid: str, fraction: float, seed: int, of: str = "all") -> list[str]:
    """The second opinion's documents of one question (see the module doc), sorted."""
    strata: dict[int, list[str]] = {}
    for doc in sorted(label.judged):
        if doc in label.pending_ids or len(verdicts.record(label, doc)) > 1:
            continue
        if of != "all" and verdicts.machine_only(label, doc) != (of == "machines"):
            continue
        strata.setdefault(label.gain.get(doc, 0), []).append(doc)
    out: list[str] = []
    for grade in sorted(strata):
        docs = strata[grade]
        rng = _rng(seed, qid, grade)
        exact = fraction * len(docs)
        k = math.floor(exact)
        if rng.random() < exact - k:
            k += 1
        out += rng.sample(docs, k)
    return sorted(out)


def plan_task(
    labels: LabelSet,
    task: Task,
    date: str,
    *,
    judges: int = 1,
    assign: Sequence[str] = (),
    questions: Sequence[str] | None = None,
) -> PoolPlan:
    """The batch of ``task``: what ``pool --adjudicate`` or ``--second-opinion`` writes."""
    check(task)
    if questions is not None:
        unknown = sorted(set(questions) - set(labels))
        if unknown:
            raise PoolUsageError(f"--questions: no label for {', '.join(unknown)}")
    plans: list[QuestionPlan] = []
    for qid in sorted(questions if questions is not None else labels):
        label = labels[qid]
        if task.kind == ADJUDICATE:
            docs = sorted(d for d in verdicts.disputed(label) if d not in label.pending_ids)
        else:
            docs = sample(label, qid, task.fraction, task.seed, task.of)
            nameless = [d for d in docs if any(v.judge is None for v in verdicts.record(label, d))]
            if nameless:
                raise PoolError(
                    f"question {qid}: the verdict on {nameless[0]} names no judge; "
                    "`labelpool fmt --upgrade` records who gave it (a second opinion is kept "
                    "beside the first)",
                    path=labels.paths[qid],
                )
        if not docs:
            continue
        plans.append(
            QuestionPlan(
                qid=qid,
                path=labels.paths[qid],
                question=label.question,
                union=len(docs),
                judged=len(docs),
                waiting=0,
                docs=tuple(docs),
            )
        )
    return PoolPlan(
        batch=f"{date}-{task.kind}",
        systems=(),
        depth=1,
        date=date,
        runs=(),
        questions=tuple(plans),
        unjudged_before={},
        judges=judges,
        assign=tuple(assign),
        task=task.kind,
    )
