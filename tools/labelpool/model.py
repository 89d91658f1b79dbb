"""Frozen dataclasses for a label, its pool provenance and its pending judging batches.

A :class:`Label` is built from the plain data of one schema-valid label file
(:func:`label_from_data`); everything a scorer needs is derived from it here, once:

* ``judged``: what a person looked at: ``judged_ids`` plus every member of a relevance class;
* ``gain``: the grade of every judged document (0 = judged irrelevant); a class member has the
  class's grade, the highest of its relevant members' grades, 0 for a class of judged-irrelevant
  documents (LP029: an accepted class holds a judged document);
* ``proposed_classes``: classes a tool proposed that nobody accepted yet (the mapping form with
  ``proposed``; with ``extends``, new members for an accepted class): read, listed, never
  scored; an accepted extension (its ``proposed`` deleted) is read as part of its class;
* ``class_of``: the relevance target a relevant document belongs to (a class index, or the
  document itself), so that a class is retrieved once;
* ``unjudged_marked``: documents that were pooled but not judged, or that wait in a pending batch.

:func:`qrels_rows` gives a label set as the TREC qrels rows ``labelpool export trec`` writes
and the trec_eval-compatible scorer reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, TypeAlias

RELEVANT: Literal["relevant"] = "relevant"
IRRELEVANT: Literal["irrelevant"] = "irrelevant"

KNOWN_KEYS = (
    "id",
    "question",
    "judge",
    "judge_kind",
    "relevant_doc_ids",
    "judged_ids",
    "grades",
    "verdicts",
    "relevant_classes",
    "pooled_unjudged_ids",
    "pool",
    "pending",
)
UNKNOWN_SYSTEM = "unknown"


@dataclass(frozen=True)
class DuplicateOf:
    """Verdict ``{duplicate-of: ID}``: the document joins ID's relevance class."""

    doc: str


Verdict: TypeAlias = Literal["relevant", "irrelevant"] | int | DuplicateOf | None
QrelsRow: TypeAlias = tuple[str, str, int]  # (question id, document id, grade)


@dataclass(frozen=True)
class ProposedClass:
    """A class entry waiting for review: ``{members: [...], proposed: {method, score}}``, or
    an extension of an accepted class (``extends``: a member of it), whose members join that
    class once accepted."""

    members: tuple[str, ...]
    method: str
    score: float
    extends: str | None = None


def class_item(item: Any) -> tuple[list[Any], Mapping[str, Any] | None]:
    """(members, proposal) of one item of ``relevant_classes`` in plain data, in either form:
    a list is its own members; a mapping holds ``members`` and, while pending, ``proposed``
    (None once accepted, and for anything else)."""
    if isinstance(item, list):
        return item, None
    if isinstance(item, Mapping):
        members = item.get("members")
        proposed = item.get("proposed")
        return (
            members if isinstance(members, list) else [],
            proposed if isinstance(proposed, Mapping) else None,
        )
    return [], None


def class_extends(item: Any) -> Any:
    """The ``extends`` of one item of ``relevant_classes`` (plain data): the member of an
    accepted class that the item's members join; None for a class of its own."""
    if isinstance(item, Mapping):
        return item.get("extends")
    return None


def fold_accepted(raw: Any) -> list[list[Any]]:
    """The members of every accepted class of a ``relevant_classes`` value (plain data), in
    file order, each accepted extension's members folded into the class holding the member
    it ``extends`` (one that names no member of an accepted class joins nothing: LP064)."""
    classes: list[list[Any]] = []
    extensions: list[tuple[Any, list[Any]]] = []
    for item in raw if isinstance(raw, list) else ():
        members, proposal = class_item(item)
        if proposal is not None:
            continue
        target = class_extends(item)
        if target is None:
            classes.append(list(members))
        else:
            extensions.append((target, members))
    for target, members in extensions:
        home = next((c for c in classes if target in c), None)
        if home is not None:
            home.extend(m for m in members if m not in home)
    return classes


def split_classes(
    raw: Any,
) -> tuple[tuple[tuple[str, ...], ...], tuple[ProposedClass, ...]]:
    """The accepted classes (accepted extensions folded in: :func:`fold_accepted`) and the
    proposals of a ``relevant_classes`` value (plain data)."""
    accepted = tuple(_strs(c) for c in fold_accepted(raw))
    proposed: list[ProposedClass] = []
    for item in raw if isinstance(raw, list) else ():
        members, proposal = class_item(item)
        if proposal is not None:
            score = proposal.get("score")
            target = class_extends(item)
            proposed.append(
                ProposedClass(
                    members=_strs(members),
                    method=str(proposal.get("method", "")),
                    score=float(score) if isinstance(score, int | float) else 0.0,
                    extends=None if target is None else str(target),
                )
            )
    return accepted, tuple(proposed)


