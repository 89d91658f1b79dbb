"""The judgments of a label set as sorted arrays (the scorer's qrels), built once per set.

:func:`qrels_for` ``(labels) -> Qrels`` builds them (or returns those of the same label set
object, kept in memory for the last few sets); :func:`scored_qids` ``(labels)`` gives the
judged questions, sorted by code point: every score over the same labels uses exactly this
order, so two systems' per-question arrays align question by question.

Pending batch entries and ``pooled_unjudged_ids`` are unjudged (grade :data:`UNJUDGED`),
whatever else the label says. So is an open dispute a label leaves unjudged (``disputes =
"bounds"``), which carries its highest deciding grade (``lift``; ``open_q``/``open_g`` per
question): what the optimistic reading and the delta range lift it to. The labels' documents
become one dictionary (a pyarrow string array) and each (question, document) a sorted int64
key, which the join searches.

:func:`labelpool.scoring.stored.prepare` keeps them on disk between commands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import columns, verdicts
from labelpool.model import Label
from labelpool.runs import numpy_of

UNJUDGED = -1  # grade code of a pooled-but-unjudged or pending document
KEPT = 4  # label sets whose arrays stay in memory
CACHE_FORMAT = 2  # of the arrays' file (prepare)


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
    # an unjudged open dispute's highest deciding grade, 0 for every other key
    lift: np.ndarray
    # every open dispute left unjudged: its question and highest deciding grade
    open_q: np.ndarray
    open_g: np.ndarray


_HELD: list[tuple[Mapping[str, Label], Qrels]] = []


def scored_qids(labels: Mapping[str, Label]) -> np.ndarray:
    """Judged questions of ``labels``, sorted by code point (the order of every result);
    from the label set's columns (:mod:`labelpool.columns`) when it carries them."""
    cols = columns.of(labels)
    if cols is not None:
        return cols.ids(cols.scored_rows)
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
    """The arrays of the questions ``qids`` of ``labels``, vectorised over every document.

    The same judgments as :attr:`Label.gain`, :attr:`Label.class_of` and
    :attr:`Label.unjudged_marked` give one label at a time, without their per-document Python
    loops: the labels' columns (:mod:`labelpool.columns`: the label set's own, which a warm
    read serves without building a label, else projected from the labels) give each id list
    chained into one dictionary-encoded column, and grades, classes and marks are set on
    sorted (question, document) keys with numpy. A set whose labels hold a record of judges
    (open disputes) is read through its labels.
    """
    cols = columns.of(labels)
    if cols is not None and not cols.resolves:
        table = cols.table.take(pa.array(cols.rows(qids), pa.int64()))
        highest: list[dict[str, int]] = [{}] * len(qids)
        not_judged = cols.not_judged()
        label_ids = frozenset(cols.row_of)
    else:
        labs = [labels[q] for q in qids]
        table = columns.of_labels(labs)
        # open disputes left unjudged and their highest grade ({} at once for a label without
        # a record of judges: every label of a repository that never had two judges)
        highest = [verdicts.open_highest(lab) for lab in labs]
        not_judged = sum(1 for lab in labels.values() if not lab.is_judged)
        label_ids = frozenset(str(q) for q in labels)
    return build_table(table, qids, highest, not_judged, label_ids)


