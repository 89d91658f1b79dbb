"""``labelpool judge``, the writes: one entry's verdict (and can't-judge note), checked and atomic.

A write names the entry (question, batch, document) and carries the token of the text the
page last saw for it (its *block*: the can't-judge comment line, if any, and the entry line;
an HMAC under the run's key, :class:`~labelpool.workflows.judge.tokens.Tokens`, so that the
page never holds what would give away another judge's verdict). Under the repository lock
(:mod:`labelpool.repolock`, taken for each write and waiting up to :data:`PAGE_WAIT` seconds
for another writer, never held while the page merely stays open) the file is read again;
only when the entry's block still has that token is the new one written
(:func:`labelpool.atomic.write_text`), otherwise :class:`Conflict` says what is there now.
Two pages on one repository, a ``merge``, an editor or a ``git pull`` never lose a verdict:
whoever wrote last saw what they replaced.

Only the token after ``verdict:`` changes (:func:`labelpool.batch.set_verdict`), and the
can't-judge comment right above the entry line is added, replaced or removed; the new text is
read back with merge's reading before it is written: the entry must hold the new verdict and
every other entry of the file its old one, and nothing else may differ; and it must pass
validate's own per-file rules (:func:`labelpool.rules.written.first_new_error`, the check
``pool`` runs too): a write that adds an error validate would report (a document as its own
duplicate, LP035; a grade past the bound, LP042; a file past the size bound, LP001; a control
or bidi character, LP003/LP004) is refused naming the rule, nothing written.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import atomic, repolock, schemas
from labelpool import batch as batch_mod
from labelpool.config import Config
from labelpool.errors import LabelpoolError, StateError
from labelpool.model import Verdict
from labelpool.rules import written as written_rules
from labelpool.workflows.judge import seats
from labelpool.workflows.judge.queue import Entry, JudgeInputError, entries_of, read_file
from labelpool.workflows.judge.tokens import Tokens

PAGE_WAIT = 5.0  # seconds a write or commit of the page waits for another writer
PAGE_RETRY = "try again when it ends"


class Conflict(StateError):
    """The entry is not what the page saw (the page reloads it): HTTP 409."""

    def __init__(self, message: str, current: Entry | None, *, path: Path) -> None:
        super().__init__(message, path=path)
        self.current = current


class WriteRefused(JudgeInputError):
    """The edit would change more than the entry (a layout the page cannot edit): HTTP 422."""


@dataclass(frozen=True)
class Rules:
    """What validate checks a label file against: the label schema and the bounds."""

    schema_file: Path
    max_bytes: int
    max_depth: int

    @classmethod
    def of(cls, cfg: Config) -> Rules:
        schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
        return cls(schema_file, cfg.max_file_bytes, cfg.max_depth)

    def warm(self) -> None:
        """Build validate's checkers now (about 50 ms), not under the first write's lock."""
        written_rules.first_new_error(
            None,
            "id: warm-up\n",
            schema_file=self.schema_file,
            max_bytes=self.max_bytes,
            max_depth=self.max_depth,
        )


@dataclass(frozen=True)
class Written:
    before: Entry
    after: Entry
    changed: bool  # False when the file already said so (nothing written)


@contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the repository lock for one write or commit of the page."""
    with repolock.held(
        root, command="labelpool judge (the judging page)", wait=PAGE_WAIT, retry=PAGE_RETRY
    ):
        yield


def edit(text: str, entry: Entry, verdict: Verdict, reason: str | None) -> str:
    """``text`` with ``entry``'s verdict token set and its can't-judge line as ``reason`` says
    (None: no such line)."""
    lines = text.split("\n")
    i = entry.line - 1
    line = lines[i]
    try:
        new_line = batch_mod.set_verdict(line, batch_mod.verdict_token(verdict))
    except ValueError as exc:
        raise WriteRefused(str(exc), line=entry.line) from None
    indent = len(line) - len(line.lstrip(" "))
    new_block = [new_line]
    if reason is not None:
        new_block.insert(0, batch_mod.reason_line(reason, indent))
    start = i - 1 if entry.reason is not None else i
    return "\n".join([*lines[:start], *new_block, *lines[i + 1 :]])


