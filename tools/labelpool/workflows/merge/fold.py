"""``labelpool merge``, the fold: one verdict into one label's judgment lists.

A label's lists are held as sets (:class:`State`) while verdicts are folded in
(:func:`fold`); :func:`write_state` then makes the round-trip YAML say the result with minimal
edits. The rules of the fold are in :mod:`labelpool.workflows.merge.commits`'s docstring.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import labelfile, yamlfile
from labelpool.errors import StateError
from labelpool.labelfile import accepted
from labelpool.model import PERSON, DuplicateOf, JudgeVerdict, Label, Verdict, label_from_data
from labelpool.rules import classes as classes_mod
from labelpool.workflows.merge import record as record_mod


class MergeError(StateError):
    """The merge is refused; the message lists every problem (``path:line:col: ...``); exit 1."""


@dataclass(frozen=True, order=True)
class Judge:
    name: str
    email: str
    uncommitted: bool = False  # attributed to the current user: the line is not committed
    oracle: bool = False
    # (name, email) of each ``Co-authored-by:`` trailer of the verdict line's last commit,
    # de-duplicated by email and sorted; one merge commit per (author, co-authors)
    co_authors: tuple[tuple[str, str], ...] = ()
    # a commit this author wrote a verdict line in (named when the name cannot be written);
    # not part of the identity: one judge, however many commits
    commit: str = field(default="", compare=False)

    def __str__(self) -> str:
        # interned: every verdict of a judge names them, and one string serves them all
        return sys.intern(f"{self.name} <{self.email}>")

    @property
    def order(self) -> tuple[int, str, str]:
        return (2 if self.oracle else 0 if self.uncommitted else 1, self.name, self.email)


@dataclass(frozen=True, slots=True)  # many thousands at once: no __dict__ each
class Decision:
    """One verdict to fold: ``grade`` (0 irrelevant) or ``duplicate_of``; ``credit`` is the
    judge the record names (the seat's ``judge:``, else the line's author), ``kind`` its
    kind, ``adjudicator`` for a verdict of an ``adjudicate`` entry."""

    path: Path
    qid: str
    batch: str
    doc: str
    line: int
    judge: Judge
    grade: int | None = None
    duplicate_of: str | None = None
    oracle_missing: bool = False  # the oracle did not know it; treated as irrelevant
    seat: int | None = None
    credit: str | None = None  # None: ``str(judge)``
    kind: str = PERSON
    adjudicator: bool = False
    given: Verdict = None  # the verdict as the line says it (None: from ``grade``)

    @property
    def who(self) -> str:
        return self.credit if self.credit is not None else str(self.judge)

    @property
    def verdict(self) -> Verdict:
        if self.given is not None:
            return self.given
        if self.duplicate_of is not None:
            return DuplicateOf(self.duplicate_of)
        return record_mod.as_verdict(self.grade)


@dataclass
class State:
    """The judgment lists of one label, as sets, while verdicts are folded in."""

    judged: set[str]
    relevant: set[str]
    grades: dict[str, int]
    classes: list[list[str]]
    unjudged: set[str]
    where: dict[str, str]  # doc -> "path:line" of the judgment that set it (for messages)
    # where a judgment not in ``where`` is written (read only for an error message)
    locate: Callable[[str], str | None] = lambda _doc: None
    # the record of who judged (labelpool.verdicts): the file's judge and the listed verdicts
    judge: str | None = None
    judge_kind: str = PERSON
    record: dict[str, tuple[JudgeVerdict, ...]] = field(default_factory=dict)
    proposed: frozenset[str] = frozenset()  # the members of proposals waiting for review

    def at(self, doc: str) -> str:
        """``path:line:col`` of the judgment of ``doc`` (for messages)."""
        return self.where.get(doc) or self.locate(doc) or "an earlier judgment"

    def class_index(self, doc: str) -> int | None:
        if not self.classes:  # most labels: no class
            return None
        return next((i for i, c in enumerate(self.classes) if doc in c), None)

    def gain(self, doc: str) -> int | None:
        """Grade of ``doc`` (0 irrelevant), None when not judged."""
        ci = self.class_index(doc)
        if ci is not None:
            cls = self.classes[ci]
            return max((self.grades.get(d, 1) for d in cls if d in self.relevant), default=0)
        if doc in self.relevant:
            return self.grades.get(doc, 1)
        if doc in self.judged:
            return 0
        return None


Supersedes = Callable[[str, str], bool]


def state_of(data: Any, path: Path, text: str | None = None, label: Label | None = None) -> State:
    """The lists of ``data``, a round-trip tree, or plain data read from ``text`` (whose
    positions are then found only when a message needs one); ``label``: the label of
    ``data`` when the reading built it already."""
    if label is None:
        label = label_from_data(data)
    if not isinstance(data, yamlfile.CommentedMap):
        assert text is not None
        return _state(label, {}, _locator(text, path))
    return _state(label, _positions(data, label, path), lambda _doc: None)


def _locator(text: str, path: Path) -> Callable[[str], str | None]:
    def locate(doc: str) -> str | None:
        tree = yamlfile.loads_roundtrip(text, path)
        return _positions(tree, label_from_data(tree), path).get(doc)

    return locate


def _positions(data: Any, label: Label, path: Path) -> dict[str, str]:
    where: dict[str, str] = {}
    for i, d in enumerate(label.judged_ids):
        line, col = yamlfile.node_position(data, ("judged_ids", i))
        where.setdefault(d, f"{path}:{line}:{col}")
    for entry in classes_mod.entries(data.get("relevant_classes")):
        if entry.proposed:
            continue
        for mi, d in enumerate(entry.members):
            line, col = yamlfile.node_position(data, (*entry.path, mi))
            where.setdefault(str(d), f"{path}:{line}:{col}")
    return where


def _state(label: Label, where: dict[str, str], locate: Callable[[str], str | None]) -> State:
    return State(
        judged=set(label.judged_ids),
        relevant=set(label.relevant_doc_ids),
        grades=dict(label.grades),
        classes=[list(c) for c in label.relevant_classes],
        unjudged=set(label.pooled_unjudged_ids),
        where=where,
        locate=locate,
        judge=label.judge,
        judge_kind=label.judge_kind,
        record=dict(label.verdicts),
        proposed=frozenset(d for p in label.proposed_classes for d in p.members),
    )


def _describe(grade: int | None) -> str:
    if grade is None:
        return "not judged"
    return "judged irrelevant" if grade == 0 else f"judged relevant (grade {grade})"


def fold(state: State, d: Decision, supersedes: Supersedes | None) -> tuple[str, str | None]:
    """Fold ``d`` into ``state``: ``("done", None)``, ``("same", None)`` (already so),
    ``("pending", reason)`` (stays pending) or ``("error", message)``."""
    here = f"{d.path}:{d.line}:1"
    current = state.gain(d.doc)
    if current is not None or d.adjudicator or d.doc in state.record:
        return record_mod.fold_again(state, d, here, current)
    outcome = _fold_first(state, d, here, current, supersedes)
    if outcome[0] == "done":
        record_mod.credit_first(state, d)
    return outcome


def _fold_first(
    state: State, d: Decision, here: str, current: int | None, supersedes: Supersedes | None
) -> tuple[str, str | None]:
    """A first verdict on ``d.doc``: into the lists (today's fold)."""
    if d.duplicate_of is None:
        assert d.grade is not None
        if current is not None:
            if current == d.grade:
                return "same", None
            return "error", (
                f"{here}: verdict {d.grade if d.grade else 'irrelevant'} for {d.doc} "
                f"contradicts {state.at(d.doc)}: {d.doc} is "
                f"{_describe(current)}"
            )
        state.judged.add(d.doc)
        state.unjudged.discard(d.doc)
        state.where[d.doc] = here
        if d.grade > 0:
            state.relevant.add(d.doc)
            if d.grade != 1:
                state.grades[d.doc] = d.grade
        return "done", None
    target = d.duplicate_of
    if target == d.doc:
        return "error", f"{here}: {d.doc} is marked a duplicate of itself"
    tgain = state.gain(target)
    if tgain is None or tgain == 0:
        return "pending", f"duplicate-of {target}: {target} is {_describe(tgain)}, not relevant"
    ti = state.class_index(target)
    cls = state.classes[ti] if ti is not None else [target]
    if d.doc in cls:
        return "same", None
    waiting = [x for x in (d.doc, target) if x in state.proposed]
    if waiting:  # a document sits in one class, accepted or proposed (LP030)
        return "pending", (
            f"duplicate-of {target}: {waiting[0]} is in a proposed class; accept or reject "
            "the proposal first"
        )
    if current == 0:
        return "error", (
            f"{here}: duplicate-of {target} for {d.doc} contradicts "
            f"{state.at(d.doc)}: {d.doc} is judged irrelevant"
        )
    di = state.class_index(d.doc)
    if di is not None:
        return "error", (
            f"{here}: {d.doc} is already in another class (with {', '.join(state.classes[di])}); "
            "a document belongs to one class"
        )
    if supersedes is not None:
        for m in cls:
            if supersedes(d.doc, m) or supersedes(m, d.doc):
                newer, older = (d.doc, m) if supersedes(d.doc, m) else (m, d.doc)
                return "error", (
                    f"{here}: {d.doc} cannot join the class of {target}: {newer} supersedes "
                    f"{older}, and a class must not mix versions"
                )
    state.judged.add(d.doc)
    state.unjudged.discard(d.doc)
    state.where[d.doc] = here
    # a class or a list of classes written out of order by hand stays so: the new member or
    # class is appended (ordering is `labelpool fmt`'s job)
    ordered = all(a[0] <= b[0] for a, b in itertools.pairwise(state.classes) if a and b)
    if ti is None:
        state.classes.append(sorted([target, d.doc]))
    else:
        state.classes[ti] = sorted([*cls, d.doc]) if cls == sorted(cls) else [*cls, d.doc]
    if ordered:
        state.classes.sort(key=lambda c: c[0])
    return "done", None


def write_state(data: Any, before: State, after: State) -> None:
    """Make the round-trip label ``data`` say ``after`` (minimal edits: insertions in place),
    its record of judges too (:mod:`labelpool.labelfile.record`)."""
    record_mod.write_record(data, before, after)
    for d in sorted(after.judged - before.judged):
        labelfile.add_to_sorted_list(data, "judged_ids", d)
    for d in sorted(after.relevant - before.relevant):
        labelfile.add_to_sorted_list(data, "relevant_doc_ids", d)
    for d, g in sorted(after.grades.items()):
        if before.grades.get(d) != g:
            labelfile.set_mapping_item(data, "grades", d, g)
    for d in sorted(before.unjudged - after.unjudged):
        labelfile.remove_from_list(data, "pooled_unjudged_ids", d)
    if after.classes != before.classes:
        if any(not isinstance(c, list) for c in data.get("relevant_classes") or ()):
            # the mapping form (a proposal, or a class accepted by deleting its line) stays
            accepted.write_classes(data, before.classes, after.classes)
            return
        text = "relevant_classes:\n" + "".join(
            "  - - " + "\n    - ".join(batch_mod.quote(m) for m in cls) + "\n"
            for cls in after.classes
        )
        seq = yamlfile.loads_roundtrip(text)["relevant_classes"]
        if "relevant_classes" in data:
            data["relevant_classes"] = seq
        else:
            at = labelfile.canonical_index(data, "relevant_classes")
            data.insert(at, "relevant_classes", seq)
