"""A new label file, written in the canonical form (``import`` and ``add``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from labelpool import yamlfile
from labelpool.labelfile import newtext
from labelpool.labelfile.edit import set_mapping_item, set_sorted_list
from labelpool.yamlfile import CommentedMap, CommentedSeq


@dataclass(frozen=True)
class PoolEntry:
    """The ``pool`` entry of a new label: which system's top k, when (None: unknown)."""

    system: str
    k: int | None
    date: str | None


def new_label_text(
    qid: str,
    question: str,
    *,
    relevant: Iterable[str] = (),
    judged: Iterable[str] = (),
    grades: Mapping[str, int] | None = None,
    pooled_unjudged: Iterable[str] = (),
    pool: PoolEntry | None = None,
) -> str:
    """The text of a new label file; the pool entry is written only when something was judged
    or pooled. Written directly (:mod:`.newtext`) when it can be, else dumped by ruamel."""
    judged = list(judged)
    pooled_unjudged = list(pooled_unjudged)
    grades = grades or {}
    fast = newtext.label_text(
        qid,
        question,
        relevant=relevant,
        judged=judged,
        grades=grades,
        pooled_unjudged=pooled_unjudged,
        pool=None if pool is None else (pool.system, pool.k, pool.date),
    )
    if fast is not None:
        return fast
    return _dumped(qid, question, relevant, judged, grades, pooled_unjudged, pool)


def _dumped(
    qid: str,
    question: str,
    relevant: Iterable[str],
    judged: list[str],
    grades: Mapping[str, int],
    pooled_unjudged: list[str],
    pool: PoolEntry | None,
) -> str:
    """:func:`new_label_text` through the ruamel dump (the reference of the direct writer)."""
    data = CommentedMap()
    data["id"] = yamlfile.scalar(qid)
    data["question"] = yamlfile.scalar(question)
    set_sorted_list(data, "relevant_doc_ids", relevant)
    set_sorted_list(data, "judged_ids", judged)
    for doc in sorted(grades):
        set_mapping_item(data, "grades", doc, grades[doc])
    if pooled_unjudged:
        set_sorted_list(data, "pooled_unjudged_ids", pooled_unjudged)
    if pool is not None and (judged or pooled_unjudged):
        entry = CommentedMap()
        entry["system"] = yamlfile.scalar(pool.system)
        entry["k"] = pool.k
        entry["date"] = None if pool.date is None else yamlfile.scalar(pool.date)
        seq = CommentedSeq([entry])
        seq.fa.set_block_style()
        data["pool"] = seq
    return yamlfile.dumps(data)
