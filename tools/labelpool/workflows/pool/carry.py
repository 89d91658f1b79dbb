"""The verdicts accepted classes carry, recorded: what ``pool`` and ``merge`` write.

``pool`` sends no judge a document whose accepted class holds a judged member
(:attr:`labelpool.model.Label.carried`): the class carries that member's verdict. The batch
names each such document with its member (``carried:``); once the batch is resolved,
``merge`` records the verdict in the document's ``verdicts`` as a line naming the class's
member as its source, ``{class: MEMBER, verdict: V}`` (``pool`` records it at once for a
question it makes no batch for). Such a line is provenance: scoring gives a class member its
class's grade whatever the line says, and no reader of judges (``history``, ``agreement``,
disputes) counts it as a judge's verdict (:func:`labelpool.model.record_from_data` leaves it
out). LP063 holds it to the class: a member of the document's accepted class, the class's
grade.

:func:`record` writes the lines of a batch into a round-trip tree, as the class says them at
that time (a class changed since ``pool``: its judged member now; a document no class
carries any more, judged itself or out of its class: no line). :func:`refresh` brings every
such line of a file back to its class after a fold changed a grade or a class.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from labelpool.labelfile import record as record_file
from labelpool.model import Label, Verdict, label_from_data
from labelpool.yamlfile import CommentedMap

__all__ = ["as_verdict", "record", "refresh", "source"]


def as_verdict(grade: int) -> Verdict:
    """A grade as a verdict line says it: ``irrelevant``, ``relevant``, or the grade."""
    return "irrelevant" if grade == 0 else "relevant" if grade == 1 else grade


def source(label: Label, doc: str, member: str) -> str | None:
    """The member whose verdict ``doc``'s class carries: ``member`` while it is a judged
    member of that class, else the class's own choice; None when no class carries ``doc``."""
    if doc not in label.carried:
        return None
    home = next(c for c in label.relevant_classes if doc in c)
    if member in home and member in label.judged_ids:
        return member
    return label.carried[doc]


def record(data: CommentedMap, carried: Iterable[tuple[str, str]]) -> int:
    """Write a ``{class: MEMBER, verdict: V}`` line for each (document, member) of
    ``carried`` that a class of ``data`` still carries; the number of lines written."""
    carried = list(carried)
    if not carried:
        return 0
    label = label_from_data(data)
    written = 0
    for doc, member in sorted(carried):
        src = source(label, doc, member)
        if src is None:
            continue
        verdict = as_verdict(label.gain.get(doc, 0))
        written += record_file.set_carried(data, doc, src, verdict)
    return written


def refresh(data: Any) -> bool:
    """Bring every line a class carried in ``data`` (a round-trip tree) back to its class:
    the member and grade the class says now; a line no class carries any more goes. False
    when every line says it already."""
    label = label_from_data(data)
    changed = False
    for doc, (member, verdict) in sorted(label.class_verdicts.items()):
        src = source(label, doc, member)
        if src is None:
            changed |= record_file.remove_carried(data, doc)
            continue
        want = as_verdict(label.gain.get(doc, 0))
        if (src, verdict) != (member, want):
            changed |= record_file.set_carried(data, doc, src, want)
    return changed
