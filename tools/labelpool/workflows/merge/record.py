"""``labelpool merge``, the record of who judged: each folded verdict credited to its judge.

A first verdict on a document (:func:`credit_first`) is credited in the file's record
(docs/judging.md#the-record): by nothing when its judge is the file's ``judge``; by setting
``judge:`` when the file names none and nothing else in it is judged; else by a one-line
``verdicts`` entry. A verdict on a document judged already, or an adjudicator's
(:func:`fold_again`): by the same judge, the same verdict is nothing new and another is an
error naming both lines; by another judge, both verdicts go into the document's
``verdicts`` (the first one's judge from the record, or the file's ``judge``), and the lists
say the verdict that counts (an adjudicator's; for an open dispute the lowest:
:func:`labelpool.verdicts.decided_grade`). A disagreement is a new dispute, which ``merge``
lists. :func:`write_record` writes the record with :mod:`labelpool.labelfile.record`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from labelpool import labelfile, verdicts
from labelpool.labelfile import record as record_file
from labelpool.model import PERSON, DuplicateOf, JudgeVerdict, Verdict

if TYPE_CHECKING:
    from labelpool.workflows.merge.fold import Decision, State


def as_verdict(grade: int | None) -> Verdict:
    """A grade as a pending line would say it: ``irrelevant``, ``relevant``, or the grade."""
    if grade is None or grade > 1:
        return grade
    return "relevant" if grade == 1 else "irrelevant"


__all__ = ["credit_first", "disputes", "fold_again", "write_record"]


# one record entry (and its one-entry tuple) per distinct verdict of a judge, shared by every
# document that has it: a merge of 10,000 files folds about 160,000 verdicts of a few kinds
_SHARED: dict[tuple[Any, ...], tuple[JudgeVerdict]] = {}
_SHARED_MAX = 4096


def _one(d: Decision) -> tuple[JudgeVerdict]:
    """``(JudgeVerdict,)`` of ``d``, the same objects for equal entries."""
    v = d.verdict
    key = (d.who, type(v), v, d.kind, d.adjudicator)
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        found = _SHARED[key] = (JudgeVerdict(d.who, v, d.kind, d.adjudicator),)
    return found


def _jv(d: Decision) -> JudgeVerdict:
    return _one(d)[0]


def _judged_elsewhere(state: State, doc: str) -> bool:
    return any(x != doc for x in state.judged) or any(
        m != doc for cls in state.classes for m in cls
    )


def credit_first(state: State, d: Decision) -> None:
    """Credit ``d``, a first verdict on its document, folded into the lists already."""
    one = _one(d)
    jv = one[0]
    if state.judge == jv.judge and state.judge_kind == jv.kind:
        return
    if state.judge is None and not state.record and not _judged_elsewhere(state, d.doc):
        state.judge, state.judge_kind = jv.judge, jv.kind
        return
    state.record[d.doc] = one


def _grade(state: State, verdict: Verdict) -> int | None:
    return verdicts.verdict_grade(verdict, state.gain)


def _existing(state: State, doc: str, current: int | None) -> tuple[JudgeVerdict, ...]:
    listed = state.record.get(doc)
    if listed:
        return listed
    if current is None:
        return ()
    return (JudgeVerdict(state.judge, as_verdict(current), state.judge_kind),)


def fold_again(state: State, d: Decision, here: str, current: int | None) -> tuple[str, str | None]:
    """Fold ``d`` on a document with a verdict already (or an adjudicator's): see the
    module doc; ``("done" | "same" | "error", message)``."""
    jv = _jv(d)
    grade = _grade(state, jv.verdict)
    existing = _existing(state, d.doc, current)
    if not existing and d.adjudicator:
        return "error", f"{here}: {d.doc} has no verdict to adjudicate"
    mine = [e for e in existing if e.judge == jv.judge and e.adjudicator == jv.adjudicator]
    unknown = any(e.judge is None for e in existing)
    if mine or (unknown and not d.adjudicator):
        if (mine and _grade(state, mine[0].verdict) == grade) or (not mine and current == grade):
            return "same", None
        hint = (
            " (its first verdict names no judge: `labelpool fmt --upgrade` records who gave it)"
            if not mine
            else f" by the same judge {jv.judge}"
        )
        return "error", (
            f"{here}: verdict {_said(jv.verdict)} for {d.doc} contradicts {state.at(d.doc)}: "
            f"{d.doc} is {_described(current)}{hint}"
        )
    judges_ = [e for e in existing if not e.adjudicator]
    adjudicated = [e for e in existing if e.adjudicator]
    new = (*judges_, jv, *adjudicated) if not jv.adjudicator else (*existing, jv)
    state.record[d.doc] = tuple(new)
    _set(state, d.doc, _counting_grade(state, new))
    state.where[d.doc] = here
    return "done", None


def _counting_grade(state: State, entries: tuple[JudgeVerdict, ...]) -> int:
    grades = [_grade(state, e.verdict) for e in verdicts.counting(entries)]
    found = [g for g in grades if g is not None]
    return min(found) if found else 0  # an open dispute: its lowest verdict


def _set(state: State, doc: str, grade: int) -> None:
    """The lists say ``grade`` for ``doc`` (0: judged irrelevant)."""
    state.judged.add(doc)
    state.unjudged.discard(doc)
    if grade == 0:
        state.relevant.discard(doc)
        state.grades.pop(doc, None)
        for i, cls in enumerate(state.classes):
            if doc in cls:
                state.classes[i] = [m for m in cls if m != doc]
        state.classes[:] = [c for c in state.classes if len(c) > 1]
        return
    if state.class_index(doc) is None:
        state.relevant.add(doc)
    if grade == 1:
        state.grades.pop(doc, None)
    else:
        state.grades[doc] = grade


def _said(verdict: Verdict) -> str:
    if isinstance(verdict, DuplicateOf):
        return f"duplicate-of {verdict.doc}"
    grade = 1 if verdict == "relevant" else 0 if verdict == "irrelevant" else verdict
    return "irrelevant" if grade == 0 else str(grade)


def _described(grade: int | None) -> str:
    if grade is None:
        return "not judged"
    return "judged irrelevant" if grade == 0 else f"judged relevant (grade {grade})"


def disputes(before: State, after: State) -> list[str]:
    """Documents whose counting verdicts disagree in ``after`` and did not in ``before``."""
    out = []
    for doc, entries in after.record.items():
        if (
            len(entries) > 1
            and _open(after, entries)
            and not _open(before, before.record.get(doc, ()))
        ):
            out.append(doc)
    return sorted(out)


def _open(state: State, entries: tuple[JudgeVerdict, ...]) -> bool:
    grades = {_grade(state, e.verdict) for e in verdicts.counting(entries)}
    return len(grades - {None}) > 1


def write_record(data: Any, before: State, after: State) -> None:
    """Make the round-trip label ``data`` hold ``after``'s record (and the lists' removals a
    dispute made: a document no longer relevant, a grade gone)."""
    if (after.judge, after.judge_kind) != (before.judge, before.judge_kind):
        record_file.set_file_judge(data, after.judge, after.judge_kind or PERSON)
    for doc in sorted(after.record):
        if after.record[doc] != before.record.get(doc):
            record_file.set_verdicts(data, doc, list(after.record[doc]))
    for doc in sorted(before.relevant - after.relevant):
        labelfile.remove_from_list(data, "relevant_doc_ids", doc)
    for doc in sorted(set(before.grades) - set(after.grades)):
        labelfile.remove_mapping_item(data, "grades", doc)
