"""``labelpool judge``, the reading: the pending documents of one batch, as the page shows them.

Every label file with a ``pending`` block is read with merge's reading
(:func:`labelpool.workflows.merge.collect.read_label`: the one YAML reading and the strict
scan of the block ``pool`` writes). One batch is chosen (``--batch``, else the first by name
that still has an empty verdict); its documents are grouped by question, each question's in an
order shuffled with a seed from (question, batch, judge email): ``pool`` writes them in rank
order, and the page is blind to rank, system and score.

Nothing here is kept between calls: the page's state is the label files.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import labelset, verdicts
from labelpool.config import Config
from labelpool.errors import InputError, UsageError
from labelpool.limits import GRADE_MAX
from labelpool.model import (
    IRRELEVANT,
    RELEVANT,
    DuplicateOf,
    JudgeVerdict,
    Verdict,
    split_classes,
)
from labelpool.words import counted
from labelpool.workflows.judge import seats
from labelpool.workflows.merge import collect as merge_collect


class JudgeUsageError(UsageError):
    """``--batch`` or ``--question`` names nothing pending (exit 2)."""


class JudgeInputError(InputError):
    """A label file cannot be judged in the page (exit 1 at start; a 422 answer later)."""


@dataclass(frozen=True)
class Entry:
    """One pending document of a label file, as it is on disk now."""

    doc: str
    line: int  # 1-based line of the entry
    verdict: Verdict
    reason: str | None  # the can't-judge comment right above it
    block: str  # the can't-judge line (if any) and the entry line, as on disk; never sent
    batch_text: str | None  # the batch's ``# text:`` comment


@dataclass(frozen=True)
class RelevantDoc:
    """A document already judged relevant for the question (merged into the label)."""

    doc: str
    grade: int
    members: tuple[str, ...]  # its relevance class (itself alone when it has none)


@dataclass(frozen=True)
class Question:
    qid: str
    question: str
    path: Path
    batch: str
    entries: tuple[Entry, ...]  # shuffled (see :func:`shuffled`)
    relevant: tuple[RelevantDoc, ...]
    seat: int | None = None  # the seat served (a batch for several judges)
    claim: bool = False  # the seat is unclaimed: the first write writes ``judge:``
    task: str | None = None  # ``second-opinion`` or ``adjudicate``
    waiting: frozenset[str] = frozenset()  # documents waiting for another judge here
    # for an adjudication (not blind): every verdict on each document, with its judge
    record: Mapping[str, tuple[JudgeVerdict, ...]] = field(default_factory=dict)


def seed_order(docs: Sequence[str], qid: str, batch: str, judge_email: str) -> list[str]:
    """``docs`` shuffled with a seed from (question, batch, judge email): the same judge sees
    the same order on every start, another judge another one."""
    seed = hashlib.sha256("\x00".join((qid, batch, judge_email)).encode("utf-8")).digest()
    out = sorted(docs)
    random.Random(int.from_bytes(seed[:8], "big")).shuffle(out)
    return out


def pending_files(cfg: Config) -> list[Path]:
    """Label files holding a ``pending`` key (a cheap text test; the reading checks)."""
    out = []
    for path in labelset.label_files(cfg.labels_dir):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if text.startswith("pending:") or "\npending:" in text:
            out.append(path)
    return out


def read_file(path: Path, text: str | None = None) -> tuple[Any, str, list[batch_mod.PendingBatch]]:
    """(plain data, text, batches) of one label file, by merge's reading; a problem is a
    :class:`JudgeInputError` naming file and line."""
    try:
        data, text, batches = merge_collect.read_label(path, text)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise JudgeInputError(
            "the pending block is not in the layout `labelpool pool` writes", path=path, line=1
        ) from None
    if not isinstance(data, Mapping):
        raise JudgeInputError(
            "not a label: the file's top level is not a mapping", path=path, line=1
        )
    if "\r" in text:
        line = text.count("\n", 0, text.index("\r")) + 1
        raise JudgeInputError("CRLF line ends: run `labelpool fmt` first", path=path, line=line)
    return data, text, batches


def entries_of(
    text: str,
    batches: Iterable[batch_mod.PendingBatch],
    batch: str,
    seat: batch_mod.PendingBatch | None = None,
) -> list[Entry]:
    """The entries of ``batch`` in a file (only those of ``seat`` when given), with their
    block, reason and batch text."""
    lines = text.split("\n")
    out = []
    for b in batches:
        if b.batch != batch or (seat is not None and b.index != seat.index):
            continue
        for e in b.entries:
            reason = batch_mod.reason_of(lines, e.line)
            first = e.line - 2 if reason is not None else e.line - 1
            block = "\n".join(lines[first : e.line])
            text_ = batch_mod.text_of(lines, e.line)
            out.append(Entry(e.doc, e.line, e.verdict, reason, block, text_))
    return out


def relevant_of(data: Mapping[str, Any]) -> tuple[RelevantDoc, ...]:
    """Documents judged relevant in the label's lists (``relevant_doc_ids`` and classes)."""
    grades = data.get("grades") or {}
    relevant = {str(d) for d in data.get("relevant_doc_ids") or ()}
    accepted, _ = split_classes(data.get("relevant_classes"))
    # a class of judged-irrelevant documents (no relevant member) holds nothing relevant
    classes = [c for c in accepted if relevant.intersection(c)]
    class_of = {m: c for c in classes for m in c}
    relevant |= set(class_of)

    def grade(d: str) -> int:
        g = grades.get(d, 1)
        return g if isinstance(g, int) and not isinstance(g, bool) else 1

    return tuple(RelevantDoc(d, grade(d), class_of.get(d, (d,))) for d in sorted(relevant))


