"""Several judges per document: the record of who judged what, and the verdict that counts.

A label file names its judges in two places (docs/judging.md#the-record):

* ``judge: Ana Lopez <ana@example.org>`` (and ``judge_kind: machine`` for a machine): the
  judge of every judged document the file does not list under ``verdicts``;
* ``verdicts:``, a mapping from a document to its verdicts, one line each, written only where
  a document has a second verdict or a judge other than the file's::

      verdicts:
        tenant-acme#returns:
          - {judge: Ana Lopez <ana@example.org>, verdict: 2}
          - {judge: Bo Chen <bo@example.org>, verdict: irrelevant}
          - {adjudicator: Cy Park <cy@example.org>, verdict: 1}

A verdict is what a pending line holds (``relevant``, ``irrelevant``, a grade, or
``{duplicate-of: ID}``). ``relevant_doc_ids``, ``judged_ids`` and ``grades`` keep saying the
verdict that counts, so every reader that knows nothing of judges reads what it read before:

* an adjudicator's verdict, where there is one;
* else, where the people who judged agree, their verdict (a machine's verdict never outranks
  a person's: where a person judged, machines' verdicts are left out of the count, not out of
  ``agreement``; where only machines judged, theirs count);
* else the document is *disputed*, and the lists hold the lowest verdict (what a reader that
  knows nothing of disputes should assume). Scoring applies ``[tool.labelpool] disputes``
  (:func:`resolve`): ``bounds`` counts it as unjudged, ``majority`` the most frequent grade
  (a tie: the lowest of the tied), ``max``, ``min``.

Scoring may also count only some judges (``--judges``, :data:`SELECTIONS`): ``people`` reads
every record as if it held only persons' verdicts (a document only machines judged is
unjudged), ``machines`` as if it held only machines' (a document only people judged is
unjudged), ``all`` as it is (a person outranks a machine). An open dispute is one among the
verdicts left.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace

from labelpool.config import JUDGE_SELECTIONS
from labelpool.model import (
    IRRELEVANT,
    KINDS,
    MACHINE,
    PERSON,
    RELEVANT,
    DuplicateOf,
    JudgeVerdict,
    Label,
    Verdict,
    record_from_data,
)

__all__ = [
    "KINDS",
    "MACHINE",
    "MACHINE_EMAIL",
    "PERSON",
    "POLICIES",
    "SELECTIONS",
    "JudgeVerdict",
    "counting",
    "decided_grade",
    "disputed",
    "grade_of",
    "grades",
    "has_machine",
    "is_disputed",
    "is_person",
    "judge_grade",
    "judges",
    "kind_of",
    "machine_alone",
    "machine_only",
    "named",
    "open_highest",
    "person_parts",
    "record",
    "record_from_data",
    "resolve",
    "selected",
    "verdict_grade",
]

POLICIES = ("bounds", "majority", "max", "min")
# the email of a machine judge's commits (``labelpool judge --machine``): a verdict line such a
# commit wrote is the machine's, its git author name the judge's identity (``NAME@sha256:...``)
MACHINE_EMAIL = "machine@labelpool.invalid"
ALL = "all"
SELECTIONS = JUDGE_SELECTIONS  # whose verdicts scoring counts (``--judges``): people, machines, all
# ``Name <email>``: a name without angle brackets or line breaks, one space, an address in
# angle brackets without spaces (git's ``%aN <%aE>``)
PERSON_RE = re.compile(r"([^<>\s](?:[^<>\n\r]*[^<>\s])?) <([^<>\s]+)>\Z")


def person_parts(identity: str) -> tuple[str, str] | None:
    """(name, email) of a person's identity ``Name <email>``; None for anything else (a
    machine's name)."""
    m = PERSON_RE.match(identity)
    return None if m is None else (m.group(1), m.group(2))


def is_person(identity: str) -> bool:
    """Whether ``identity`` is ``Name <email>``."""
    return PERSON_RE.match(identity) is not None


def named(name: str, known: Iterable[str]) -> list[str]:
    """The judges of ``known`` that ``name`` stands for on a command line: the one judge whose
    full identity (``Name <email>``, a machine's name) it is, else every person whose email it
    is (ignoring case and angle brackets), sorted."""
    known = sorted(set(known))
    if name in known:
        return [name]
    email = name.strip().strip("<>").casefold()
    return [j for j in known if (p := person_parts(j)) is not None and p[1].casefold() == email]


