"""``compare``'s delta range for the measures added with trec_eval's set: ``RBP``, ``ERR`` and
every trec_eval name (:func:`question_ranges`; :mod:`labelpool.scoring.delta.question` calls it
for a :attr:`Measure.range_key` it does not know itself).

* ``RBP(p=...)`` (``exact``): RBP is a sum of per-rank weights ``(1-p) p^(rank-1)``; a document
  only one system returned that nobody judged adds its weight to that side's maximum, one both
  returned adds ``max(0, w_c - w_b)`` to the delta's maximum and ``min(0, w_c - w_b)`` to its
  minimum. Only the unjudged part of the residual counts, not the tail beyond the ranking.
* ``ERR@k`` (``bounds``): ERR rises with every grade, so each system's ERR lies between its value
  with the unjudged documents at grade 0 and at grade ``max(level, 1)``; the delta's range is
  ``[low_c - high_b, high_c - low_b]`` (conservative).
* trec_eval names (``full``): on a question where no document of either ranking lacks a
  judgment, the delta itself (trec_eval's arithmetic on both rankings); elsewhere the whole
  range the measure allows (``[-1, 1]`` for a measure in [0, 1]; counts by ranking length;
  ``num_ret`` and ``num_rel`` do not depend on relevance and are always exact).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import verdicts
from labelpool.model import Label, qrels_rows
from labelpool.runs import Run, numpy_of
from labelpool.scoring.measures.err import MAX_GRADE
from labelpool.scoring.trec_eval import Options, select
from labelpool.scoring.trec_eval.evaluate import evaluate_rows

FULL = "full"
FULL_TEXT = (
    "full range: the delta itself on questions where both rankings are fully judged, else "
    "the whole range the measure allows (trec_eval measures)"
)
TREC = "trec_eval:"
RelevanceRange = tuple[float, float]


def handles(key: str) -> bool:
    return key.startswith((TREC, "RBP", "ERR"))


def method(key: str) -> str:
    if key.startswith(TREC):
        return FULL
    return "exact" if key.startswith("RBP") else "bounds"


def _grades(label: Label, docs: Sequence[str]) -> list[int | None]:
    """Grade of each ranked document (a class's later members 0), None for no judgment."""
    seen: set[str] = set()
    out: list[int | None] = []
    for doc in docs:
        grade = label.verdict_of(doc)
        if grade is not None and grade > 0:
            target = label.class_of.get(doc, doc)
            if target in seen:
                grade = 0
            seen.add(target)
        out.append(grade)
    return out


def _rbp_range(
    p: float, label: Label, base: Sequence[str], chal: Sequence[str], level: int
) -> RelevanceRange:
    def weight(rank: int) -> float:
        return (1.0 - p) * p ** (rank - 1)

    def own(docs: Sequence[str]) -> tuple[float, dict[str, int]]:
        value, unjudged = 0.0, {}
        for rank, (doc, g) in enumerate(zip(docs, _grades(label, docs), strict=True), 1):
            if g is None:
                unjudged[doc] = rank
            elif g >= level and g > 0:
                value += weight(rank)
        return value, unjudged

    vb, ub = own(base)
    vc, uc = own(chal)
    shared = ub.keys() & uc.keys()
    d = vc - vb
    high = d + sum(weight(r) for doc, r in uc.items() if doc not in shared)
    low = d - sum(weight(r) for doc, r in ub.items() if doc not in shared)
    for doc in shared:
        diff = weight(uc[doc]) - weight(ub[doc])
        high += max(0.0, diff)
        low += min(0.0, diff)
    return (low, high)


def _err(grades: Sequence[int]) -> float:
    value, keep = 0.0, 1.0
    for rank, g in enumerate(grades, 1):
        stop = (2.0 ** min(max(g, 0), MAX_GRADE) - 1.0) / 2.0**MAX_GRADE
        value += keep * stop / rank
        keep *= 1.0 - stop
    return value


def _err_range(
    label: Label, base: Sequence[str], chal: Sequence[str], level: int
) -> RelevanceRange:
    lift = max(level, 1)
    highest = verdicts.open_highest(label)  # an open dispute: up to its highest grade

    def bounds(docs: Sequence[str]) -> tuple[float, float]:
        grades = _grades(label, docs)
        low = _err([0 if g is None else g for g in grades])
        high = _err(
            [highest.get(d, lift) if g is None else g for d, g in zip(docs, grades, strict=True)]
        )
        return low, high

    lb, hb = bounds(base)
    lc, hc = bounds(chal)
    return (lc - hb, hc - lb)


def run_of(rankings: Mapping[str, Sequence[str]], name: str) -> Run:
    """A :class:`Run` holding ``rankings`` in their order (descending synthetic scores)."""
    qids = sorted(rankings)
    counts = np.array([len(rankings[q]) for q in qids], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    docs = pa.array([d for q in qids for d in rankings[q]], type=pa.string())
    encoded = pc.dictionary_encode(docs)
    codes = numpy_of(encoded.indices).astype(np.int32)
    scores = np.concatenate([-np.arange(n, dtype=np.float64) for n in counts] or [np.zeros(0)])
    return Run(
        name=name,
        path=Path(name),
        sha256="",
        qids=np.array(qids, dtype=object),
        offsets=offsets,
        doc_codes=codes,
        doc_vocab=encoded.dictionary,
        scores=scores,
    )


def _value_span(
    name: str, spec: str, label: Label, base: Sequence[str], chal: Sequence[str]
) -> float:
    """Half the width of the values the measure allows on one question."""
    if name in ("num_rel_ret", "num_nonrel_judged_ret"):
        return float(max(len(base), len(chal)))
    if name == "utility":
        (s,) = select([spec])
        size = len(base) + len(chal) + len(label.gain) + len(label.pooled_unjudged_ids)
        return sum(abs(v) for v in s.values) * size
    return 1.0


def question_ranges(
    key: str,
    labels: Mapping[str, Label],
    qids: Sequence[str],
    baseline: Mapping[str, Sequence[str]],
    challenger: Mapping[str, Sequence[str]],
    relevance_level: int,
) -> list[RelevanceRange]:
    """The range of ``challenger - baseline`` on each question (rankings already cut)."""
    if key.startswith("RBP"):
        p = float(key.partition(":")[2] or 0.8)
        return [
            _rbp_range(p, labels[q], baseline.get(q, ()), challenger.get(q, ()), relevance_level)
            for q in qids
        ]
    if key.startswith("ERR"):
        return [
            _err_range(labels[q], baseline.get(q, ()), challenger.get(q, ()), relevance_level)
            for q in qids
        ]
    spec = key[len(TREC) :]
    name = spec.partition(".")[0]
    selected = select([spec])
    rows = qrels_rows({q: labels[q] for q in qids})
    options = Options(relevance_level=relevance_level, complete=True)
    values = []
    for side in (baseline, challenger):
        ranked = {q: list(side.get(q, ())) for q in qids if side.get(q)}
        result = evaluate_rows(run_of(ranked, "side"), rows, selected, options)
        at = {q: i for i, q in enumerate(result.qids)}
        col = result.columns[0].per_query
        values.append([float(col[at[q]]) if q in at else 0.0 for q in qids])
    out: list[RelevanceRange] = []
    for i, q in enumerate(qids):
        d = values[1][i] - values[0][i]
        label = labels[q]
        docs = [*baseline.get(q, ()), *challenger.get(q, ())]
        # an open dispute changes the measure's relevant documents, in the rankings or not
        unjudged = any(label.verdict_of(doc) is None for doc in docs) or bool(
            verdicts.open_highest(label)
        )
        if not unjudged or name in ("num_ret", "num_rel") or math.isnan(d):
            out.append((d, d))
            continue
        span = _value_span(name, spec, label, baseline.get(q, ()), challenger.get(q, ()))
        out.append((-span, span))
    return out
