"""A new label file, written in the canonical form (``import`` and ``add``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from labelpool import yamlfile
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
    or pooled."""
    judged = list(judged)
    pooled_unjudged = list(pooled_unjudged)
    grades = grades or {}
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