def verdict_grade(verdict: Verdict, grade_of_doc: Callable[[str], int | None]) -> int | None:
    """A verdict as a grade (0 irrelevant); ``{duplicate-of: ID}`` has ID's grade as
    ``grade_of_doc`` says it (at least 1); None for no verdict."""
    if verdict is None:
        return None
    if verdict == RELEVANT:
        return 1
    if verdict == IRRELEVANT:
        return 0
    if isinstance(verdict, DuplicateOf):
        return max(1, grade_of_doc(verdict.doc) or 1)
    return int(verdict)


def grade_of(label: Label, verdict: Verdict) -> int | None:
    """:func:`verdict_grade` with the grades ``label``'s lists say."""
    return verdict_grade(verdict, label.gain.get)


def record(label: Label, doc: str) -> tuple[JudgeVerdict, ...]:
    """Every verdict on ``doc``: its ``verdicts`` entry, else one verdict by the file's judge
    (None when the file names none), else () for a document nobody judged."""
    listed = label.verdicts.get(doc)
    if listed:
        return listed
    if doc not in label.judged:
        return ()
    grade = label.gain.get(doc, 0)
    return (JudgeVerdict(label.judge, grade, label.judge_kind),)


def counting(entries: Iterable[JudgeVerdict]) -> tuple[JudgeVerdict, ...]:
    """The verdicts that decide: an adjudicator's (the last), else the people's where a person
    judged, else every one."""
    entries = tuple(e for e in entries if e.verdict is not None)
    adjudicated = [e for e in entries if e.adjudicator]
    if adjudicated:
        return (adjudicated[-1],)
    people = tuple(e for e in entries if e.kind == PERSON)
    return people or entries


def selected(entries: Iterable[JudgeVerdict], judges: str = ALL) -> tuple[JudgeVerdict, ...]:
    """The verdicts of ``entries`` that ``judges`` (:data:`SELECTIONS`) counts: ``people``
    the persons' (an adjudicator's too), ``machines`` the machines', ``all`` every one."""
    if judges == ALL:
        return tuple(entries)
    if judges not in SELECTIONS:
        raise ValueError(f"unknown judges {judges!r}; one of {', '.join(SELECTIONS)}")
    kind = MACHINE if judges == "machines" else PERSON
    return tuple(e for e in entries if e.kind == kind)


def grades(label: Label, doc: str, judges: str = ALL) -> tuple[int, ...]:
    """The grades of the verdicts that decide ``doc`` (see :func:`counting`) among those
    ``judges`` counts (:func:`selected`)."""
    out = (grade_of(label, e.verdict) for e in counting(selected(record(label, doc), judges)))
    return tuple(g for g in out if g is not None)


def machine_only(label: Label, doc: str, judges: str = ALL) -> bool:
    """Whether the verdicts that decide ``doc`` (among those ``judges`` counts) are all
    machines': a document judged only by a machine, as scoring counts it."""
    deciding = counting(selected(record(label, doc), judges))
    return bool(deciding) and all(e.kind == MACHINE for e in deciding)


def machine_alone(
    label: Label,
    docs: Iterable[str],
    judges: str = ALL,
    judge: str | None = None,
    judge_is_machine: bool = False,
) -> frozenset[str]:
    """The documents of ``docs`` that count on a machine's verdict alone: with ``judge``,
    where that judge gave a verdict, whether the judge is a machine; else
    :func:`machine_only`."""
    return frozenset(
        d
        for d in docs
        if (
            judge_is_machine
            if judge is not None and judge_grade(label, d, judge) is not None
            else machine_only(label, d, judges)
        )
    )


def kind_of(labels: Iterable[Label], identity: str) -> str:
    """``machine`` when the judge ``identity`` gave a machine's verdict in ``labels``, else
    ``person``."""
    for lab in labels:
        if lab.judge == identity and lab.judge_kind == MACHINE:
            return MACHINE
        for es in lab.verdicts.values():
            if any(e.judge == identity and e.kind == MACHINE for e in es):
                return MACHINE
    return PERSON


def is_disputed(label: Label, doc: str, judges: str = ALL) -> bool:
    return len(set(grades(label, doc, judges))) > 1


def disputed(label: Label, judges: str = ALL) -> frozenset[str]:
    """Documents whose deciding verdicts disagree and that no adjudicator has settled."""
    return frozenset(d for d in label.verdicts if is_disputed(label, d, judges))


