"""LP043-LP047, LP063: the record of who judged (``judge``, ``judge_kind``, ``verdicts``).

* LP043: a judge gives at most one verdict per document, and a document has at most one
  adjudicator line;
* LP044: ``verdicts`` lists only judged documents (``judged_ids`` or a relevance class);
* LP045: a kind is ``person`` or ``machine``; a person is ``Name <email>`` (as git names an
  author); an adjudicator is a person;
* LP046: ``relevant_doc_ids`` and ``grades`` say the verdict that counts (for an open dispute
  its lowest): the relevance, and the grade where either is 2 or more;
* LP047 (warning): an open dispute (the judges who count disagree, no adjudicator);
* LP063: a line a class carried (``{class: MEMBER, verdict: V}``, written by ``merge``) names
  another member of an accepted class that holds the document, says that class's grade, and
  is the document's only such line.

Run on schema-valid data only; a file without ``judge``, ``judge_kind`` and ``verdicts``
costs one look at three keys. :func:`problems` is the data half, also asked by the writers'
check (:mod:`labelpool.rules.written`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from labelpool import verdicts
from labelpool.findings import Finding, Severity
from labelpool.model import CARRIED_KEY, KINDS, MACHINE, PERSON, Label, _verdict, label_from_data
from labelpool.rules.view import KeyPath, View
from labelpool.verdicts import is_person

RECORD_KEYS = ("judge", "judge_kind", "verdicts")


@dataclass(frozen=True)
class Problem:
    """One finding on plain data: where (``key``: at the mapping key), which rule, what."""

    keypath: KeyPath
    rule: str
    message: str
    severity: Severity = "error"
    key: bool = False


def has_record(data: Any) -> bool:
    return isinstance(data, Mapping) and any(k in data for k in RECORD_KEYS)


def problems(data: Any) -> Iterator[Problem]:
    """Every LP043-LP047 problem of schema-valid label ``data``, in file order."""
    if not has_record(data):
        return
    yield from _file_judge(data)
    raw = data.get("verdicts")
    if not isinstance(raw, Mapping) or not raw:
        return
    label = label_from_data(data)
    for doc, entries in raw.items():
        where = ("verdicts", doc)
        yield from _lines(str(doc), entries)
        carried = list(_carried_lines(label, str(doc), entries))
        yield from carried
        if carried and str(doc) not in label.verdicts:
            continue  # only lines a class carried: LP063 says what is wrong with them
        if str(doc) not in label.judged:
            yield Problem(
                where,
                "LP044",
                f"verdicts.{doc}: {doc} is not judged (add it to `judged_ids`, or remove "
                "its verdicts)",
                key=True,
            )
            continue
        yield from _counts(label, str(doc))


def _file_judge(data: Mapping[str, Any]) -> Iterator[Problem]:
    kind = data.get("judge_kind", PERSON)
    if kind not in KINDS:
        yield Problem(
            ("judge_kind",),
            "LP045",
            f"judge_kind: {kind!r} is not a kind of judge: `person` (the default) or `machine`",
        )
        return
    judge = data.get("judge")
    if kind == PERSON and isinstance(judge, str) and not is_person(judge):
        yield Problem(("judge",), "LP045", _not_person("judge", judge))


def _not_person(where: str, who: str) -> str:
    return (
        f"{where}: {who!r} is not a person's `Name <email>` (as git names an author); "
        "a machine judge has `kind: machine`"
    )


def _carried_lines(label: Label, doc: str, entries: Any) -> Iterator[Problem]:
    """LP063 on the lines of ``doc`` a class carried (see the module doc)."""
    seen = False
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, Mapping) or CARRIED_KEY not in entry:
            continue
        at = ("verdicts", doc, i)
        member = str(entry[CARRIED_KEY])
        if seen:
            yield Problem(at, "LP063", f"verdicts.{doc}[{i}]: a second line a class carried")
            continue
        seen = True
        home = next((c for c in label.relevant_classes if doc in c), None)
        if member == doc or home is None or member not in home:
            yield Problem(
                at,
                "LP063",
                f"verdicts.{doc}[{i}]: carried from {member}, but no accepted class holds "
                f"{doc} and {member} (the class was changed or rejected: delete the line)",
            )
            continue
        try:
            grade = verdicts.verdict_grade(_verdict(entry.get("verdict")), label.gain.get)
        except ValueError:
            grade = None
        want = label.gain.get(doc, 0)
        if isinstance(entry.get("verdict"), Mapping) or grade != want:
            yield Problem(
                (*at, "verdict"),
                "LP063",
                f"verdicts.{doc}[{i}]: the class carried {_grade_text(grade or 0)} from "
                f"{member}, but its grade is {_grade_text(want)} now (write "
                f"`verdict: {as_verdict(want)}`)",
            )


def as_verdict(grade: int) -> str:
    """A grade as a verdict line says it: ``irrelevant``, ``relevant``, or the grade."""
    return "irrelevant" if grade == 0 else "relevant" if grade == 1 else str(grade)


def _lines(doc: str, entries: Any) -> Iterator[Problem]:
    seen: set[str] = set()
    adjudicated = False
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, Mapping) or CARRIED_KEY in entry:
            continue
        at = ("verdicts", doc, i)
        if "adjudicator" in entry and "judge" not in entry:
            who = str(entry["adjudicator"])
            if adjudicated:
                yield Problem(at, "LP043", f"verdicts.{doc}[{i}]: a second adjudicator line")
            adjudicated = True
            if not is_person(who):
                yield Problem(
                    (*at, "adjudicator"), "LP045", _not_person(f"verdicts.{doc}[{i}]", who)
                )
            continue
        who = str(entry.get("judge"))
        kind = entry.get("kind", PERSON)
        if kind not in KINDS:
            yield Problem(
                (*at, "kind"),
                "LP045",
                f"verdicts.{doc}[{i}]: kind {kind!r} is not `person` or `machine`",
            )
        elif kind == PERSON and not is_person(who):
            yield Problem((*at, "judge"), "LP045", _not_person(f"verdicts.{doc}[{i}]", who))
        if who in seen:
            yield Problem(
                at,
                "LP043",
                f"verdicts.{doc}[{i}]: {who} gives a second verdict on {doc} "
                "(one verdict per judge and document)",
            )
        seen.add(who)


def _said(label: Label, doc: str) -> int:
    """The grade ``relevant_doc_ids`` and ``grades`` say for ``doc``."""
    if doc in label.class_members:
        return label.gain.get(doc, 1)
    if doc not in label.relevant_doc_ids:
        return 0
    return label.grades.get(doc, 1)


def _counts(label: Label, doc: str) -> Iterator[Problem]:
    decided = verdicts.decided_grade(label, doc, "min")
    if decided is None:
        return
    said = _said(label, doc)
    open_dispute = verdicts.is_disputed(label, doc)
    mismatch = (said > 0) != (decided > 0)
    if doc not in label.class_members and (said >= 2 or decided >= 2):
        mismatch = mismatch or said != decided
    if mismatch:
        which = " (an open dispute: its lowest)" if open_dispute else ""
        yield Problem(
            ("verdicts", doc),
            "LP046",
            f"verdicts.{doc}: the verdict that counts{which} is {_grade_text(decided)}, but "
            f"`relevant_doc_ids` and `grades` say {_grade_text(said)}",
            key=True,
        )
    if open_dispute:
        said_by = ", ".join(sorted({_grade_text(g) for g in verdicts.grades(label, doc)}, key=str))
        yield Problem(
            ("verdicts", doc),
            "LP047",
            f"verdicts.{doc}: an open dispute (the judges say {said_by}; no adjudicator): "
            "`labelpool pool --adjudicate` makes the batch that settles it",
            "warning",
            key=True,
        )


def _grade_text(grade: int) -> str:
    return "irrelevant" if grade == 0 else "relevant" if grade == 1 else f"grade {grade}"


def first_error(data: Any) -> Problem | None:
    """The first error :func:`problems` finds in ``data`` (a writer's check), or None."""
    return next((p for p in problems(data) if p.severity == "error"), None)


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    for p in problems(view.data):
        line, col = view.pos(p.keypath, key=p.key)
        out.append(Finding("", line, col, p.rule, p.message, p.severity))
    return out


__all__ = ["MACHINE", "Problem", "check", "first_error", "has_record", "is_person", "problems"]