@dataclass(frozen=True)
class PoolEntry:
    """One system whose top ``k`` was put fully in front of a judge on ``date``."""

    system: str
    k: int | None
    date: str | None
    run: str | None = None  # git blob id of the pooled run file

    @property
    def unknown(self) -> bool:
        return self.system == UNKNOWN_SYSTEM or self.k is None


@dataclass(frozen=True)
class PendingDoc:
    doc: str
    verdict: Verdict = None


@dataclass(frozen=True)
class BatchHead:
    """What names a judging batch: its id, the systems pooled, the depth, the date. The one
    definition behind a batch read from a label (:class:`Batch`), a batch being written
    (``batch.NewBatch``) and a pool plan (``workflows.pool.PoolPlan``)."""

    batch: str  # ``2026-12-02-bm25+dense@20``
    systems: tuple[str, ...]
    depth: int
    date: str


@dataclass(frozen=True)
class Batch(BatchHead):
    """A judging batch written by ``labelpool pool`` and folded in by ``labelpool merge``."""

    docs: tuple[PendingDoc, ...]
    seat: int | None = None  # 1..N for a batch made for N > 1 judges (``pool --judges N``)
    judge: str | None = None  # the seat's judge: assigned (``--assign``) or claimed
    task: str | None = None  # ``second-opinion`` or ``adjudicate``; None: judge the pool


PERSON = "person"
MACHINE = "machine"
# a ``verdicts`` line a class carried: ``{class: MEMBER, verdict: V}`` (the member judged)
CARRIED_KEY = "class"
KINDS = (PERSON, MACHINE)


@dataclass(frozen=True, slots=True)  # many thousands at once: no __dict__ each
class JudgeVerdict:
    """One judge's verdict on one document: ``judge`` is ``Name <email>`` for a person (as git
    names an author) or a machine judge's name; ``judge`` is None for a document judged before
    labelpool recorded judges (``git blame`` names them; ``labelpool fmt --upgrade`` writes
    them down)."""

    judge: str | None
    verdict: Verdict
    kind: str = PERSON
    adjudicator: bool = False


def record_from_data(data: Mapping[str, Any]) -> dict[str, tuple[JudgeVerdict, ...]]:
    """The ``verdicts`` mapping of a schema-valid label file's plain data."""
    out: dict[str, tuple[JudgeVerdict, ...]] = {}
    raw = data.get("verdicts")
    if not isinstance(raw, Mapping):
        return out
    for doc, entries in raw.items():
        items: list[JudgeVerdict] = []
        for e in entries or ():
            if not isinstance(e, Mapping) or CARRIED_KEY in e:  # a class's, not a judge's
                continue
            adjudicator = "adjudicator" in e and "judge" not in e
            who = e.get("adjudicator") if adjudicator else e.get("judge")
            try:
                verdict = _verdict(e.get("verdict"))
            except ValueError:
                verdict = None
            items.append(
                JudgeVerdict(
                    judge=None if who is None else str(who),
                    verdict=verdict,
                    kind=str(e.get("kind", PERSON)),
                    adjudicator=adjudicator,
                )
            )
        if items or not any(isinstance(e, Mapping) and CARRIED_KEY in e for e in entries or ()):
            out[str(doc)] = tuple(items)
    return out


def carried_from_data(data: Mapping[str, Any]) -> dict[str, tuple[str, Verdict]]:
    """The verdicts classes carried, as ``merge`` recorded them: each document's line
    ``{class: MEMBER, verdict: V}`` of ``verdicts`` (the first, LP063 allows one) as
    (member, verdict). Never a judge's verdict: :func:`record_from_data` leaves them out."""
    out: dict[str, tuple[str, Verdict]] = {}
    raw = data.get("verdicts")
    if not isinstance(raw, Mapping):
        return out
    for doc, entries in raw.items():
        for e in entries if isinstance(entries, list) else ():
            if isinstance(e, Mapping) and CARRIED_KEY in e and str(doc) not in out:
                try:
                    verdict = _verdict(e.get("verdict"))
                except ValueError:
                    verdict = None
                out[str(doc)] = (str(e[CARRIED_KEY]), verdict)
    return out