def open_highest(label: Label) -> dict[str, int]:
    """The open disputes ``label`` leaves unjudged (:func:`resolve` under ``bounds``), each
    with its highest deciding grade: what any settling of it can make it at most. Empty for
    a label without a record, and wherever a policy or a judge's own verdict settled them."""
    if not label.verdicts:
        return {}
    judged = label.judged
    out: dict[str, int] = {}
    for doc in label.verdicts:
        if doc in judged:
            continue
        gs = grades(label, doc)
        if len(set(gs)) > 1:
            out[doc] = max(gs)
    return out


def decided_grade(label: Label, doc: str, policy: str = "min", judges: str = ALL) -> int | None:
    """The grade that counts for ``doc`` under ``policy`` among the verdicts ``judges``
    counts; None when it does not count (nobody judged it, or an open dispute under
    ``bounds``)."""
    gs = grades(label, doc, judges)
    if not gs:
        return None
    if len(set(gs)) == 1:
        return gs[0]
    if policy == "bounds":
        return None
    if policy == "max":
        return max(gs)
    if policy == "min":
        return min(gs)
    if policy == "majority":
        counts = Counter(gs)
        top = max(counts.values())
        return min(g for g, c in counts.items() if c == top)
    raise ValueError(f"unknown disputes policy {policy!r}; one of {', '.join(POLICIES)}")


def judge_grade(label: Label, doc: str, judge: str) -> int | None:
    """``judge``'s own grade on ``doc`` (an adjudicator's too), or None."""
    for e in record(label, doc):
        if e.judge == judge and e.verdict is not None:
            return grade_of(label, e.verdict)
    return None


def judges(label: Label) -> frozenset[str]:
    """Every judge named in the file (``judge`` and the record's judges and adjudicators)."""
    out = {e.judge for es in label.verdicts.values() for e in es if e.judge is not None}
    if label.judge is not None and any(d not in label.verdicts for d in label.judged):
        out.add(label.judge)
    return frozenset(out)


def has_machine(label: Label) -> bool:
    """Whether a machine's verdict is in ``label``'s record (the file's judge included)."""
    if label.judge_kind == MACHINE and any(d not in label.verdicts for d in label.judged):
        return True
    return any(e.kind == MACHINE for es in label.verdicts.values() for e in es)


def _untouched(label: Label, judges: str) -> bool:
    """Whether ``judges`` reads every verdict of ``label`` as ``all`` does."""
    if judges == ALL:
        return True
    if judges == "people":
        return not has_machine(label)
    return False


def resolve(
    label: Label, policy: str = "bounds", judge: str | None = None, judges: str = ALL
) -> Label:
    """``label`` as scoring reads it: only the verdicts ``judges`` counts (:func:`selected`;
    a document left with none is unjudged), every open dispute settled by ``policy`` (under
    ``bounds`` it leaves the judged lists: unjudged), and with ``judge`` that judge's own
    verdict wherever they gave one. A label without a record comes back as it is."""
    if policy not in POLICIES:
        raise ValueError(f"unknown disputes policy {policy!r}; one of {', '.join(POLICIES)}")
    if judges not in SELECTIONS:
        raise ValueError(f"unknown judges {judges!r}; one of {', '.join(SELECTIONS)}")
    whole = not _untouched(label, judges)  # every judged document is read from the record
    if not label.verdicts and judge is None and not whole:
        return label
    changed: dict[str, int | None] = {}
    for doc in label.judged:
        own = judge_grade(label, doc, judge) if judge is not None else None
        if own is not None:
            new: int | None = own
        elif doc in label.verdicts or whole:
            new = decided_grade(label, doc, policy, judges)
        else:
            continue
        if new != label.gain.get(doc):
            changed[doc] = new
    if not changed:
        return label
    judged = [d for d in label.judged_ids if changed.get(d, 0) is not None]
    judged += [d for d, g in changed.items() if g is not None and d not in label.judged_ids]
    relevant = {d for d in label.relevant_doc_ids if d not in changed}
    relevant |= {d for d, g in changed.items() if g is not None and g > 0}
    grade_map = {d: g for d, g in label.grades.items() if d not in changed}
    grade_map.update({d: g for d, g in changed.items() if g is not None and g > 1})
    # out of the classes: a member no longer judged, or judged irrelevant by the count
    dropped = {d for d, g in changed.items() if not g}
    kept = (tuple(d for d in cls if d not in dropped) for cls in label.relevant_classes)
    classes = tuple(cls for cls in kept if cls)
    return replace(
        label,
        judged_ids=tuple(judged),
        relevant_doc_ids=tuple(sorted(relevant)),
        grades=grade_map,
        relevant_classes=classes,
    )
