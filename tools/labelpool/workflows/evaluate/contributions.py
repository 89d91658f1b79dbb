"""The judgments each pooled system alone contributed, over arrays for every question at once.

:func:`contributions` ``(labels, pooled) -> (removed, unattributed)`` gives what
``bias.unique_contributions(labels, bias.pooled_tops(pooled.entry_tops(labels)))`` gives (the
reference, one question at a time, held equal to it by the tests): per pooled system, per
question, the judged documents in its top ``k`` as pooled that no other pooled system's top
``k`` holds there, and the questions that cannot be attributed. Each run as pooled is read
once and cut as arrays (no per-question lists of ids); the tops of all sources become one
dictionary-encoded column, and the choice of each system's deepest entry, the systems that
hold a document and the judged ones are sorts and searches over (question, system, document)
codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import columns
from labelpool.model import Label
from labelpool.runs import arrow_array, arrow_strings, numpy_of, ranks_within
from labelpool.workflows.validate.provenance import PooledRuns

Removed = dict[str, dict[str, frozenset[str]]]


def contributions(labels: Mapping[str, Label], pooled: PooledRuns) -> tuple[Removed, set[str]]:
    """Per pooled system, per question: the judged documents only it contributed; and the
    questions with an entry of unknown origin or whose run as pooled cannot be read."""
    sourced = pooled.sources(labels)
    entries = sourced.entries
    n = len(entries)
    qids = sorted({qid for qid, *_ in entries})
    q_code = {q: i for i, q in enumerate(qids)}
    systems = sorted({e.system for _, _, e, _ in entries})
    s_code = {name: i for i, name in enumerate(systems)}
    entry_q = np.fromiter((q_code[q] for q, *_ in entries), dtype=np.int64, count=n)
    entry_s = np.fromiter((s_code[e.system] for _, _, e, _ in entries), np.int64, n)
    entry_k = np.fromiter((e.k or 0 for _, _, e, _ in entries), np.int64, n)
    of_source: dict[object, list[int]] = {}
    for i, (*_, src) in enumerate(entries):
        of_source.setdefault(src, []).append(i)
    length = np.full(n, -1, dtype=np.int64)  # documents in the entry's top k (-1: none read)
    rows_entry: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    rows_doc: list[pa.Array] = [pa.array([], type=pa.string())]
    for src, run in pooled.read(sourced):
        mine = np.array(of_source[src], dtype=np.int64)
        names = arrow_strings([entries[i][0] for i in of_source[src]])
        run_ids = arrow_strings([str(q) for q in run.qids])
        where = numpy_of(pc.index_in(names, value_set=run_ids), fill=-1).astype(np.int64)
        at = np.maximum(where, 0)
        count = np.where(where >= 0, np.minimum(np.diff(run.offsets)[at], entry_k[mine]), 0)
        length[mine] = count
        rows = np.repeat(run.offsets[:-1][at], count) + ranks_within(count)
        rows_entry.append(np.repeat(mine, count))
        codes = arrow_array(run.doc_codes[rows].astype(np.int64))
        rows_doc.append(run.doc_vocab.take(codes).cast(pa.string()))
        del run
    # unattributable: an entry of unknown origin, without a run, or whose blob is gone
    blocked = np.zeros(len(qids), dtype=bool)
    blocked[entry_q[length < 0]] = True
    # each system's deepest entry of a question (the later of equals), as pooled_tops keeps
    readable = np.flatnonzero(length >= 0)
    order = readable[np.lexsort((readable, length[readable], entry_s[readable], entry_q[readable]))]
    group = entry_q[order] * len(systems) + entry_s[order]
    last = np.ones(len(order), dtype=bool)
    last[:-1] = group[:-1] != group[1:]
    chosen = np.zeros(n, dtype=bool)
    chosen[order[last]] = True
    chosen &= ~blocked[entry_q]
    # every document of the tops and every judged one, in one code space
    judged_q, judged_docs = _judged(labels, qids)
    encoded = pc.dictionary_encode(pa.concat_arrays([*rows_doc, judged_docs]))
    codes = numpy_of(encoded.indices).astype(np.int64)
    width = max(len(encoded.dictionary), 1)
    row_entry = np.concatenate(rows_entry)
    keep = chosen[row_entry]
    q, sys = entry_q[row_entry[keep]], entry_s[row_entry[keep]]
    doc = codes[: len(row_entry)][keep]
    judged = np.sort(judged_q * width + codes[len(row_entry) :])
    # distinct (question, document, system); a (question, document) only one system holds
    triple = np.unique((q * width + doc) * len(systems) + sys)
    pair = triple // max(len(systems), 1)
    alone = np.ones(len(triple), dtype=bool)
    alone[1:] &= pair[1:] != pair[:-1]
    alone[:-1] &= pair[:-1] != pair[1:]
    alone &= _member(pair, judged)
    pair, sys = pair[alone], triple[alone] % max(len(systems), 1)
    names_of = encoded.dictionary.take(arrow_array(pair % width)).to_pylist()
    sets: dict[tuple[int, int], list[str]] = {}
    keys = zip(sys.tolist(), (pair // width).tolist(), strict=True)
    for key, name in zip(keys, names_of, strict=True):
        sets.setdefault(key, []).append(name)
    removed: Removed = {}
    for (s, qi), docs in sorted(sets.items()):
        removed.setdefault(systems[s], {})[qids[qi]] = frozenset(docs)
    return removed, {qids[i] for i in np.flatnonzero(blocked)}


def _judged(labels: Mapping[str, Label], qids: list[str]) -> tuple[np.ndarray, pa.Array]:
    """(question index, document) of every judged document of ``qids`` (``Label.judged``:
    ``judged_ids`` and every class member, repeats harmless): from the label set's columns
    when it carries them (no label built), else label by label."""
    cols = columns.of(labels)
    if cols is not None:
        table = cols.table.take(pa.array(cols.rows(qids), pa.int64()))
        judged_rows, judged_docs = columns.flat(table.column("judged"))
        member_rows, member_docs = columns.flat(table.column("members"))
        docs = pa.concat_arrays([judged_docs.cast(pa.string()), member_docs.cast(pa.string())])
        return np.concatenate([judged_rows, member_rows]), docs
    lists = [tuple(labels[q].judged) for q in qids]
    counts = np.fromiter(map(len, lists), np.int64, len(qids))
    rows = np.repeat(np.arange(len(qids), dtype=np.int64), counts)
    return rows, arrow_strings(list(chain.from_iterable(lists)))


def _member(keys: np.ndarray, ordered: np.ndarray) -> np.ndarray:
    """Which ``keys`` are in the sorted ``ordered``."""
    if not len(ordered):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(ordered, keys), len(ordered) - 1)
    found: np.ndarray = ordered[at] == keys
    return found
