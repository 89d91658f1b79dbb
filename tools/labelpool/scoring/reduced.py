"""A label set's judgment arrays with some judgments taken out, from the full set's arrays.

:func:`without_judgments` ``(full, cols, removed) -> Qrels`` gives the arrays
:func:`labelpool.scoring.qrels.build` would build from the labels of ``cols`` with each
question's ``removed`` documents taken out as ``bias.without`` takes them out (as if they had
never been judged), without building a label: the keys of the removed documents are masked
out of ``full`` (their ideal entries with them), a question left with no judgment leaves the
scored questions, and only a question where a removed document belongs to a relevance class
(whose remaining members keep the class's grade: the rule of ``bias.without``) is rebuilt, from
its columns, with the same :func:`~labelpool.scoring.qrels.build_table`.

The set must carry no record of judges (``cols.resolves`` false: no open dispute), as every set
whose arrays :func:`~labelpool.scoring.qrels.build` makes from its columns. The vocabulary stays
the full set's: a removed document's id is then in the dictionary without a key, which the
join reads as unjudged, as it reads an id outside the dictionary.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, chain
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import columns
from labelpool.columns import Columns
from labelpool.runs import arrow_strings, numpy_of
from labelpool.scoring.qrels import UNJUDGED, Qrels, build_table, in_sorted, sorted_unique

_GRADE_SPAN = 1 << 21  # above every grade (LP042: at most 1,000,000)


def without_judgments(full: Qrels, cols: Columns, removed: Mapping[str, Iterable[str]]) -> Qrels:
    """``full`` (the arrays of ``cols``) with ``removed[qid]`` taken out of each question."""
    width = max(len(full.vocab), 1)
    nq = len(full.qids)
    taken = taken_of(full, removed)
    scored = taken.qi >= 0
    if not scored.any():
        return full
    r_qi, r_code = taken.qi[scored], taken.code[scored]
    r_key = sorted_unique(r_qi[r_code >= 0] * width + r_code[r_code >= 0])
    every, member_key = _judged(full, cols)
    gone = r_key[in_sorted(r_key, every)]
    left = np.bincount(every // width, minlength=nq) - np.bincount(gone // width, minlength=nq)
    affected = sorted_unique(r_qi)
    dropped = np.zeros(nq, dtype=bool)
    dropped[affected[left[affected] == 0]] = True  # every judgment went: not scored
    in_class = np.zeros(nq, dtype=bool)
    in_class[r_key[in_sorted(r_key, member_key)] // width] = True
    rebuilt = in_class & ~dropped

    key_q = full.keys // width
    whole = dropped[key_q] | rebuilt[key_q]  # questions whose keys all go (rebuilt: re-added)
    masked = in_sorted(full.keys, r_key) & (full.grade != UNJUDGED) & ~whole
    keep = ~(whole | masked)
    ideal_keep = ~(dropped | rebuilt)[full.ideal_q] if len(full.ideal_q) else np.zeros(0, bool)
    lost = full.grade[masked] > 0  # a relevant document outside classes: its own target
    ideal_keep &= ~_taken(full.ideal_q, full.ideal_g, key_q[masked][lost], full.grade[masked][lost])

    parts = [
        (full.keys[keep], full.grade[keep], full.target[keep], full.lift[keep]),
    ]
    ideal_q, ideal_g = [full.ideal_q[ideal_keep]], [full.ideal_g[ideal_keep]]
    if rebuilt.any():
        mini = _rebuilt(full, cols, np.flatnonzero(rebuilt), removed)
        codes = _codes(full.vocab, mini.vocab)
        mini_q = np.flatnonzero(rebuilt)
        mini_w = max(len(mini.vocab), 1)
        keys = mini_q[mini.keys // mini_w] * width + codes[mini.keys % mini_w]
        offset = int(full.target.max()) + 1 if len(full.target) else 0
        target = np.where(mini.target >= 0, mini.target + offset, -1)
        parts.append((keys, mini.grade, target, mini.lift))
        ideal_q.append(mini_q[mini.ideal_q])
        ideal_g.append(mini.ideal_g)
    keys, grade, target, lift = (np.concatenate(p) for p in zip(*parts, strict=True))
    shift = np.cumsum(dropped) - dropped  # questions dropped before each one
    keys = keys - shift[keys // width] * width
    order = np.argsort(keys, kind="stable")
    iq = np.concatenate(ideal_q)
    drop_rows = cols.rows(full.qids[dropped])
    pending = pc.sum(cols.table.column("pending").take(pa.array(drop_rows, pa.int64())))
    return replace(
        full,
        qids=full.qids[~dropped],
        keys=keys[order],
        grade=grade[order],
        target=target[order],
        lift=lift[order],
        ideal_q=iq - shift[iq],
        ideal_g=np.concatenate(ideal_g),
        pending_docs=full.pending_docs - int(pending.as_py() or 0),
        not_judged=full.not_judged + int(dropped.sum()),
        open_q=full.open_q - shift[full.open_q],
    )


@dataclass(frozen=True, eq=False)
class Taken:
    """The removed judgments of one set as arrays in ``full``'s code space: each pair's
    question position in ``full.qids`` and document code in ``full.vocab`` (-1: not there)."""

    questions: list[str]  # the questions of ``removed``, in its order
    count: np.ndarray  # int64: documents removed of each
    docs: list[str]  # every removed document, question by question
    qi: np.ndarray
    code: np.ndarray

    def owners(self, chosen: np.ndarray) -> list[tuple[int, int]]:
        """(question, pair) of the pairs ``chosen`` (a mask over the pairs)."""
        owner = np.repeat(np.arange(len(self.questions), dtype=np.int64), self.count)
        at = np.flatnonzero(chosen)
        return list(zip(owner[at].tolist(), at.tolist(), strict=True))


# the last few (full set, removed) pairs as arrays: bias masks and counts each one twice
_TAKEN: list[tuple[weakref.ref[Qrels], Mapping[str, Iterable[str]], Taken]] = []


def taken_of(full: Qrels, removed: Mapping[str, Iterable[str]]) -> Taken:
    """``removed`` as arrays in ``full``'s code space (one dictionary lookup of every
    removed document), kept for the last few pairs."""
    for ref, owner, found in _TAKEN:
        if ref() is full and owner is removed:
            return found
    position = {str(q): i for i, q in enumerate(full.qids)}
    questions = list(removed)
    lists = [tuple(removed[q]) for q in questions]
    count = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    docs = list(chain.from_iterable(lists))
    at = np.fromiter((position.get(q, -1) for q in questions), np.int64, len(questions))
    code = _codes(full.vocab, arrow_strings(docs))
    taken = Taken(questions, count, docs, np.repeat(at, count), code)
    _TAKEN.append((weakref.ref(full), removed, taken))
    del _TAKEN[:-2]
    return taken


# the judged keys of the last few full sets (weak references: freed with their arrays)
_JUDGED: list[tuple[weakref.ref[Qrels], Columns, tuple[np.ndarray, np.ndarray]]] = []


def _judged(full: Qrels, cols: Columns) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct keys of every judged document of ``full``'s questions
    (:attr:`Label.judged`: ``judged_ids`` and class members), and of the class members alone;
    kept for the last few sets (``bias`` leaves out one system after another)."""
    for ref, owner, found in _JUDGED:
        if ref() is full and owner is cols:
            return found
    width = max(len(full.vocab), 1)
    qi = np.arange(len(full.qids), dtype=np.int64)
    table = cols.table.take(pa.array(cols.rows(full.qids), pa.int64()))
    judged_rows, judged_docs = columns.flat(table.column("judged"))
    member_rows, member_docs = columns.flat(table.column("members"))
    codes = _codes(full.vocab, pa.concat_arrays([judged_docs, member_docs]))
    keys = qi[np.concatenate([judged_rows, member_rows])] * width + codes
    keys = keys[codes >= 0]
    members = keys[len(judged_rows) - int((codes[: len(judged_rows)] < 0).sum()) :]
    found = (sorted_unique(keys), sorted_unique(members))
    _JUDGED.append((weakref.ref(full), cols, found))
    del _JUDGED[:-2]
    return found