def question_of(
    path: Path, batch: str, judge_email: str, text: str | None = None, me: str = ""
) -> Question | None:
    """The question of one label file for ``batch`` as the user ``me`` is served it (the
    seat :func:`seats.choose` picks); None when the batch has no entry in it. A question
    whose seats are all another judge's has no entries and says what waits."""
    data, text, batches = read_file(path, text)
    choice = seats.choose(data, batches, batch, me)
    if choice.entry is None and not choice.waiting:
        return None
    entries = entries_of(text, batches, batch, choice.entry) if choice.entry is not None else []
    qid = str(data.get("id"))
    by_doc = {e.doc: e for e in entries}
    order = seed_order(list(by_doc), qid, batch, judge_email)
    served = choice.entry
    record: dict[str, tuple[JudgeVerdict, ...]] = {}
    if served is not None and served.task == "adjudicate":
        label = seats.label_of(data)
        if label is not None:
            record = {d: verdicts.record(label, d) for d in by_doc}
    return Question(
        qid=qid,
        question=str(data.get("question") or ""),
        path=path,
        batch=batch,
        entries=tuple(by_doc[d] for d in order),
        # never the verdict the page asks for again (a second opinion is blind)
        relevant=tuple(r for r in relevant_of(data) if r.doc not in by_doc),
        seat=None if served is None else served.seat,
        claim=choice.claim,
        task=None if served is None else served.task,
        waiting=choice.waiting,
        record=record,
    )


@dataclass(frozen=True)
class Queue:
    batch: str
    batches: tuple[str, ...]  # every batch with an empty verdict, by name
    questions: tuple[Question, ...]
    date: str = ""  # the batch's ``date`` (the first file's, by path)
    size: int = 0  # its documents in every label file (judged or not)
    key: str = "0"  # what the page holds of the batch: its index among the pending batches

    @property
    def label(self) -> str:
        """What the page calls the batch: its date and size. Never its name, which names the
        pooled systems (``2026-12-04-bm25+dense@20``): the page is blind to them."""
        docs = counted(self.size, "document")
        return f"batch of {self.date}, {docs}" if self.date else f"batch of {docs}"