def build_table(
    table: pa.Table,
    qids: np.ndarray,
    highest: list[dict[str, int]],
    not_judged: int,
    label_ids: frozenset[str],
) -> Qrels:
    nq = len(qids)
    judged = columns.flat(table.column("judged"))
    relevant = columns.flat(table.column("relevant"))
    graded = columns.flat(table.column("graded"))
    graded_values = numpy_of(columns.flat(table.column("grade"))[1])
    marked = columns.flat(table.column("marked"))
    open_counts = np.fromiter(map(len, highest), dtype=np.int64, count=nq)
    open_q = np.repeat(np.arange(nq, dtype=np.int64), open_counts)
    open_g = np.fromiter(chain.from_iterable(h.values() for h in highest), dtype=np.int64)
    open_column = (open_q, pa.array(list(chain.from_iterable(highest)), pa.string()))
    member_column = columns.flat(table.column("members"))
    sizes = numpy_of(columns.flat(table.column("sizes"))[1])
    n_classes = len(sizes)
    member_class = np.repeat(np.arange(n_classes, dtype=np.int64), sizes)
    cols = (judged, relevant, graded, marked, member_column, open_column)
    encoded = pc.dictionary_encode(pa.concat_arrays([c[1] for c in cols]))
    vocab = encoded.dictionary
    codes = numpy_of(encoded.indices).astype(np.int64)
    width = max(len(vocab), 1)
    keys_of = []
    at = 0
    for q_of, col_docs in cols:
        keys_of.append(q_of * width + codes[at : at + len(col_docs)])
        at += len(col_docs)
    k_judged, k_relevant, k_graded, k_marked, k_member, k_open = keys_of

    # grade of each relevant document: its ``grades`` entry, else 1
    grade_of_relevant = np.ones(len(k_relevant), dtype=np.int64)
    found, where = _lookup(k_graded, k_relevant)
    grade_of_relevant[found] = graded_values[where[found]]
    # a class's grade: the highest of its relevant members' grades, else 0; every member has it
    class_grade = np.full(n_classes, np.iinfo(np.int64).min, dtype=np.int64)
    found, where = _lookup(k_relevant, k_member)
    np.maximum.at(class_grade, member_class[found], grade_of_relevant[where[found]])
    class_grade[class_grade == np.iinfo(np.int64).min] = 0  # judged irrelevant (LP029)

    keys = sorted_unique(np.concatenate([k_judged, k_relevant, k_member]))
    grade = np.zeros(len(keys), dtype=np.int64)
    grade[np.searchsorted(keys, k_relevant)] = grade_of_relevant
    target_key = keys.copy()  # a relevant document outside classes is its own target
    at_member = np.searchsorted(keys, k_member)
    grade[at_member] = class_grade[member_class]  # later classes win, as in Label.gain
    target_key[at_member] = nq * width + member_class  # one target per class
    # pending and pooled-unjudged documents are unjudged, whatever else the label says; so
    # are open disputes, with their highest grade as what they can be lifted to
    k_marked = sorted_unique(np.concatenate([k_marked, k_open]))
    lift_marked = np.zeros(len(k_marked), dtype=np.int64)
    found, where = _lookup(k_open, k_marked)
    lift_marked[found] = open_g[where[found]]
    kept = ~_lookup(k_marked, keys)[0]
    keys, grade, target_key = keys[kept], grade[kept], target_key[kept]
    relevant_rows = np.flatnonzero(grade > 0)
    target = np.full(len(keys), -1, dtype=np.int64)
    _, first, inverse = np.unique(target_key[relevant_rows], return_index=True, return_inverse=True)
    target[relevant_rows] = inverse
    ideal_rows = relevant_rows[first]
    all_keys = np.concatenate([keys, k_marked])
    order = np.argsort(all_keys, kind="stable")
    return Qrels(
        qids=qids,
        vocab=vocab,
        keys=all_keys[order],
        grade=np.concatenate([grade, np.full(len(k_marked), UNJUDGED, dtype=np.int64)])[order],
        target=np.concatenate([target, np.full(len(k_marked), -1, dtype=np.int64)])[order],
        ideal_q=keys[ideal_rows] // width,
        ideal_g=grade[ideal_rows],
        pending_docs=int(pc.sum(table.column("pending")).as_py() or 0),
        not_judged=not_judged,
        label_ids=label_ids,
        lift=np.concatenate([np.zeros(len(keys), dtype=np.int64), lift_marked])[order],
        open_q=open_q,
        open_g=open_g,
    )


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (a sort: ``np.unique`` hashes, 10x slower here)."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    out: np.ndarray = ordered[keep]
    return out


def in_sorted(keys: np.ndarray, ordered: np.ndarray) -> np.ndarray:
    """Which ``keys`` are in the sorted ``ordered`` (a sorted search: ``np.isin`` hashes, 30x
    slower on a million keys here)."""
    if not len(ordered):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(ordered, keys), len(ordered) - 1)
    found: np.ndarray = ordered[at] == keys
    return found


def _lookup(sorted_keys: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(found?, position) of each of ``keys`` in ``sorted_keys`` (unsorted: sorted here, the
    position given in the input order)."""
    if not len(sorted_keys) or not len(keys):
        return np.zeros(len(keys), dtype=bool), np.zeros(len(keys), dtype=np.int64)
    order = np.argsort(sorted_keys, kind="stable")
    ordered = sorted_keys[order]
    at = np.minimum(np.searchsorted(ordered, keys), len(ordered) - 1)
    found = ordered[at] == keys
    return found, order[at]