def _codes(vocab: pa.Array, docs: pa.Array) -> np.ndarray:
    """Each of ``docs``' code in the dictionary ``vocab`` (-1: not in it): the dictionary
    probed against the distinct docs (a hash of a few thousand ids, not of the dictionary)."""
    if not len(docs):
        return np.zeros(0, dtype=np.int64)
    encoded = pc.dictionary_encode(docs.cast(vocab.type))
    at = numpy_of(pc.index_in(vocab, value_set=encoded.dictionary), fill=-1).astype(np.int64)
    code_of = np.full(len(encoded.dictionary), -1, dtype=np.int64)
    hit = np.flatnonzero(at >= 0)
    code_of[at[hit]] = hit
    out: np.ndarray = code_of[numpy_of(encoded.indices).astype(np.int64)]
    return out


def _taken(
    ideal_q: np.ndarray, ideal_g: np.ndarray, gone_q: np.ndarray, gone_g: np.ndarray
) -> np.ndarray:
    """Which ideal entries go: for each (question, grade) gone, one entry of the same
    question and grade (the ideal gains are a multiset per question)."""
    out = np.zeros(len(ideal_q), dtype=bool)
    if not len(gone_q):
        return out
    code = ideal_q * _GRADE_SPAN + ideal_g
    values, wanted = np.unique(gone_q * _GRADE_SPAN + gone_g, return_counts=True)
    order = np.argsort(code, kind="stable")
    ordered = code[order]
    first = np.searchsorted(ordered, ordered)  # the first entry of each equal run
    rank = np.arange(len(ordered)) - first
    at = np.minimum(np.searchsorted(values, ordered), len(values) - 1)
    out[order] = (values[at] == ordered) & (rank < np.where(values[at] == ordered, wanted[at], 0))
    return out


