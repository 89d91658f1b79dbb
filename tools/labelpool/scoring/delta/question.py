"""Can the sign still flip? The range of a delta over every relevance of the unjudged documents.

For one question, the documents in the union of both systems' rankings (cut at the measure's
cutoff, or whole when it has none) that have no judgment could each turn out relevant or not; a
document both systems returned gets one relevance for both. The delta ``challenger - baseline``
of the mean over questions ranges over ``[mean(low_q), mean(high_q)]`` because the questions'
unjudged documents are independent. An unjudged document set relevant gets grade
``max(relevance_level, 1)`` and is its own relevance target (class members are always judged).

Per measure family (``method`` in reports):

* ``P@k`` (exact): shared documents add ``1/k`` to both sides and cancel; the extremes set one
  side's exclusive unjudged documents relevant and the other's not.
* ``Success@k`` (exact): exclusive documents as for P; shared ones are tried all-off and on.
* ``RR``/``RR@k`` (exact): exclusive documents as for P; for shared documents, the empty set and
  every single shared document are tried (a larger set only adds a document that raises the
  other side's reciprocal rank, or raises neither).
* ``R@k`` (exact): the delta depends only on how many exclusive-to-A, exclusive-to-B and shared
  unjudged documents are relevant: ``(a - b + i - j) / (R + i + j + s)``; every count is tried.
* ``nDCG``, ``AP`` (``bounds``, conservative): each system's own score is bounded on its own:
  the numerator (DCG, the sum of precisions) lies between its value with none and with all of
  the system's unjudged documents relevant, and the denominator (ideal DCG, the number of
  relevant targets) between its value with none and with all of the union's unjudged documents
  relevant; ``low = num_min / den_max``, ``high = min(1, num_max / den_min)``; the delta's range
  is ``[low_c - high_b, high_c - low_b]``. It contains every achievable delta, and can be wider.
* ``Judged@k``: does not depend on relevance; the range is the delta itself.

Open disputes left unjudged (``disputes = "bounds"``: :func:`labelpool.verdicts.open_highest`)
are unjudged documents that can rise to their highest deciding grade, and each one of the
question joins the denominators' bounds, in the rankings or not: R counts those that can be
relevant and neither ranking holds as more relevant documents (exact over the counts); nDCG's
ideal and AP's relevant targets take every one at its highest grade; a document's lift in the
numerators is its highest grade. So every settling of the disputes gives a delta inside the
range, for every family but ``Judged`` (which counts judgments: a settled dispute is judged).

Neither bound says anything about unjudged documents that no system retrieved and no judge saw.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from labelpool import verdicts
from labelpool.model import Label
from labelpool.scoring.measures import ranges

EXACT = "exact"
BOUNDS = "bounds"
METHODS = {
    "P": EXACT,
    "Success": EXACT,
    "RR": EXACT,
    "R": EXACT,
    "nDCG": BOUNDS,
    "AP": BOUNDS,
    "Judged": EXACT,
}
METHOD_TEXT = {
    ranges.FULL: ranges.FULL_TEXT,
    EXACT: "exact: every relevance of the unjudged documents in the union of both rankings",
    BOUNDS: (
        "bounds: each system's score bounded on its own over the unjudged documents in the "
        "union of both rankings (conservative: the true range can be narrower)"
    ),
}


@dataclass(frozen=True)
class DeltaRange:
    low: float
    high: float
    method: str  # "exact" or "bounds"
    per_question: tuple[tuple[float, float], ...]

    @property
    def sign_can_flip(self) -> bool:
        """True when zero is inside the range (the delta's sign is not settled); a range that
        is exactly zero is settled (no assignment of the unjudged documents moves it)."""
        return self.low <= 0.0 <= self.high and not self.low == self.high == 0.0


def _targets(label: Label, level: int) -> dict[str, int]:
    """Relevant targets (a class counts once) and their grade."""
    out: dict[str, int] = {}
    for doc, grade in label.gain.items():
        if grade >= level and grade > 0:
            target = label.class_of.get(doc, doc)
            out[target] = max(out.get(target, 0), grade)
    return out


def _hits(label: Label, docs: Sequence[str], level: int = 1) -> list[tuple[int, int]]:
    """(rank, grade) of each judged relevant target (grade >= ``level``) the first time it is
    retrieved; the default level 1 gives every target with a gain, for DCG (raw grades)."""
    seen: set[str] = set()
    out: list[tuple[int, int]] = []
    for rank, doc in enumerate(docs, start=1):
        grade = label.verdict_of(doc)
        if grade is None or grade <= 0 or grade < level:
            continue
        target = label.class_of.get(doc, doc)
        if target in seen:
            continue
        seen.add(target)
        out.append((rank, grade))
    return out


def _unjudged(label: Label, docs: Sequence[str]) -> dict[str, int]:
    """Unjudged documents of a ranking and their (first) rank."""
    out: dict[str, int] = {}
    for rank, doc in enumerate(docs, start=1):
        if label.verdict_of(doc) is None and doc not in out:
            out[doc] = rank
    return out


def _first(*ranks: int) -> int:
    """The best (smallest) of some 1-based ranks, 0 meaning none."""
    return min((r for r in ranks if r), default=0)


def _rr(rank: int) -> float:
    return 1.0 / rank if rank else 0.0


def question_range(
    family: str,
    cutoff: int | None,
    label: Label,
    baseline: Sequence[str],
    challenger: Sequence[str],
    relevance_level: int = 1,
) -> tuple[float, float]:
    """Range of ``challenger - baseline`` on one question (rankings already cut at ``cutoff``)."""
    level = relevance_level
    ub = _unjudged(label, baseline)
    uc = _unjudged(label, challenger)
    shared = uc.keys() & ub.keys()
    ub_ex = {d: r for d, r in ub.items() if d not in shared}
    uc_ex = {d: r for d, r in uc.items() if d not in shared}
    if family == "Judged":
        # judged / min(k, returned), 0 when nothing is returned (as scoring.measures' Judged@k)
        def share(docs: Sequence[str], unj: Mapping[str, int]) -> float:
            return (len(docs) - len(unj)) / len(docs) if docs else 0.0

        d = share(challenger, uc) - share(baseline, ub)
        return (d, d)
    if family == "P":
        k = cutoff if cutoff else max(len(baseline), len(challenger), 1)
        jb = len(_hits(label, baseline, level))
        jc = len(_hits(label, challenger, level))
        return ((jc - jb - len(ub_ex)) / k, (jc + len(uc_ex) - jb) / k)
    if family == "Success":
        hb = bool(_hits(label, baseline, level))
        hc = bool(_hits(label, challenger, level))
        high = float(int(hc or bool(uc_ex)) - int(hb))
        low = float(int(hc) - int(hb or bool(ub_ex)))
        if shared:
            high, low = max(high, 0.0), min(low, 0.0)
        return (low, high)
    if family == "RR":
        # first relevant rank (0: none) with nothing unjudged, and with own exclusives relevant
        fb = min((r for r, _ in _hits(label, baseline, level)), default=0)
        fc = min((r for r, _ in _hits(label, challenger, level)), default=0)
        fb_ex = _first(fb, *ub_ex.values())
        fc_ex = _first(fc, *uc_ex.values())
        options = [(0, 0), *((ub[d], uc[d]) for d in shared)]  # none, or one shared doc
        high = max(_rr(_first(fc_ex, sc)) - _rr(_first(fb, sb)) for sb, sc in options)
        low = min(_rr(_first(fc, sc)) - _rr(_first(fb_ex, sb)) for sb, sc in options)
        return (low, high)
    highest = verdicts.open_highest(label)
    if family == "R":
        total = len(_targets(label, level))
        a = len(_hits(label, challenger, level))
        b = len(_hits(label, baseline, level))
        # open disputes that can be relevant and are in neither ranking: the denominator
        outside = sum(
            1 for d, g in highest.items() if g >= max(level, 1) and d not in ub and d not in uc
        )
        values = [
            (a - b + i - j) / (total + i + j + s + x) if total + i + j + s + x else 0.0
            for i, j, s, x in itertools.product(
                range(len(uc_ex) + 1),
                range(len(ub_ex) + 1),
                range(len(shared) + 1),
                range(outside + 1),
            )
        ]
        return (min(values), max(values))
    if family in ("nDCG", "AP"):
        n_union = len((ub.keys() | uc.keys()) - highest.keys())
        bound = _ndcg_bounds if family == "nDCG" else _ap_bounds
        union = _Union(label, n_union, cutoff, level, highest)
        low_b, high_b = bound(union, baseline, ub)
        low_c, high_c = bound(union, challenger, uc)
        return (low_c - high_b, high_c - low_b)
    raise ValueError(f"no delta range for measure family {family!r}")


def _dcg(gains: Iterable[tuple[int, float]]) -> float:
    return sum(g / math.log2(r + 1) for r, g in gains)


def _idcg(grades: list[float], cutoff: int | None) -> float:
    ordered = sorted(grades, reverse=True)
    if cutoff:
        ordered = ordered[:cutoff]
    return _dcg(enumerate(ordered, start=1))


def _ratio_bounds(
    num_min: float, num_max: float, den_min: float, den_max: float
) -> tuple[float, float]:
    low = num_min / den_max if den_max > 0 else 0.0
    high = min(1.0, num_max / den_min) if den_min > 0 else (1.0 if num_max > 0 else 0.0)
    return (low, high)


@dataclass(frozen=True)
class _Union:
    """What the bounds of both systems on one question share."""

    label: Label
    n_union: int  # unjudged documents in the union of both rankings, open disputes aside
    cutoff: int | None
    level: int
    # every open dispute of the question (in the rankings or not): its highest grade
    highest: Mapping[str, int]


def _ndcg_bounds(
    u: _Union, docs: Sequence[str], unjudged: Mapping[str, int]
) -> tuple[float, float]:
    label, n_union, cutoff = u.label, u.n_union, u.cutoff
    g_new = max(u.level, 1)
    judged = _hits(label, docs)
    d_min = _dcg(judged)
    d_max = d_min + _dcg((r, u.highest.get(d, g_new)) for d, r in unjudged.items())
    ideal = [float(g) for g in _targets(label, 1).values()]
    i_min = _idcg(ideal, cutoff)
    disputed = [float(g) for g in u.highest.values()]
    i_max = _idcg(ideal + [float(g_new)] * n_union + disputed, cutoff)
    return _ratio_bounds(d_min, d_max, i_min, i_max)


def _ap_sum(relevant_ranks: list[int]) -> float:
    return sum((i + 1) / r for i, r in enumerate(sorted(relevant_ranks)))


def _ap_bounds(u: _Union, docs: Sequence[str], unjudged: Mapping[str, int]) -> tuple[float, float]:
    label, n_union, level = u.label, u.n_union, u.level
    ranks = [r for r, _ in _hits(label, docs, level)]
    can = max(level, 1)
    may = [r for d, r in unjudged.items() if u.highest.get(d, can) >= can]
    s_min = _ap_sum(ranks)
    s_max = _ap_sum(ranks + may)
    total = len(_targets(label, level))
    open_relevant = sum(1 for g in u.highest.values() if g >= can)
    return _ratio_bounds(s_min, s_max, float(total), float(total + n_union + open_relevant))


def delta_range(
    family: str,
    depth: int | None,
    labels: Mapping[str, Label],
    qids: Sequence[str],
    baseline: Mapping[str, Sequence[str]],
    challenger: Mapping[str, Sequence[str]],
    relevance_level: int = 1,
) -> DeltaRange:
    """Range of the mean delta over ``qids`` of a measure ``family`` cut at ``depth``.

    ``depth`` is the cut-off the measure reads (``Measure.depth(k)``; None: whole rankings);
    the rankings are cut here.
    """
    if ranges.handles(family):  # RBP, ERR and trec_eval names (measures/ranges.py)
        per_q = ranges.question_ranges(
            family,
            labels,
            qids,
            {q: list(baseline.get(q, ()))[: depth or None] for q in qids},
            {q: list(challenger.get(q, ()))[: depth or None] for q in qids},
            relevance_level,
        )
        n = len(per_q)
        return DeltaRange(
            low=sum(lo for lo, _ in per_q) / n if n else 0.0,
            high=sum(hi for _, hi in per_q) / n if n else 0.0,
            method=ranges.method(family),
            per_question=tuple(per_q),
        )
    if family not in METHODS:
        raise ValueError(f"no delta range for measure family {family!r}")
    per_q = []
    for q in qids:
        b = list(baseline.get(q, ()))
        c = list(challenger.get(q, ()))
        if depth:
            b, c = b[:depth], c[:depth]
        per_q.append(question_range(family, depth, labels[q], b, c, relevance_level))
    n = len(per_q)
    low = sum(lo for lo, _ in per_q) / n if n else 0.0
    high = sum(hi for _, hi in per_q) / n if n else 0.0
    return DeltaRange(low=low, high=high, method=METHODS[family], per_question=tuple(per_q))


@dataclass(frozen=True)
class JudgeCost:
    """The batch ``labelpool pool`` would make: unjudged documents in both top-k lists."""

    documents: int
    questions: int
    fraction: float  # documents / size of the union of both top-k lists, over all questions
    # of ``documents``, the open disputes (``disputes = "bounds"``): ``pool --depth`` leaves
    # them out (they are judged); ``pool --adjudicate`` settles them
    disputed: int = 0


def judge_cost(
    labels: Mapping[str, Label],
    qids: Sequence[str],
    baseline: Mapping[str, Sequence[str]],
    challenger: Mapping[str, Sequence[str]],
    k: int,
) -> JudgeCost:
    documents = questions = union_size = disputed = 0
    for q in qids:
        union = set(list(baseline.get(q, ()))[:k]) | set(list(challenger.get(q, ()))[:k])
        label = labels[q]
        n = sum(1 for d in union if label.verdict_of(d) is None)
        disputed += len(union & verdicts.open_highest(label).keys())
        documents += n
        questions += n > 0
        union_size += len(union)
    return JudgeCost(
        documents=documents,
        questions=questions,
        fraction=documents / union_size if union_size else 0.0,
        disputed=disputed,
    )
