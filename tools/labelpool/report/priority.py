"""The unjudged documents to judge first: those whose labels would narrow the delta range most.

A question's share of the mean delta range is ``(high_q - low_q) / n``; only its unjudged
documents (in the union of both systems' rankings cut at the comparison's cut-off) can narrow
it. For each such document the range of its question is computed again (the same
:func:`labelpool.scoring.delta.question.delta_range` as ``compare``) with the document judged
irrelevant and judged relevant at each grade in use; the least it narrows over those verdicts
(divided by ``n``) is what judging it is sure to take off the mean range. Documents are listed
by that, most first (then by their question's width and their best rank). The candidates are
the documents of the widest questions, at most :data:`CANDIDATES` of them, so that a report
of 1,000 questions at k = 100 computes a few hundred question ranges, not all of them. The
``labelpool pool`` command batches exactly the listed documents' questions at the cut-off.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from labelpool.model import Label
from labelpool.scoring import measures
from labelpool.scoring.delta.question import delta_range
from labelpool.workflows.evaluate.compare import Comparison

SHOWN = 20  # documents listed
CANDIDATES = 200  # documents whose narrowing is computed, from the widest questions


@dataclass(frozen=True)
class ToJudge:
    qid: str
    doc: str
    ranks: tuple[int | None, int | None]  # rank in the baseline, in the challenger (1-based)
    width: float  # the question's delta range width, over the number of questions
    narrows: float  # what judging it surely takes off the mean range, whatever its verdict


@dataclass(frozen=True)
class Priority:
    docs: tuple[ToJudge, ...]
    questions: tuple[str, ...]  # the questions of ``docs``, widest range first
    unjudged: int  # unjudged documents in those questions' union of rankings
    command: str  # the ``labelpool pool`` command batching them ("" when nothing to judge)


def _rank(ranking: Sequence[str], doc: str) -> int | None:
    return ranking.index(doc) + 1 if doc in ranking else None


def _judged(label: Label, doc: str, grade: int) -> Label:
    """``label`` with ``doc`` judged ``grade`` (0: irrelevant)."""
    relevant = (*label.relevant_doc_ids, doc) if grade > 0 else label.relevant_doc_ids
    grades = {**label.grades, doc: grade} if grade > 1 else label.grades
    return replace(
        label, judged_ids=(*label.judged_ids, doc), relevant_doc_ids=relevant, grades=grades
    )


def rank(
    c: Comparison,
    labels: Mapping[str, Label],
    base_top: Mapping[str, list[str]],
    chal_top: Mapping[str, list[str]],
    shown: int = SHOWN,
    relevance_level: int = 1,
) -> Priority:
    """The first ``shown`` documents to judge for comparison ``c``; ``base_top`` and
    ``chal_top``: each system's ranking cut at ``c.cutoff``."""
    n = max(1, len(c.qids))
    widths = {
        q: (hi - lo) / n for q, (lo, hi) in zip(c.qids, c.delta_range.per_question, strict=True)
    }
    m = measures.parse_one(c.measure)
    depth = m.depth(c.cutoff)

    def width(q: str, label: Label, b: list[str], ch: list[str]) -> float:
        one = delta_range(m.range_key, depth, {q: label}, [q], {q: b}, {q: ch}, relevance_level)
        lo, hi = one.per_question[0]
        return hi - lo

    candidates: list[ToJudge] = []
    per_question: dict[str, int] = {}
    for q in sorted(c.qids, key=lambda q: (-widths[q], q)):
        if widths[q] <= 0 or len(candidates) >= CANDIDATES:
            continue
        label = labels[q]
        b, ch = base_top.get(q, []), chal_top.get(q, [])
        union = dict.fromkeys([*b, *ch])
        todo = [d for d in union if label.verdict_of(d) is None]
        per_question[q] = len(todo)
        now = width(q, label, b, ch)
        grades = sorted({0, relevance_level, *(g for g in label.gain.values() if g > 0)})
        for d in todo:
            after = max(width(q, _judged(label, d, g), b, ch) for g in grades)
            ranks = (_rank(b, d), _rank(ch, d))
            candidates.append(ToJudge(q, d, ranks, widths[q], max(0.0, now - after) / n))
    candidates.sort(
        key=lambda t: (-t.narrows, -t.width, min(r for r in t.ranks if r), t.qid, t.doc)
    )
    docs = tuple(candidates[:shown])
    questions = tuple(dict.fromkeys(t.qid for t in docs))
    if not docs:
        return Priority((), (), 0, "")
    command = f"{c.pool_command} --questions {shlex.quote(','.join(questions))}"
    return Priority(docs, questions, sum(per_question[q] for q in questions), command)