def _rebuilt(
    full: Qrels, cols: Columns, qi: np.ndarray, removed: Mapping[str, Iterable[str]]
) -> Qrels:
    """The arrays of the questions ``qi`` alone (their own dictionary), rebuilt from their
    columns with their removed documents taken out."""
    qids = full.qids[qi]
    table = cols.table.take(pa.array(cols.rows(qids), pa.int64()))
    rows = [
        without_row(row, frozenset(removed[str(q)]))
        for row, q in zip(table.to_pylist(), qids, strict=True)
    ]
    reduced = pa.Table.from_pylist(rows, schema=columns.SCHEMA)
    return build_table(reduced, qids, [{}] * len(qids), 0, frozenset())


def gain_of(row: dict[str, Any], classes: Sequence[tuple[str, ...]]) -> dict[str, int]:
    """:attr:`Label.gain` of one label's columns (``classes``: its classes split)."""
    grades = dict(zip(row["graded"], row["grade"], strict=True))
    relevant = set(row["relevant"])
    out: dict[str, int] = dict.fromkeys(row["judged"], 0)
    for d in relevant:
        out[d] = int(grades.get(d, 1))
    for cls in classes:
        # no relevant member: a class of judged-irrelevant documents (LP029), grade 0
        grade = max((int(grades.get(d, 1)) for d in cls if d in relevant), default=0)
        out.update(dict.fromkeys(cls, grade))
    return out


def _classes(row: dict[str, Any]) -> list[tuple[str, ...]]:
    sizes, members = row["sizes"], row["members"]
    return [tuple(members[e - n : e]) for e, n in zip(accumulate(sizes), sizes, strict=True)]


def relevant_removed(full: Qrels, cols: Columns, removed: Mapping[str, Iterable[str]]) -> int:
    """How many of ``removed`` were relevant (``Label.gain`` >= 1): the grades of ``full``,
    the columns of a question for a document its arrays leave unjudged (pending)."""
    width = max(len(full.vocab), 1)
    taken = taken_of(full, removed)
    qi, code = taken.qi, taken.code
    found = np.zeros(len(qi), dtype=bool)
    count = 0
    if len(full.keys):
        key = qi * width + code
        at = np.minimum(np.searchsorted(full.keys, key), len(full.keys) - 1)
        found = (qi >= 0) & (code >= 0) & (full.keys[at] == key)
        found &= full.grade[at] != UNJUDGED
        count = int((full.grade[at][found] > 0).sum())
    rest = [(taken.questions[o], taken.docs[i]) for o, i in taken.owners(~found)]
    if rest:
        qids = sorted({q for q, _ in rest})
        table = cols.table.take(pa.array(cols.rows(qids), pa.int64()))
        rows = zip(qids, table.to_pylist(), strict=True)
        gains = {q: gain_of(row, _classes(row)) for q, row in rows}
        count += sum(1 for q, d in rest if gains[q].get(d, 0) > 0)
    return count


def without_row(row: dict[str, Any], drop: frozenset[str]) -> dict[str, Any]:
    """One label's columns (a row of :data:`labelpool.columns.SCHEMA`) as if ``drop`` had
    never been judged: ``bias.without`` over the columns. A class that loses its relevant
    members keeps its remaining members relevant at the class's grade."""
    classes = _classes(row)
    grades = dict(zip(row["graded"], row["grade"], strict=True))
    gain = gain_of(row, classes)
    relevant = [d for d in row["relevant"] if d not in drop]
    new_grades = {d: g for d, g in grades.items() if d not in drop}
    kept: list[tuple[str, ...]] = []
    for cls in classes:
        rest = tuple(d for d in cls if d not in drop)
        if not rest:
            continue
        grade = gain.get(cls[0], 1)
        if grade > 0 and len(rest) < len(cls) and not any(d in relevant for d in rest):
            relevant.append(rest[0])
            if grade != 1:
                new_grades[rest[0]] = grade
        kept.append(rest)
    return {
        **row,
        "judged": [d for d in row["judged"] if d not in drop],
        "relevant": sorted(relevant),
        "graded": list(new_grades),
        "grade": list(new_grades.values()),
        "members": list(chain.from_iterable(kept)),
        "sizes": [len(c) for c in kept],
    }
