"""``labelpool judge`` with several judges: which seat of a batch the page serves its user.

A batch for several judges has one pending entry per seat in each label file (``pool
--judges N``, docs/judging.md). For the user U (their git identity, ``Name <email>``) the
page serves, in each file: the seat whose ``judge`` is U; else the first unclaimed seat none
of whose documents U has judged (in the record, or with a verdict in another seat), which
U's first write claims (``judge: U`` written into the entry in the same atomic write); else
nothing: what is left there waits for another judge. A batch in today's form (one entry, no
seat, no task, no judge) is served as it always was, and never claimed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labelpool import batch as batch_mod
from labelpool import verdicts
from labelpool.model import Label, label_from_data


@dataclass(frozen=True)
class Choice:
    """The entry served in one file: ``seat`` (None: today's form or a task without seats),
    ``claim``: its first write writes ``judge: U``; ``waiting``: documents of the batch in
    this file with an empty verdict in a seat the page does not serve (another judge's)."""

    entry: batch_mod.PendingBatch | None
    claim: bool
    waiting: frozenset[str]


def is_plain(entries: Sequence[batch_mod.PendingBatch]) -> bool:
    """Today's form: one entry of the batch, no seat, task or judge."""
    return (
        len(entries) == 1
        and entries[0].seat is None
        and entries[0].task is None
        and (entries[0].judge is None)
    )


def label_of(data: Mapping[str, Any]) -> Label | None:
    try:
        return label_from_data(data)
    except (KeyError, TypeError, ValueError):
        return None


def judged_by(
    label: Label | None,
    batches: Sequence[batch_mod.PendingBatch],
    doc: str,
    me: str,
    own: batch_mod.PendingBatch | None = None,
) -> bool:
    """Whether ``me`` gave ``doc`` a verdict: in the record, or in a seat other than ``own``."""
    if label is not None and any(e.judge == me for e in verdicts.record(label, doc)):
        return True
    return any(
        b is not own
        and b.judge == me
        and any(e.doc == doc and e.verdict is not None for e in b.entries)
        for b in batches
    )


def choose(
    data: Mapping[str, Any], batches: Sequence[batch_mod.PendingBatch], batch: str, me: str
) -> Choice:
    """The entry of ``batch`` the page serves ``me`` in one file (see the module doc)."""
    entries = [b for b in batches if b.batch == batch]
    if not entries:
        return Choice(None, False, frozenset())
    if is_plain(entries):
        return Choice(entries[0], False, frozenset())
    label = label_of(data)
    chosen = next((b for b in entries if b.judge == me), None)
    claim = False
    if chosen is None:
        free = sorted(
            (b for b in entries if b.judge is None),
            key=lambda b: (b.seat or 0, b.index),
        )
        chosen = next(
            (b for b in free if not any(judged_by(label, batches, e.doc, me) for e in b.entries)),
            None,
        )
        claim = chosen is not None
    waiting = frozenset(
        e.doc for b in entries if b is not chosen for e in b.entries if e.verdict is None
    )
    return Choice(chosen, claim, waiting)


def claim_line(text: str, entry: batch_mod.PendingBatch, judge: str) -> str:
    """``text`` with ``judge: JUDGE`` written into ``entry`` (read from ``text``) right above
    its ``docs:`` key; every other line kept."""
    lines = text.split("\n")
    i = entry.line  # 0-based index of the line after ``  - batch: ...``
    while i < len(lines) and lines[i] != "    docs:":
        if lines[i].startswith("    judge:") or not lines[i].startswith("    "):
            raise ValueError("the entry is not in the layout `labelpool pool` writes")
        i += 1
    if i == len(lines):
        raise ValueError("the entry has no `docs:` line")
    lines.insert(i, f"    judge: {batch_mod.judge_scalar(judge)}")
    return "\n".join(lines)


def identity(name: str, email: str) -> str:
    """The user as a judge: ``Name <email>`` as git names an author ("" without one)."""
    return f"{name} <{email}>" if name and email else ""


def token_key(batch: str, seat: int | None) -> str:
    """What an entry's token names of its batch: the batch, and its seat when it has one."""
    return batch if seat is None else f"{batch}\x00seat {seat}"
