"""A new label file, written in the canonical form (``import`` and ``add``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from labelpool import yamlfile
from labelpool.labelfile import newtext
from labelpool.labelfile.edit import set_mapping_item, set_sorted_list
from labelpool.labelfile.newtext import NewLabel, PoolEntry
from labelpool.yamlfile import CommentedMap, CommentedSeq

__all__ = ["NewLabel", "PoolEntry", "label_file_text", "new_label_text", "written_label"]


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
    return label_file_text(
        NewLabel(
            qid,
            question,
            tuple(relevant),
            tuple(judged),
            grades or {},
            tuple(pooled_unjudged),
            pool,
        )
    )


def label_file_text(label: NewLabel) -> str:
    """:func:`new_label_text` of a :class:`NewLabel`."""
    fast = newtext.label_text(label)
    return _dumped(label) if fast is None else fast


def written_label(label: NewLabel) -> tuple[str, dict[str, Any] | None]:
    """:func:`label_file_text` of ``label`` and, when the direct writer wrote it, the plain
    data that text reads as (:func:`newtext.text_and_data`: a check of the text against the
    schema needs not read it back); None when ruamel dumped it (read it to know)."""
    fast = newtext.text_and_data(label)
    if fast is None:
        return _dumped(label), None
    return fast


def _dumped(label: NewLabel) -> str:
    """:func:`new_label_text` through the ruamel dump (the reference of the direct writer)."""
    data = CommentedMap()
    data["id"] = yamlfile.scalar(label.qid)
    data["question"] = yamlfile.scalar(label.question)
    set_sorted_list(data, "relevant_doc_ids", label.relevant)
    set_sorted_list(data, "judged_ids", label.judged)
    for doc in sorted(label.grades):
        set_mapping_item(data, "grades", doc, label.grades[doc])
    if label.pooled_unjudged:
        set_sorted_list(data, "pooled_unjudged_ids", label.pooled_unjudged)
    pool = label.pool
    if pool is not None and (label.judged or label.pooled_unjudged):
        entry = CommentedMap()
        entry["system"] = yamlfile.scalar(pool.system)
        entry["k"] = pool.k
        entry["date"] = None if pool.date is None else yamlfile.scalar(pool.date)
        seq = CommentedSeq([entry])
        seq.fa.set_block_style()
        data["pool"] = seq
    return yamlfile.dumps(data)
