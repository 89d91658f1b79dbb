"""The record of judges beside git's word (``labelpool history``): who the label file names
for each verdict on a document (:func:`named`), and the person git credits when the record
does not name them (:func:`git_differs`): a line, never an error, since after a squash merge
git credits whoever merged and the record is the one that is right."""

from __future__ import annotations

from labelpool import verdicts
from labelpool.gitio import CommitInfo
from labelpool.model import Label
from labelpool.verdicts import PERSON, JudgeVerdict


def named(label: Label, doc: str) -> tuple[JudgeVerdict, ...]:
    """Every verdict on ``doc`` with its judge, where the file names any judge (else ():
    a file from before labelpool recorded judges, whose history git alone tells)."""
    if label.judge is None and not label.verdicts:
        return ()
    if doc in label.carried and doc not in label.verdicts:
        return ()  # judged through its class, by no judge (a line the class carried is none)
    return verdicts.record(label, doc)


def git_differs(record: tuple[JudgeVerdict, ...], credited: CommitInfo | None) -> str | None:
    """``Name <email>`` of the person git credits with the verdict (``credited``: the commit
    that filled it in a batch, else the one that set it) when no person of ``record`` has
    their email (or, without one, their name); None when they agree or cannot be compared."""
    people = [e.judge for e in record if e.judge is not None and e.kind == PERSON]
    if not people or credited is None or credited.uncommitted:
        return None
    mail = credited.author_mail.strip("<>").lower()
    for who in people:
        if mail and who.lower().endswith(f"<{mail}>"):
            return None
        if not mail and who.split(" <")[0] == credited.author:
            return None
    return f"{credited.author} <{mail}>" if mail else credited.author