def write_verdict(
    root: Path,
    path: Path,
    batch: str,
    doc: str,
    expect: str,
    verdict: Verdict,
    reason: str | None = None,
    *,
    tokens: Tokens,
    rules: Rules,
    me: str = "",
) -> Written:
    """Set ``doc``'s verdict in ``batch`` of the label file ``path`` when its block still has
    the token ``expect`` (:meth:`Tokens.of`; else :class:`Conflict`) and the new text passes
    ``rules`` (else :class:`WriteRefused`); ``reason`` is the can't-judge note (verdict
    None). In a batch for several judges the entry is the one of the seat the page serves
    ``me`` (:func:`seats.choose`); an unclaimed seat is claimed for ``me`` (``judge: me``) in
    the same write, and a document ``me`` judged already (in the record or another seat) is a
    :class:`Conflict` that names no verdict."""
    if reason is not None and verdict is not None:
        raise ValueError("a can't-judge note goes with an empty verdict")
    problem = None if reason is None else written_rules.text_problem(reason)
    if problem is not None:
        raise WriteRefused(
            f"the can't-judge note {problem}: validate would refuse it; nothing written", path=path
        )
    with locked(root):
        data, text, batches = read_file(path)
        choice = seats.choose(data, batches, batch, me)
        served = choice.entry
        if served is None:
            raise Conflict(f"{doc} waits for another judge; reloaded", None, path=path)
        entry = _find(text, batches, batch, doc, path, served)
        if not tokens.matches(expect, path, seats.token_key(batch, served.seat), entry):
            raise Conflict(f"{doc} changed on disk; reloaded", entry, path=path)
        if not seats.is_plain([b for b in batches if b.batch == batch]) and seats.judged_by(
            seats.label_of(data), batches, doc, me, own=served
        ):
            raise Conflict(
                f"you judged {doc} already: a second verdict on it must come from another judge",
                None,
                path=path,
            )
        if entry.verdict == verdict and entry.reason == (
            None if reason is None else _reason_text(reason)
        ):
            return Written(entry, entry, changed=False)
        new_text = edit(text, entry, verdict, reason)
        after = _check(path, text, new_text, batch, doc, verdict, reason is not None, served)
        if choice.claim:
            new_text, after = _claim(path, new_text, batch, doc, served.index, me)
        _refuse_invalid(path, text, new_text, rules, entry.line)
        atomic.write_text(path, new_text)
        return Written(entry, after, changed=True)


def _claim(path: Path, text: str, batch: str, doc: str, index: int, me: str) -> tuple[str, Entry]:
    """``text`` with the seat at ``index`` claimed for ``me``, read back: the seat names
    ``me`` and every entry holds what it held."""
    if not me:
        raise WriteRefused(
            "set git user.name and user.email: the page writes your name on the seat you take",
            path=path,
        )
    _d, _t, before = read_file(path, text)
    try:
        claimed = seats.claim_line(text, before[index], me)
    except ValueError as exc:
        raise WriteRefused(f"{exc}; cannot claim the seat", path=path) from None
    _d, _t, after = read_file(path, claimed)

    def shape(bs: list[batch_mod.PendingBatch]) -> list[Any]:
        return [(b.batch, b.seat, [(e.doc, e.verdict) for e in b.entries]) for b in bs]

    if shape(after) != shape(before) or after[index].judge != me:
        raise WriteRefused("claiming the seat would change another entry", path=path)
    return claimed, _find(claimed, after, batch, doc, path, after[index])


def _refuse_invalid(path: Path, old: str, new: str, rules: Rules, line: int) -> None:
    """Refuse new text that validate would report an error in that ``old`` does not have;
    the error cites the entry's ``line`` in the file as it is (the new text is not written,
    and the finding's place is in it)."""
    found = written_rules.first_new_error(
        old,
        new,
        schema_file=rules.schema_file,
        max_bytes=rules.max_bytes,
        max_depth=rules.max_depth,
    )
    if found is not None:
        raise WriteRefused(
            f"{found.rule} {found.message}: validate would refuse the file; nothing written",
            path=path,
            line=line,
        )


def _reason_text(reason: str) -> str:
    return batch_mod.reason_line(reason, 0)[len(batch_mod.CANT_JUDGE) + 1 :]


def _find(
    text: str,
    batches: list[batch_mod.PendingBatch],
    batch: str,
    doc: str,
    path: Path,
    seat: batch_mod.PendingBatch | None = None,
) -> Entry:
    found = [e for e in entries_of(text, batches, batch, seat) if e.doc == doc]
    if len(found) != 1:
        what = "is no longer pending" if not found else "is pending twice"
        raise Conflict(f"{doc} {what} in this batch; reloaded", None, path=path)
    return found[0]


def _check(
    path: Path,
    old_text: str,
    new_text: str,
    batch: str,
    doc: str,
    verdict: Verdict,
    with_reason: bool,
    seat: batch_mod.PendingBatch | None = None,
) -> Entry:
    """The new text read back: ``doc`` holds ``verdict``, every other entry what it held, and
    (without a note) nothing but verdict tokens differs."""
    try:
        _d, _t, old_batches = read_file(path, old_text)
        _d, _t, new_batches = read_file(path, new_text)
    except LabelpoolError:
        raise WriteRefused(
            "the edit would not read back; edit this entry by hand", path=path
        ) from None
    old = {(b.batch, b.seat, e.doc): e.verdict for b in old_batches for e in b.entries}
    new = {(b.batch, b.seat, e.doc): e.verdict for b in new_batches for e in b.entries}
    expected = dict(old)
    expected[(batch, None if seat is None else seat.seat, doc)] = verdict
    if new != expected:
        raise WriteRefused("the edit would change another entry; edit it by hand", path=path)
    if not with_reason and old_text.count("\n") == new_text.count("\n"):
        line = batch_mod.first_change_beyond_verdicts(old_text, new_text)
        if line is not None:
            raise WriteRefused("the edit would change more than the verdict", path=path, line=line)
    served = None if seat is None else new_batches[seat.index]
    return _find(new_text, new_batches, batch, doc, path, served)
