"""``labelpool judge --machine``, the writes: machine verdicts in the pending entries of a file.

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
* :func:`fill_many` writes the verdicts of several documents of one file at once: one read,
  one read-back, one check by validate's rules and one atomic write for all of them (a
  machine's answers come faster than a write per verdict can keep up with).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from labelpool import atomic
from labelpool import batch as batch_mod
from labelpool.errors import LabelpoolError
from labelpool.rules import written as written_rules
from labelpool.workflows.judge import seats
from labelpool.workflows.judge.queue import Entry, entries_of, read_file
from labelpool.workflows.judge.write import (
    Rules,
    WriteRefused,
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


@dataclass(frozen=True)
class Want:
    """One verdict to write: ``grade`` for ``doc``, or (``grade`` None) the can't-judge
    ``note``."""

    doc: str
    grade: int | None
    note: str | None = None


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
    return fill_many(root, rules, path, batch, identity, [Want(doc, grade, note)])[0]


def fill_many(
    root: Path, rules: Rules, path: Path, batch: str, identity: str, wants: Sequence[Want]
) -> list[Outcome]:
    """:func:`fill` of several documents of one file in one write: the outcome of each, in
    order. Each is decided as :func:`fill` decides it on the file as it is now (read once,
    under the lock); the edits are read back together (every edited entry holds its new
    verdict, every other entry its old one) and checked by validate's rules once."""
    with locked(root):
        data, text, batches = read_file(path)
        choice = seats.choose(data, batches, batch, identity)
        served = choice.entry
        if served is None or served.task is not None:
            return [GONE] * len(wants)
        found: dict[str, list[Entry]] = {}
        for e in entries_of(text, batches, batch, served):
            found.setdefault(e.doc, []).append(e)
        outcomes: list[Outcome] = []
        edits: list[tuple[Entry, int | None, str | None]] = []
        seen: set[str] = set()
        for want in wants:
            same = found.get(want.doc, [])
            if len(same) != 1:
                outcomes.append(GONE)
                continue
            entry = same[0]
            if entry.verdict is not None or want.doc in seen:
                outcomes.append(ALREADY)
                continue
            reason = None
            if want.grade is None:
                reason = want.note or f"machine judge {identity}: no grade"
                wanted = batch_mod.reason_line(reason, 0)[len(batch_mod.CANT_JUDGE) + 1 :]
                if entry.reason == wanted:
                    outcomes.append(UNCHANGED)
                    continue
            seen.add(want.doc)
            edits.append((entry, want.grade, reason))
            outcomes.append(WRITTEN if want.grade is not None else NOTED)
        if not edits:
            return outcomes
        new_text = text
        for entry, grade, reason in sorted(edits, key=lambda x: -x[0].line):  # lines below move
            new_text = edit(new_text, entry, grade, reason)
        _check_all(path, batches, text, new_text, batch, served, edits)
        graded = [entry for entry, grade, _r in edits if grade is not None]
        if choice.claim and graded:
            new_text, _after = _claim(path, new_text, batch, graded[0].doc, served.index, identity)
        _refuse_invalid(path, text, new_text, rules, min(e.line for e, _g, _r in edits))
        atomic.write_text(path, new_text)
        return outcomes


def _check_all(
    path: Path,
    old_batches: Sequence[batch_mod.PendingBatch],
    old_text: str,
    new_text: str,
    batch: str,
    seat: batch_mod.PendingBatch,
    edits: Sequence[tuple[Entry, int | None, str | None]],
) -> None:
    """The new text read back: each edited document holds its new verdict, every other entry
    what it held, and (without a note) nothing but verdict tokens differs (as
    :func:`.write._check` checks one edit); ``old_batches``: ``old_text`` read."""
    try:
        _d, _t, new_batches = read_file(path, new_text)
    except LabelpoolError:
        raise WriteRefused(
            "the edit would not read back; edit this entry by hand", path=path
        ) from None
    expected = {(b.batch, b.seat, e.doc): e.verdict for b in old_batches for e in b.entries}
    for entry, grade, _reason in edits:
        expected[(batch, seat.seat, entry.doc)] = grade
    new = {(b.batch, b.seat, e.doc): e.verdict for b in new_batches for e in b.entries}
    if new != expected:
        raise WriteRefused("the edit would change another entry; edit it by hand", path=path)
    with_reason = any(reason is not None for _e, _g, reason in edits)
    if not with_reason and old_text.count("\n") == new_text.count("\n"):
        line = batch_mod.first_change_beyond_verdicts(old_text, new_text)
        if line is not None:
            raise WriteRefused("the edit would change more than the verdict", path=path, line=line)