@dataclass(frozen=True)
class Label:
    id: str
    question: str
    relevant_doc_ids: tuple[str, ...] = ()
    judged_ids: tuple[str, ...] = ()
    grades: Mapping[str, int] = field(default_factory=dict)
    relevant_classes: tuple[tuple[str, ...], ...] = ()  # accepted classes, either form
    pooled_unjudged_ids: tuple[str, ...] = ()
    pool: tuple[PoolEntry, ...] = ()
    pending: tuple[Batch, ...] = ()
    extra_keys: tuple[str, ...] = ()
    # who judged (labelpool.verdicts): the file's judge, and per document where it differs
    judge: str | None = None
    judge_kind: str = "person"
    verdicts: Mapping[str, tuple[JudgeVerdict, ...]] = field(default_factory=dict)
    proposed_classes: tuple[ProposedClass, ...] = ()  # pending: never scored
    # doc -> (member, verdict): the verdicts classes carried, as merge recorded them
    # (``{class: MEMBER, verdict: V}`` lines); provenance only, never scored
    class_verdicts: Mapping[str, tuple[str, Verdict]] = field(default_factory=dict)

    @cached_property
    def class_members(self) -> frozenset[str]:
        return frozenset(d for cls in self.relevant_classes for d in cls)

    @cached_property
    def judged(self) -> frozenset[str]:
        """Documents with a judgment: ``judged_ids`` and every class member."""
        return frozenset(self.judged_ids) | self.class_members

    @cached_property
    def pending_ids(self) -> frozenset[str]:
        return frozenset(d.doc for b in self.pending for d in b.docs)

    @cached_property
    def unjudged_marked(self) -> frozenset[str]:
        """Pooled but never judged, or waiting in a batch: unjudged whatever else is said."""
        return frozenset(self.pooled_unjudged_ids) | self.pending_ids

    @cached_property
    def gain(self) -> Mapping[str, int]:
        """Grade of every judged document: 0 irrelevant, >= 1 relevant (classes share one)."""
        relevant = set(self.relevant_doc_ids)
        out: dict[str, int] = {d: 0 for d in self.judged_ids}
        for d in relevant:
            out[d] = int(self.grades.get(d, 1))
        for cls in self.relevant_classes:
            # no relevant member: a class of judged-irrelevant documents (LP029), grade 0
            grade = max((int(self.grades.get(d, 1)) for d in cls if d in relevant), default=0)
            for d in cls:
                out[d] = grade
        return out

    @cached_property
    def class_of(self) -> Mapping[str, str]:
        """Relevance target of each relevant document: ``#class<i>`` for a class member."""
        out: dict[str, str] = {}
        for i, cls in enumerate(self.relevant_classes):
            for d in cls:
                out[d] = f"#class{i}"
        for d, g in self.gain.items():
            if g > 0 and d not in out:
                out[d] = d
        return out

    @cached_property
    def carried(self) -> Mapping[str, str]:
        """Each class member not judged itself -> the judged member whose verdict the class
        carries to it (the highest grade, then the first id): what ``pool`` need not ask.
        Scoring gives each the class's grade already; ``merge`` records it as a
        ``{class: MEMBER, verdict: V}`` line (:attr:`class_verdicts`)."""
        judged = frozenset(self.judged_ids)
        out: dict[str, str] = {}
        for cls in self.relevant_classes:
            sources = sorted((-self.gain.get(d, 0), d) for d in cls if d in judged)
            if sources:
                out.update((d, sources[0][1]) for d in cls if d not in judged)
        return out

    @property
    def is_judged(self) -> bool:
        """False for a question nobody has judged yet (left out of every average). A label
        with a record of judges is judged, also when scoring left every document of it
        unjudged (its open disputes under ``disputes = "bounds"``)."""
        return bool(self.judged) or bool(self.verdicts)

    def verdict_of(self, doc: str) -> int | None:
        """Grade of ``doc`` (0 irrelevant), or None when it has no judgment."""
        if doc in self.unjudged_marked and doc not in self.judged:
            return None
        return self.gain.get(doc)


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(map(str, value or ()))


