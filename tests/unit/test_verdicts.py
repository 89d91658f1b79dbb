"""The record of several judges (labelpool.verdicts): who judged, the verdict that counts, and
how each disputes policy reads an open dispute."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import verdicts
from labelpool.model import DuplicateOf, label_from_data

ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"
CY = "Cy Park <cy@example.org>"


def _label(**extra: Any) -> Any:
    data: dict[str, Any] = {"id": "q", "question": "?", "relevant_doc_ids": [], "judged_ids": []}
    data.update(extra)
    return label_from_data(data)


def test_a_file_without_a_record_reads_as_before() -> None:
    label = _label(relevant_doc_ids=["a"], judged_ids=["a", "b"])
    assert label.judge is None and label.verdicts == {}
    assert verdicts.record(label, "a") == (verdicts.JudgeVerdict(None, 1),)
    assert verdicts.disputed(label) == frozenset()
    for policy in verdicts.POLICIES:
        assert verdicts.resolve(label, policy) is label


def test_the_file_judge_judged_every_document_not_listed() -> None:
    label = _label(
        judge=ANA,
        relevant_doc_ids=["a", "b"],
        judged_ids=["a", "b", "c"],
        grades={"b": 3},
        verdicts={"c": [{"judge": "umbrela", "kind": "machine", "verdict": "irrelevant"}]},
    )
    assert verdicts.record(label, "b") == (verdicts.JudgeVerdict(ANA, 3),)
    assert verdicts.record(label, "c") == (
        verdicts.JudgeVerdict("umbrela", "irrelevant", "machine"),
    )
    assert verdicts.record(label, "zzz") == ()
    assert verdicts.judges(label) == {ANA, "umbrela"}


def _disputed() -> Any:
    # Ana says 3, Bo irrelevant, Cy 1: the lists hold the lowest (irrelevant)
    return _label(
        judge=ANA,
        relevant_doc_ids=["a"],
        judged_ids=["a", "d"],
        verdicts={
            "d": [
                {"judge": ANA, "verdict": 3},
                {"judge": BO, "verdict": "irrelevant"},
                {"judge": CY, "verdict": "relevant"},
            ]
        },
    )


@pytest.mark.parametrize(
    ("policy", "grade"), [("bounds", None), ("min", 0), ("max", 3), ("majority", 0)]
)
def test_each_policy_reads_an_open_dispute(policy: str, grade: int | None) -> None:
    label = _disputed()
    assert verdicts.disputed(label) == {"d"}
    resolved = verdicts.resolve(label, policy)
    assert resolved.verdict_of("d") == grade
    assert ("d" in resolved.judged) == (grade is not None)
    assert resolved.verdict_of("a") == 1


def test_majority_takes_the_most_frequent_grade_and_a_tie_the_lowest() -> None:
    two_to_one = _label(
        judged_ids=["d"],
        verdicts={
            "d": [
                {"judge": ANA, "verdict": 2},
                {"judge": BO, "verdict": 2},
                {"judge": CY, "verdict": 0},
            ]
        },
    )
    assert verdicts.decided_grade(two_to_one, "d", "majority") == 2
    tie = _label(
        judged_ids=["d"],
        verdicts={"d": [{"judge": ANA, "verdict": 2}, {"judge": BO, "verdict": 1}]},
    )
    assert verdicts.decided_grade(tie, "d", "majority") == 1


def test_an_adjudicator_settles_a_dispute() -> None:
    label = _label(
        relevant_doc_ids=["d"],
        judged_ids=["d"],
        grades={"d": 2},
        verdicts={
            "d": [
                {"judge": ANA, "verdict": 3},
                {"judge": BO, "verdict": "irrelevant"},
                {"adjudicator": CY, "verdict": 2},
            ]
        },
    )
    assert verdicts.disputed(label) == frozenset()
    for policy in verdicts.POLICIES:
        assert verdicts.decided_grade(label, "d", policy) == 2
    assert verdicts.record(label, "d")[-1].adjudicator


def test_a_machine_never_outranks_a_person() -> None:
    label = _label(
        relevant_doc_ids=["d"],
        judged_ids=["d"],
        verdicts={
            "d": [{"judge": ANA, "verdict": 1}, {"judge": "m", "kind": "machine", "verdict": 0}]
        },
    )
    assert verdicts.disputed(label) == frozenset()
    assert verdicts.decided_grade(label, "d", "bounds") == 1
    machines = _label(
        judged_ids=["d"],
        verdicts={
            "d": [
                {"judge": "m1", "kind": "machine", "verdict": 1},
                {"judge": "m2", "kind": "machine", "verdict": 0},
            ]
        },
    )
    assert verdicts.disputed(machines) == {"d"}


def test_one_judge_s_labels() -> None:
    label = _disputed()
    as_bo = verdicts.resolve(label, "bounds", judge=BO)
    assert as_bo.verdict_of("d") == 0
    as_ana = verdicts.resolve(label, "bounds", judge=ANA)
    assert as_ana.verdict_of("d") == 3
    assert as_ana.verdict_of("a") == 1  # the file's judge is Ana: her verdict already
    assert verdicts.resolve(label, "bounds", judge="nobody <n@x>").verdict_of("d") is None


def test_a_duplicate_verdict_has_its_class_s_grade() -> None:
    label = _label(
        relevant_doc_ids=["a"],
        judged_ids=["a", "b"],
        grades={"a": 2},
        relevant_classes=[["a", "b"]],
        verdicts={"b": [{"judge": ANA, "verdict": {"duplicate-of": "a"}}]},
    )
    assert verdicts.record(label, "b")[0].verdict == DuplicateOf("a")
    assert verdicts.grades(label, "b") == (2,)


def test_bounds_takes_a_disputed_class_member_out_of_its_class() -> None:
    label = _label(
        relevant_doc_ids=["a", "b"],
        judged_ids=["a", "b"],
        relevant_classes=[["a", "b"]],
        verdicts={"b": [{"judge": ANA, "verdict": 1}, {"judge": BO, "verdict": 2}]},
    )
    resolved = verdicts.resolve(label, "bounds")
    assert resolved.relevant_classes == (("a",),)
    assert resolved.verdict_of("b") is None


_JUDGES = [ANA, BO, CY, "m1"]


@st.composite
def _panels(draw: st.DrawFn) -> Any:
    docs = draw(st.lists(st.sampled_from("abcdef"), min_size=1, max_size=6, unique=True))
    record: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        who = draw(st.lists(st.sampled_from(_JUDGES), min_size=1, max_size=4, unique=True))
        record[doc] = [
            {
                "judge": j,
                **({"kind": "machine"} if j == "m1" else {}),
                "verdict": draw(st.integers(0, 4)),
            }
            for j in who
        ]
        if draw(st.booleans()) and len(who) > 1:
            record[doc].append({"adjudicator": CY, "verdict": draw(st.integers(0, 4))})
    return record


@settings(max_examples=200, deadline=None)
@given(_panels())
def test_every_policy_lies_within_the_verdicts_and_bounds_drops_only_disputes(
    record: dict[str, list[dict[str, Any]]],
) -> None:
    base = _label(judged_ids=sorted(record), verdicts=record)
    summary = {d: verdicts.decided_grade(base, d, "min") for d in record}
    label = _label(
        judged_ids=sorted(record),
        relevant_doc_ids=sorted(d for d, g in summary.items() if g),
        grades={d: g for d, g in summary.items() if g and g > 1},
        verdicts=record,
    )
    disputes = verdicts.disputed(label)
    assert verdicts.resolve(label, "min").gain == label.gain  # the lists hold the lowest
    for policy in verdicts.POLICIES:
        resolved = verdicts.resolve(label, policy)
        for doc in record:
            gs = verdicts.grades(label, doc)
            got = resolved.verdict_of(doc)
            if policy == "bounds" and doc in disputes:
                assert got is None
            else:
                assert got is not None and min(gs) <= got <= max(gs)
