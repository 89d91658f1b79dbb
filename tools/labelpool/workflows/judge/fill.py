"""``labelpool judge --machine``, the writes: one machine verdict in a pending entry.

As the page writes (:mod:`.write`): under the repository lock the file is read again, the
entry found as it is now, only its verdict token (and the can't-judge line above it) changed,
the new text read back and checked by validate's own rules before the atomic write. What
differs from the page:

* The entry is the one :func:`seats.choose` serves the machine (its identity
  ``NAME@sha256:...`` as the user): in a batch for several judges it takes a seat, claimed
  (``judge: NAME@sha256:...``) in the write of its first verdict there, so that ``merge``
  credits the seat's judge, the machine, whoever commits. A batch for one judge is not
  claimed: the verdict line is committed by the machine author
  (:data:`labelpool.verdicts.MACHINE_EMAIL`), which ``merge`` credits as the machine.
* An entry that holds a verdict already is left as it is (:data:`ALREADY`): a verdict is
  never given twice, and a person's is never overwritten.
* A reply with no grade writes the ``# can't judge:`` note (naming the machine and why)
  and leaves the verdict empty, for a person; no seat is claimed for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from labelpool import atomic
from labelpool import batch as batch_mod
from labelpool.rules import written as written_rules
from labelpool.workflows.judge import seats
from labelpool.workflows.judge.queue import entries_of, read_file
from labelpool.workflows.judge.write import (
    Rules,
    _check,
    _claim,
    _refuse_invalid,
    edit,
    locked,
)

Outcome = Literal["written", "noted", "already", "gone", "unchanged"]
WRITTEN: Final = "written"
NOTED: Final = "noted"
ALREADY: Final = "already"
GONE: Final = "gone"
UNCHANGED: Final = "unchanged"


def note_text(identity: str, error: str) -> str:
    """The can't-judge note of a machine's reply with no grade (one line validate accepts)."""
    why = "".join(ch if ch.isprintable() else " " for ch in error)
    text = f"machine judge {identity}: {why}"
    if written_rules.text_problem(text) is not None:
        text = f"machine judge {identity}: its reply could not be read (see the response cache)"
    return text


def fill(
    root: Path,
    rules: Rules,
    path: Path,
    batch: str,
    doc: str,
    identity: str,
    grade: int | None,
    note: str | None = None,
) -> Outcome:
    """Write the machine ``identity``'s ``grade`` for ``doc`` in ``batch`` of ``path`` (or,
    with ``grade`` None, the can't-judge ``note``); see the module doc. ``gone``: the
    document is no longer pending for this machine (merged, or every seat another's)."""
    with locked(root):
        data, text, batches = read_file(path)
        choice = seats.choose(data, batches, batch, identity)
        served = choice.entry
        if served is None or served.task is not None:
            return GONE
        found = [e for e in entries_of(text, batches, batch, served) if e.doc == doc]
        if len(found) != 1:
            return GONE
        entry = found[0]
        if entry.verdict is not None:
            return ALREADY
        if grade is None:
            reason = note or f"machine judge {identity}: no grade"
            wanted = batch_mod.reason_line(reason, 0)[len(batch_mod.CANT_JUDGE) + 1 :]
            if entry.reason == wanted:
                return UNCHANGED
        else:
            reason = None
        new_text = edit(text, entry, grade, reason)
        _check(path, text, new_text, batch, doc, grade, reason is not None, served)
        if choice.claim and grade is not None:
            new_text, _after = _claim(path, new_text, batch, doc, served.index, identity)
        _refuse_invalid(path, text, new_text, rules, entry.line)
        atomic.write_text(path, new_text)
        return WRITTEN if grade is not None else NOTED
