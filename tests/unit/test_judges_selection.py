"""Property (issue 25): ``--judges`` in the one place scoring resolves verdicts
(:func:`labelpool.verdicts.resolve`), on generated records of persons' and machines'
verdicts: ``people`` reads a label as the same label with every machine verdict struck out
(a document only machines judged: unjudged), ``machines`` as the one with every person's
struck out, and under ``all`` a document counts on a machine alone exactly where no person
judged it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import verdicts
from labelpool.model import Label, label_from_data

JUDGES = ("Ana Lopez <ana@example.org>", "Bo Chen <bo@example.org>", "m1@sha256:aaaa", "m2")
MACHINES = frozenset({2, 3})
VERDICTS = ("relevant", "irrelevant", 0, 1, 2, 3)
DOCS = tuple(f"d{j}" for j in range(5))

doc_verdicts = st.lists(
    st.tuples(st.sampled_from(range(len(JUDGES))), st.sampled_from(VERDICTS)),
    max_size=3,
    unique_by=lambda t: t[0],
)
records = st.lists(doc_verdicts, min_size=len(DOCS), max_size=len(DOCS))


def grade(v: object) -> int:
    return {"relevant": 1, "irrelevant": 0}.get(v, v)  # type: ignore[call-overload, no-any-return]


def label(per_doc: list[list[tuple[int, object]]], keep: frozenset[int]) -> Label:
    """The label of the verdicts by the judges ``keep``, as merge writes it (the lists hold
    the lowest grade of the verdicts that count)."""
    kept = [[(j, v) for j, v in vs if j in keep] for vs in per_doc]
    judged = [d for d, vs in zip(DOCS, kept, strict=True) if vs]
    counted: dict[str, int] = {}
    for d, vs in zip(DOCS, kept, strict=True):
        if vs:
            people = [grade(v) for j, v in vs if j not in MACHINES]
            counted[d] = min(people or [grade(v) for _, v in vs])
    data: dict[str, Any] = {
        "id": "q",
        "relevant_doc_ids": [d for d in judged if counted[d] > 0],
        "judged_ids": judged,
        "grades": {d: counted[d] for d in judged if counted[d] > 1},
        "verdicts": {
            d: [
                {"judge": JUDGES[j], "verdict": v, **({"kind": "machine"} if j in MACHINES else {})}
                for j, v in vs
            ]
            for d, vs in zip(DOCS, kept, strict=True)
            if vs
        },
    }
    return label_from_data(data)


def seen(lab: Label) -> dict[str, int]:
    return {d: lab.gain.get(d, 0) for d in lab.judged}


EVERY = frozenset(range(len(JUDGES)))


@settings(max_examples=200, deadline=None)
@given(records, st.sampled_from(verdicts.POLICIES))
def test_people_strikes_the_machines_out(per_doc: list[Any], policy: str) -> None:
    whole = label(per_doc, EVERY)
    people = label(per_doc, EVERY - MACHINES)
    assert seen(verdicts.resolve(whole, policy, judges="people")) == seen(
        verdicts.resolve(people, policy)
    )


@settings(max_examples=200, deadline=None)
@given(records, st.sampled_from(verdicts.POLICIES))
def test_machines_strikes_the_people_out(per_doc: list[Any], policy: str) -> None:
    whole = label(per_doc, EVERY)
    machines = label(per_doc, MACHINES)
    assert seen(verdicts.resolve(whole, policy, judges="machines")) == seen(
        verdicts.resolve(machines, policy)
    )


@settings(max_examples=200, deadline=None)
@given(records)
def test_machine_alone_where_no_person_judged(per_doc: list[Any]) -> None:
    whole = label(per_doc, EVERY)
    scored = verdicts.resolve(whole, "min")
    alone = verdicts.machine_alone(whole, scored.judged)
    expected = {
        d for d, vs in zip(DOCS, per_doc, strict=True) if vs and all(j in MACHINES for j, _ in vs)
    }
    assert alone == expected
    assert seen(verdicts.resolve(whole, "min", judges="all")) == seen(scored)
