"""Raters that are groups of judges, for ``agreement`` and ``check``'s machine gate.

* ``people``: every person pooled as one rater: on a document, the persons' counting verdict
  (:func:`labelpool.verdicts.decided_grade` over persons' verdicts only: an adjudicator's,
  else the persons' agreed grade, else the disputes policy; none under ``bounds`` while the
  persons disagree).
* ``machine:NAME``: every identity of the machine judge NAME (``NAME@sha256:...``): each is
  its own rater, so a changed prompt (a new identity) starts a new row.

:func:`machine_agreement` ``(labels, policy, relevance_level)``: each machine identity's
Cohen's kappa with ``people`` at the relevance threshold, on the documents both judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from labelpool import verdicts
from labelpool.agreement import kappa
from labelpool.model import MACHINE, Label

__all__ = [
    "MACHINE_PREFIX",
    "PEOPLE",
    "MachineAgreement",
    "expand",
    "machine_agreement",
    "machines",
    "people_grade",
]

PEOPLE = "people"
MACHINE_PREFIX = "machine:"


def machines(labels: Mapping[str, Label]) -> tuple[str, ...]:
    """Every machine identity that gave a verdict in ``labels``, sorted."""
    found: set[str] = set()
    for label in labels.values():
        alone = any(d not in label.verdicts for d in label.judged)
        if label.judge is not None and label.judge_kind == MACHINE and alone:
            found.add(label.judge)
        for entries in label.verdicts.values():
            found.update(e.judge for e in entries if e.kind == MACHINE and e.judge is not None)
    return tuple(sorted(found))


def expand(value: str, known_machines: Sequence[str]) -> tuple[str, ...] | None:
    """What a group name stands for: ``people`` itself, ``machine:NAME`` every identity of
    NAME (its exact identity, or ``NAME@...``; () when none); None for any other name."""
    if value == PEOPLE:
        return (PEOPLE,)
    if not value.startswith(MACHINE_PREFIX):
        return None
    name = value[len(MACHINE_PREFIX) :].strip()
    return tuple(m for m in known_machines if m == name or m.startswith(f"{name}@"))


def people_grade(label: Label, doc: str, policy: str) -> int | None:
    """The persons' counting verdict on ``doc`` as a grade (None: no person's verdict, or
    an open dispute among persons under ``bounds``)."""
    return verdicts.decided_grade(label, doc, policy, "people")


def own_grade(label: Label, doc: str, judge: str) -> int | None:
    """``judge``'s own (not adjudicating) grade of ``doc``."""
    for e in verdicts.record(label, doc):
        if e.judge == judge and not e.adjudicator:
            return verdicts.grade_of(label, e.verdict)
    return None


@dataclass(frozen=True)
class MachineAgreement:
    """One machine identity against ``people``: the documents both judged and the kappa at
    the relevance threshold (None: undefined, one grade throughout)."""

    identity: str
    documents: int
    kappa: float | None


def machine_agreement(
    labels: Mapping[str, Label], policy: str, relevance_level: int = 1
) -> tuple[MachineAgreement, ...]:
    """Each machine identity's agreement with ``people`` (module text), by identity."""
    pairs: dict[str, list[tuple[int, int]]] = {m: [] for m in machines(labels)}
    for label in labels.values():
        for doc in label.verdicts:
            entries = verdicts.record(label, doc)
            present = {e.judge for e in entries if e.kind == MACHINE and e.judge is not None}
            if not present:
                continue
            person = people_grade(label, doc, policy)
            if person is None:
                continue
            for m in present:
                grade = own_grade(label, doc, m)
                if grade is not None:
                    pairs[m].append((int(grade >= relevance_level), int(person >= relevance_level)))
    out = []
    for m, found in pairs.items():
        value: float | None = None
        if found:
            a = np.array([p[0] for p in found])
            b = np.array([p[1] for p in found])
            k = float(kappa.kappa_of(kappa.confusion(a, b, 2), kappa.PLAIN))
            value = None if np.isnan(k) else k
        out.append(MachineAgreement(m, len(found), value))
    return tuple(out)
