"""The unjudged documents to judge first: those whose labels would narrow the delta range most.

A question's share of the mean delta range is ``(high_q - low_q) / n``; only its unjudged
documents (in the union of both systems' rankings cut at the comparison's cut-off) can narrow
it. So the questions are taken widest range first, and within a question the documents by
their best rank in either system (a document high in a ranking moves rank-based measures
most). Each document carries its question's width as the most that judging the question's
documents could take off the mean range. The ``labelpool pool`` command batches exactly
those questions at the cut-off.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from labelpool.model import Label
from labelpool.workflows.compare import Comparison

SHOWN = 20  # documents listed


@dataclass(frozen=True)
class ToJudge:
    qid: str
    doc: str
    ranks: tuple[int | None, int | None]  # rank in the baseline, in the challenger (1-based)
    width: float  # the question's delta range width, over the number of questions


@dataclass(frozen=True)
class Priority:
    docs: tuple[ToJudge, ...]
    questions: tuple[str, ...]  # the questions of ``docs``, widest range first
    unjudged: int  # unjudged documents in those questions' union of rankings
    command: str  # the ``labelpool pool`` command batching them ("" when nothing to judge)


def _rank(ranking: Sequence[str], doc: str) -> int | None:
    return ranking.index(doc) + 1 if doc in ranking else None


def rank(
    c: Comparison,
    labels: Mapping[str, Label],
    base_top: Mapping[str, list[str]],
    chal_top: Mapping[str, list[str]],
    shown: int = SHOWN,
) -> Priority:
    """The first ``shown`` documents to judge for comparison ``c``; ``base_top`` and
    ``chal_top``: each system's ranking cut at ``c.cutoff``."""
    n = max(1, len(c.qids))
    widths = {
        q: (hi - lo) / n for q, (lo, hi) in zip(c.qids, c.delta_range.per_question, strict=True)
    }
    candidates: list[ToJudge] = []
    per_question: dict[str, int] = {}
    for q in sorted(c.qids, key=lambda q: (-widths[q], q)):
        if widths[q] <= 0:
            continue
        b, ch = base_top.get(q, []), chal_top.get(q, [])
        union = dict.fromkeys([*b, *ch])
        todo = [d for d in union if labels[q].verdict_of(d) is None]
        per_question[q] = len(todo)
        ranked = sorted(todo, key=lambda d: (min(r for r in (_rank(b, d), _rank(ch, d)) if r), d))
        candidates += [ToJudge(q, d, (_rank(b, d), _rank(ch, d)), widths[q]) for d in ranked]
    docs = tuple(candidates[:shown])
    questions = tuple(dict.fromkeys(t.qid for t in docs))
    if not docs:
        return Priority((), (), 0, "")
    command = f"{c.pool_command} --questions {shlex.quote(','.join(questions))}"
    return Priority(docs, questions, sum(per_question[q] for q in questions), command)