def load(
    cfg: Config,
    judge_email: str,
    batch: str | None = None,
    question: str | None = None,
    me: str = "",
) -> Queue | None:
    """The batch to judge and its questions, as the user ``me`` (``Name <email>``) is served
    them (:mod:`.seats`); None when nothing is pending."""
    files: list[tuple[Path, Any, str, list[batch_mod.PendingBatch]]] = []
    open_batches: set[str] = set()
    all_batches: set[str] = set()
    docs: dict[str, set[tuple[Path, str]]] = {}
    dates: dict[str, str] = {}
    for path in pending_files(cfg):
        data, text, batches = read_file(path)
        for b in batches:  # the whole batch, whichever question the page serves
            docs.setdefault(b.batch, set()).update((path, e.doc) for e in b.entries)
            dates.setdefault(b.batch, str(b.date))
        if question is not None and str(data.get("id")) != question:
            continue
        files.append((path, data, text, batches))
        for b in batches:
            all_batches.add(b.batch)
            if any(e.verdict is None for e in b.entries):
                open_batches.add(b.batch)
    label_paths = labelset.label_files(cfg.labels_dir)
    if question is not None and not files and not any(p.stem == question for p in label_paths):
        raise JudgeUsageError(f"--question {question}: no such question in {cfg.labels_dir}")
    if batch is not None:
        if batch not in all_batches:
            known = ", ".join(sorted(all_batches)) or "none"
            raise JudgeUsageError(f"--batch {batch}: no such pending batch (pending: {known})")
        chosen = batch
    elif open_batches:
        chosen = _first_open(files, sorted(open_batches), me)
    else:
        return None
    questions = []
    for path, _data, text, _batches in files:
        q = question_of(path, chosen, judge_email, text, me)
        if q is not None:
            questions.append(q)
    if not questions:
        return None
    key = str(sorted(docs).index(chosen))  # the same for every page on this repository
    size = len(docs[chosen])  # each document once, however many seats it has
    return Queue(chosen, tuple(sorted(open_batches)), tuple(questions), dates[chosen], size, key)


def _first_open(
    files: Sequence[tuple[Path, Any, str, list[batch_mod.PendingBatch]]],
    names: Sequence[str],
    me: str,
) -> str:
    """The first batch by name with an empty verdict the page can serve ``me``; else the
    first with any (its documents wait for another judge)."""
    for name in names:
        for _path, data, _text, batches in files:
            entry = seats.choose(data, batches, name, me).entry
            if entry is not None and any(e.verdict is None for e in entry.entries):
                return name
    return names[0]


def verdict_json(verdict: Verdict) -> Any:
    """A verdict as JSON: ``"relevant"``, ``"irrelevant"``, a grade, ``{"duplicate-of": ID}``
    or None."""
    if isinstance(verdict, DuplicateOf):
        return {"duplicate-of": verdict.doc}
    return verdict


def verdict_from_json(value: Any) -> Verdict:
    """The inverse of :func:`verdict_json`; :class:`ValueError` for anything else, its message
    naming the rule validate would refuse it under (LP035 not a verdict, LP042 a grade past
    :data:`labelpool.limits.GRADE_MAX`)."""
    if value is None or value in (RELEVANT, IRRELEVANT):
        return value  # type: ignore[no-any-return]
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        if value > GRADE_MAX:
            raise ValueError(
                f"LP042 grade {value} is out of bounds (a grade is at most {GRADE_MAX:,})"
            )
        return value
    if isinstance(value, dict) and set(value) == {"duplicate-of"}:
        target = value["duplicate-of"]
        if isinstance(target, str) and target:
            return DuplicateOf(target)
    raise ValueError(
        "LP035 not a verdict: use relevant, irrelevant, an integer grade >= 0 or {duplicate-of: ID}"
    )