def _verdict(value: Any) -> Verdict:
    if value is None:
        return None
    if value == RELEVANT:
        return RELEVANT
    if value == IRRELEVANT:
        return IRRELEVANT
    if isinstance(value, bool):
        raise ValueError(f"verdict {value!r} is not relevant, irrelevant, a grade or duplicate-of")
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping) and set(value) == {"duplicate-of"}:
        return DuplicateOf(str(value["duplicate-of"]))
    raise ValueError(f"verdict {value!r} is not relevant, irrelevant, a grade or duplicate-of")


def label_from_data(data: Mapping[str, Any], *, provenance: bool = True) -> Label:
    """Build a :class:`Label` from the plain data of one schema-valid label file.

    ``provenance`` False: without the record of judges (``verdicts``, ``class_verdicts``
    left empty), for a reader that compares what the label says, never who said it
    (``diff``); such a label is never scored (its :attr:`Label.is_judged` ignores the record).
    """
    pool = tuple(
        PoolEntry(
            system=str(p["system"]),
            k=None if p.get("k") is None else int(p["k"]),
            date=None if p.get("date") is None else str(p["date"]),
            run=None if p.get("run") is None else str(p["run"]),
        )
        for p in data.get("pool") or ()
    )
    pending = tuple(
        Batch(
            batch=str(b["batch"]),
            systems=_strs(b.get("systems")),
            depth=int(b["depth"]),
            date=str(b["date"]),
            docs=tuple(
                PendingDoc(doc=str(d["doc"]), verdict=_verdict(d.get("verdict")))
                for d in b.get("docs") or ()
            ),
            seat=b["seat"] if isinstance(b.get("seat"), int) else None,
            judge=None if b.get("judge") is None else str(b["judge"]),
            task=None if b.get("task") is None else str(b["task"]),
        )
        for b in data.get("pending") or ()
    )
    classes, proposed = split_classes(data.get("relevant_classes"))
    return Label(
        id=str(data["id"]),
        question=str(data.get("question", "")),
        relevant_doc_ids=_strs(data.get("relevant_doc_ids")),
        judged_ids=_strs(data.get("judged_ids")),
        grades={str(k): int(v) for k, v in (data.get("grades") or {}).items()},
        relevant_classes=classes,
        proposed_classes=proposed,
        pooled_unjudged_ids=_strs(data.get("pooled_unjudged_ids")),
        pool=pool,
        pending=pending,
        extra_keys=tuple(k for k in data if k not in KNOWN_KEYS),
        judge=None if data.get("judge") is None else str(data["judge"]),
        judge_kind=str(data.get("judge_kind", PERSON)),
        verdicts=record_from_data(data) if provenance else {},
        class_verdicts=carried_from_data(data) if provenance else {},
    )


_ID_LISTS = ("relevant_doc_ids", "judged_ids", "pooled_unjudged_ids")


def non_string_id(data: dict[str, Any]) -> bool:
    """Whether a question or document id of ``data`` is not a string (an unquoted ``15`` or
    ``~`` reads as an int or null in every reader; validate refuses it, LP021): no reader
    turns it into the string ``"15"`` or ``"None"``."""
    ids: list[Any] = [data.get("id")]
    for key in _ID_LISTS:
        value = data.get(key)
        ids.extend(value if isinstance(value, list) else ())
    for cls in data.get("relevant_classes") or ():
        ids.extend(class_item(cls)[0])
    pending = data.get("pending")
    for batch in pending if isinstance(pending, list) else ():
        docs = batch.get("docs") if isinstance(batch, dict) else None
        for entry in docs if isinstance(docs, list) else ():
            if isinstance(entry, dict):
                ids.append(entry.get("doc"))
                verdict = entry.get("verdict")
                if isinstance(verdict, dict) and "duplicate-of" in verdict:
                    ids.append(verdict["duplicate-of"])
    return any(type(i) is not str for i in ids)


def qrels_rows(labels: Mapping[str, Label]) -> list[QrelsRow]:
    """(question, document, grade) for every judged document (its :attr:`Label.gain`) and
    every pooled-unjudged one (-1, trec_eval's "pooled, not judged"), sorted by question id,
    then document id: the rows ``labelpool export trec`` writes and ``--measure trec:...``
    scores against (:mod:`labelpool.scoring.trec_eval.lists`)."""
    rows: list[QrelsRow] = []
    for qid, label in labels.items():
        gain = label.gain
        rows.extend((qid, doc, grade) for doc, grade in gain.items())
        rows.extend((qid, doc, -1) for doc in set(label.pooled_unjudged_ids) if doc not in gain)
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows
