"""The judgments of a label set as sorted arrays (the scorer's qrels), built once per set.

:func:`qrels_for` ``(labels) -> Qrels`` builds them (or returns those of the same label set
object, kept in memory for the last few sets); :func:`scored_qids` ``(labels)`` gives the
judged questions, sorted by code point: every score over the same labels uses exactly this
order, so two systems' per-question arrays align question by question.

Pending batch entries and ``pooled_unjudged_ids`` are unjudged (grade :data:`UNJUDGED`),
whatever else the label says. The labels' documents become one dictionary (a pyarrow string
array) and each (question, document) a sorted int64 key, which the join searches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow.compute as pc

from labelpool.model import Label
from labelpool.runs import arrow_strings, numpy_of

UNJUDGED = -1  # grade code of a pooled-but-unjudged or pending document
KEPT = 4  # label sets whose arrays stay in memory


@dataclass(frozen=True, eq=False)
class Qrels:
    """Judgments of the scored questions as arrays, sorted by (question, doc code) key."""

    qids: np.ndarray
    vocab: Any  # pyarrow StringArray of every labelled doc id
    keys: np.ndarray  # int64 qi * len(vocab) + code, sorted
    grade: np.ndarray  # int64 grade, or UNJUDGED
    target: np.ndarray  # int64 relevance target id (class or doc), -1 for none
    ideal_q: np.ndarray
    ideal_g: np.ndarray
    pending_docs: int
    not_judged: int
    label_ids: frozenset[str]


_HELD: list[tuple[Mapping[str, Label], Qrels]] = []


def scored_qids(labels: Mapping[str, Label]) -> np.ndarray:
    """Judged questions of ``labels``, sorted by code point (the order of every result)."""
    return np.array(sorted(q for q, lab in labels.items() if lab.is_judged), dtype=object)


def held(labels: Mapping[str, Label]) -> Qrels | None:
    """The arrays of this very label set object, when they are in memory."""
    for owner, prepared in _HELD:
        if owner is labels:
            return prepared
    return None


def hold(labels: Mapping[str, Label], prepared: Qrels) -> None:
    """Keep ``prepared`` in memory as the arrays of ``labels`` (the last :data:`KEPT` sets)."""
    _HELD.append((labels, prepared))
    del _HELD[:-KEPT]


def qrels_for(labels: Mapping[str, Label]) -> Qrels:
    """The arrays of ``labels``, built on first use."""
    prepared = held(labels)
    if prepared is None:
        prepared = build(labels, scored_qids(labels))
        hold(labels, prepared)
    return prepared


def build(labels: Mapping[str, Label], qids: np.ndarray) -> Qrels:
    """The arrays of the questions ``qids`` of ``labels``."""
    q_of: list[int] = []
    docs: list[str] = []
    grades: list[int] = []
    targets: list[int] = []
    ideal_q: list[int] = []
    ideal_g: list[int] = []
    pending = 0
    next_target = 0
    for i, qid in enumerate(qids):
        lab = labels[qid]
        marked = lab.unjudged_marked
        pending += len(lab.pending_ids)
        gain = lab.gain
        if marked:
            gain = {d: g for d, g in gain.items() if d not in marked}
        n = len(gain)
        q_of.extend([i] * n)
        docs.extend(gain)
        grades.extend(gain.values())
        relevant = [(d, g) for d, g in gain.items() if g > 0]
        if relevant:
            # one relevance target per class (or per relevant document outside classes)
            class_of = lab.class_of
            target_code: dict[str, int] = {}
            for d, g in relevant:
                name = class_of.get(d, d)
                if name not in target_code:
                    target_code[name] = next_target + len(target_code)
                    ideal_q.append(i)
                    ideal_g.append(g)
            next_target += len(target_code)
            targets.extend(
                target_code[class_of.get(d, d)] if g > 0 else -1 for d, g in gain.items()
            )
        else:
            targets.extend([-1] * n)
        if marked:
            q_of.extend([i] * len(marked))
            docs.extend(marked)
            grades.extend([UNJUDGED] * len(marked))
            targets.extend([-1] * len(marked))
    encoded = pc.dictionary_encode(arrow_strings(docs))
    vocab = encoded.dictionary
    codes = numpy_of(encoded.indices).astype(np.int64)
    width = max(len(vocab), 1)
    keys = np.asarray(q_of, dtype=np.int64) * width + codes
    order = np.argsort(keys, kind="stable")
    not_judged = sum(1 for lab in labels.values() if not lab.is_judged)
    return Qrels(
        qids=qids,
        vocab=vocab,
        keys=keys[order],
        grade=np.asarray(grades, dtype=np.int64)[order],
        target=np.asarray(targets, dtype=np.int64)[order],
        ideal_q=np.asarray(ideal_q, dtype=np.int64),
        ideal_g=np.asarray(ideal_g, dtype=np.int64),
        pending_docs=pending,
        not_judged=not_judged,
        label_ids=frozenset(str(q) for q in labels),
    )
