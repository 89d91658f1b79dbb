"""labelfile/classes.py: proposals appended as a text edit. Any valid label file plus proposals
is a valid file (but for LP062, the proposals waiting for review) whose other bytes are
unchanged, and whose round-trip reading equals labelpool's one reading."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import batch as batch_mod
from labelpool import yamlfile
from labelpool.labelfile.classes import ClassesEditError, add_proposals, score_text
from labelpool.model import label_from_data
from labelpool.rules.check import check_bytes
from labelpool.schemas import LABEL, schema_path

IDS = [f"D{i}" for i in range(10)] + ["a#b", "x.y", "0123", "yes", "it's", "~x", "c,d", "e]f"]


def _q(doc: str) -> str:
    return batch_mod.quote(doc)


def _errors(text: str) -> list[str]:
    result = check_bytes(
        text.encode("utf-8"), schema_path(LABEL), max_bytes=1_000_000, max_depth=32
    )
    return [f"{f.rule} {f.message}" for f in result.findings if f.severity == "error"]


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, list[tuple[list[str], str, float, str]]]:
    docs = draw(st.permutations(IDS))
    judged = sorted(docs[:4])
    relevant = sorted(judged[:2])
    indent = draw(st.sampled_from(["  ", ""]))
    classes = draw(st.sampled_from(["none", "empty", "list", "comment"]))
    parts = [
        "# a label\n",
        "id: q1\n",
        "question: 'Yes: or no?'\n",
        "relevant_doc_ids:\n" + "".join(f"{indent}- {_q(d)}\n" for d in relevant),
        "judged_ids:\n" + "".join(f"{indent}- {_q(d)}\n" for d in judged),
    ]
    if classes == "empty":
        parts.append("relevant_classes: []  # none yet\n")
    elif classes in ("list", "comment"):
        a, b = relevant
        parts.append(f"relevant_classes:\n{indent}- - {_q(a)}\n{indent}  - {_q(b)}\n")
        if classes == "comment":
            parts.append("  # a comment inside the block\n")
    parts.append(draw(st.sampled_from(["", "# before pool\n"])))
    parts.append("pool:\n  - system: bm25\n    k: 10\n    date: '2026-12-01'\n")
    parts.append(draw(st.sampled_from(["", "owner: team\n", "meta:\n  a: [1, 2]\n"])))
    free = docs[4:]
    n = draw(st.integers(1, 3))
    proposals = []
    for i in range(n):
        members = free[2 * i : 2 * i + 2]
        method = draw(st.sampled_from(["shingle-jaccard", "duplicate-map"]))
        score = draw(st.floats(0, 1))
        comment = draw(st.text(max_size=30))
        proposals.append((members, method, score, comment))
    return "".join(parts), proposals


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_proposals_keep_every_other_byte_and_read_back(
    case: tuple[str, list[tuple[list[str], str, float, str]]],
) -> None:
    text, proposals = case
    assert _errors(text) == []
    new = add_proposals(text, proposals)
    # valid, with the proposals waiting for review
    errors = _errors(new)
    assert [e.split()[0] for e in errors] == ["LP062"] * len(proposals), errors
    # every other byte unchanged: only inserted lines (and `[]` made a block)
    ops = difflib.SequenceMatcher(
        None, text.splitlines(keepends=True), new.splitlines(keepends=True), autojunk=False
    ).get_opcodes()
    changed = [op for op in ops if op[0] not in ("equal", "insert")]
    assert all(text.splitlines()[i1].startswith("relevant_classes: []") for _, i1, *_ in changed)
    # the round-trip tree reads as the one reading does, with the proposals at the end
    plain = yamlfile.loads_fast(new)
    assert yamlfile.to_plain(yamlfile.loads_roundtrip(new)) == plain
    label = label_from_data(plain)
    assert [list(p.members) for p in label.proposed_classes] == [p[0] for p in proposals]
    assert [p.method for p in label.proposed_classes] == [p[1] for p in proposals]
    scores = [p.score for p in label.proposed_classes]
    assert all(abs(s - q[2]) <= 0.0005 for s, q in zip(scores, proposals, strict=True))
    assert label.relevant_classes == label_from_data(yamlfile.loads_fast(text)).relevant_classes
    assert label.gain == label_from_data(yamlfile.loads_fast(text)).gain


def test_the_form_as_written() -> None:
    text = "id: q1\nquestion: x\nrelevant_doc_ids: []\njudged_ids: []\n"
    new = add_proposals(
        text,
        [(["tenant-acme#returns", "tenant-initech#returns"], "shingle-jaccard", 0.86, "p: x")],
    )
    assert new == text + (
        "relevant_classes:\n"
        "  # p: x\n"
        "  - members: [tenant-acme#returns, tenant-initech#returns]\n"
        "    proposed: {method: shingle-jaccard, score: 0.86}\n"
    )
    assert add_proposals(text, []) == text
    assert score_text(1) == "1.0" and score_text(0.8) == "0.8" and score_text(0.12345) == "0.123"


def test_a_flow_class_list_is_refused_with_its_line() -> None:
    text = "id: q1\nquestion: x\nrelevant_classes: [[a, b]]\n"
    with pytest.raises(ClassesEditError) as err:
        add_proposals(text, [(["c", "d"], "m", 1.0, "")])
    assert err.value.line == 3


def test_fmt_keeps_both_forms_byte_for_byte() -> None:
    from labelpool.labelfile import format_label

    text = (
        "id: q1\n"
        "question: x\n"
        "relevant_doc_ids:\n  - a#1\n"
        "judged_ids:\n  - a#1\n"
        "relevant_classes:\n"
        "  - - a#1\n    - b#2\n"
        '  # proposed: c#3, d#4 differ in: "x" / "y"\n'
        "  - members: [c#3, d#4]\n"
        "    proposed: {method: shingle-jaccard, score: 0.86}\n"
        "  - members: ['0123', e#5]\n"
        "pool:\n  - system: bm25\n    k: 10\n    date: '2026-12-01'\n"
    )
    tree = yamlfile.loads_roundtrip(text)
    format_label(tree, text)
    assert yamlfile.dumps(tree) == text.replace("  - members: ['0123', e#5]\n", "").replace(
        "relevant_classes:\n", "relevant_classes:\n  - members: ['0123', e#5]\n"
    )
