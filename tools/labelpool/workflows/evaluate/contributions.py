"""The judgments each pooled system alone contributed, over arrays for every question at once.

:func:`contributions` ``(labels, pooled) -> (removed, unattributed)`` gives what
``bias.unique_contributions(labels, bias.pooled_tops(provenance.entry_tops(pooled, labels)))``
gives (the reference, one question at a time, held equal to it by the tests): per pooled
system, per question, the judged documents in its top ``k`` as pooled that no other pooled
system's top ``k`` holds there, and the questions that cannot be attributed. Each run as
pooled is read once and cut as arrays (``pooledruns.cut``; the entries come from the label
set's columns when it carries them: no label built); the tops of all sources become one
dictionary-encoded column, and the choice of each system's deepest entry, the systems that
hold a document and the judged ones are sorts and searches over (question, system, document)
codes (the distinct triples by one sort and a comparison of neighbours).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool.model import Label
from labelpool.runs import arrow_array, numpy_of
from labelpool.scoring.qrels import in_sorted
from labelpool.workflows.validate.pooledruns import PooledRuns, cut, judged_docs

Removed = dict[str, dict[str, frozenset[str]]]


def contributions(labels: Mapping[str, Label], pooled: PooledRuns) -> tuple[Removed, set[str]]:
    """Per pooled system, per question: the judged documents only it contributed; and the
    questions with an entry of unknown origin or whose run as pooled cannot be read."""
    sourced = pooled.sources(labels)
    entries = sourced.entries
    tops = cut(pooled, sourced)
    # the questions with an entry, coded in id order
    present = np.unique(entries.q)
    qids = sorted(entries.questions[q] for q in present.tolist())
    q_of = np.zeros(len(entries.questions), dtype=np.int64)
    rank = {q: i for i, q in enumerate(qids)}
    q_of[present] = [rank[entries.questions[q]] for q in present.tolist()]
    entry_q = q_of[entries.q]
    systems = sorted(set(entries.system))
    s_code = {name: i for i, name in enumerate(systems)}
    entry_s = np.fromiter((s_code[s] for s in entries.system), np.int64, len(entries.system))
    length = tops.length
    n = len(length)
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
    judged_q, judged_d = judged_docs(labels, qids)
    encoded = pc.dictionary_encode(pa.concat_arrays([tops.docs, judged_d]))
    codes = numpy_of(encoded.indices).astype(np.int64)
    width = max(len(encoded.dictionary), 1)
    row_entry = tops.row_entry
    keep = chosen[row_entry]
    q, sys = entry_q[row_entry[keep]], entry_s[row_entry[keep]]
    doc = codes[: len(row_entry)][keep]
    judged = np.sort(judged_q * width + codes[len(row_entry) :])
    # distinct (question, document, system); a (question, document) only one system holds
    triple = np.sort((q * width + doc) * len(systems) + sys)
    if len(triple):
        triple = triple[np.concatenate(([True], triple[1:] != triple[:-1]))]
    pair = triple // max(len(systems), 1)
    alone = np.ones(len(triple), dtype=bool)
    alone[1:] &= pair[1:] != pair[:-1]
    alone[:-1] &= pair[:-1] != pair[1:]
    alone &= in_sorted(pair, judged)
    pair, sys = pair[alone], triple[alone] % max(len(systems), 1)
    # grouped by (system, question): each group's documents one slice of one list
    group = sys * max(len(qids), 1) + pair // width
    order = np.argsort(group, kind="stable")
    group = group[order]
    names = encoded.dictionary.take(arrow_array(pair[order] % width)).to_pylist()
    starts = np.flatnonzero(np.diff(group, prepend=-1))
    ends = np.append(starts[1:], len(group))[: len(starts)]
    removed: Removed = {}
    for at, end in zip(starts.tolist(), ends.tolist(), strict=True):
        s, qi = divmod(int(group[at]), max(len(qids), 1))
        removed.setdefault(systems[s], {})[qids[qi]] = frozenset(names[at:end])
    return removed, {qids[i] for i in np.flatnonzero(blocked)}
