"""The record's tree edits (:mod:`labelpool.labelfile.record`): canonical lines that read back
to the same record and pass validate; the direct text of a verdict line equals the dump."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import yamlfile
from labelpool.labelfile import record as rec
from labelpool.model import MACHINE, PERSON, DuplicateOf, JudgeVerdict, label_from_data
from labelpool.rules.check import check_bytes
from labelpool.schemas import LABEL, schema_path
from labelpool.yamlfile import CommentedMap, CommentedSeq

BASE = """\
id: q1
question: Are shops open on Sundays?
relevant_doc_ids:
  - a#1
judged_ids:
  - a#1  # the opening hours
  - b#2
grades:
  a#1: 2
pool:
  - system: bm25
    k: 10
    date: '2026-12-01'
"""
ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"


def _tree(text: str = BASE) -> CommentedMap:
    tree = yamlfile.loads_roundtrip(text)
    assert isinstance(tree, CommentedMap)
    return tree


def _errors(text: str) -> list[str]:
    result = check_bytes(
        text.encode("utf-8"), schema_path(LABEL), max_bytes=1_000_000, max_depth=32
    )
    return [f"{f.rule} {f.message}" for f in result.findings if f.severity == "error"]


def test_set_file_judge_at_its_canonical_place() -> None:
    tree = _tree()
    assert rec.set_file_judge(tree, ANA)
    assert not rec.set_file_judge(tree, ANA)
    text = yamlfile.dumps(tree)
    assert text.split("\n")[2] == f"judge: {ANA}"
    assert "judge_kind" not in text
    assert rec.set_file_judge(tree, "umbrela-3", MACHINE)
    lines = yamlfile.dumps(tree).split("\n")
    assert lines[2:4] == ["judge: umbrela-3", "judge_kind: machine"]
    assert rec.set_file_judge(tree, None)
    assert yamlfile.dumps(tree) == BASE


def test_add_verdict_writes_the_canonical_block() -> None:
    tree = _tree()
    rec.set_file_judge(tree, ANA)
    assert rec.add_verdict(tree, "b#2", JudgeVerdict("umbrela-3", "irrelevant", MACHINE))
    assert rec.add_verdict(tree, "a#1", JudgeVerdict(BO, "irrelevant"))
    assert rec.add_verdict(tree, "a#1", JudgeVerdict("Cy Park <cy@example.org>", 2, PERSON, True))
    assert rec.add_verdict(tree, "a#1", JudgeVerdict(ANA, 2))  # before the adjudicator
    assert not rec.add_verdict(tree, "a#1", JudgeVerdict(ANA, 2))
    text = yamlfile.dumps(tree)
    block = text[text.index("verdicts:") : text.index("pool:")]
    assert block == (
        "verdicts:\n"
        "  a#1:\n"
        f"    - {{judge: {BO}, verdict: irrelevant}}\n"
        f"    - {{judge: {ANA}, verdict: 2}}\n"
        "    - {adjudicator: Cy Park <cy@example.org>, verdict: 2}\n"
        "  b#2:\n"
        "    - {judge: umbrela-3, kind: machine, verdict: irrelevant}\n"
    )
    assert "- a#1  # the opening hours" in text
    assert text.index("grades:") < text.index("verdicts:") < text.index("pool:")
    assert _errors(text) == []
    label = label_from_data(yamlfile.loads_fast(text))
    assert label.verdicts["b#2"] == (JudgeVerdict("umbrela-3", "irrelevant", MACHINE),)
    assert label.verdicts["a#1"][2].adjudicator


def test_replacing_a_judges_line_keeps_unknown_keys() -> None:
    text = BASE + "verdicts:\n  a#1:\n    - {judge: Bo, verdict: 1, note: typo}\n"
    tree = _tree(text)
    assert rec.add_verdict(tree, "a#1", JudgeVerdict("Bo", 2))
    assert "    - {judge: Bo, verdict: 2, note: typo}\n" in yamlfile.dumps(tree)


def test_set_and_remove_verdicts() -> None:
    tree = _tree()
    assert rec.set_verdicts(tree, "b#2", [JudgeVerdict(ANA, 0), JudgeVerdict(BO, 1)])
    assert not rec.set_verdicts(tree, "b#2", [JudgeVerdict(ANA, 0), JudgeVerdict(BO, 1)])
    assert rec.set_verdicts(tree, "b#2", [JudgeVerdict(BO, DuplicateOf("a#1"))])
    assert "    - {judge: Bo Chen <bo@example.org>, verdict: {duplicate-of: a#1}}\n" in (
        yamlfile.dumps(tree)
    )
    assert rec.remove_verdicts(tree, "b#2")
    assert not rec.remove_verdicts(tree, "b#2")
    assert yamlfile.dumps(tree) == BASE


# identities and ids with the characters that change quoting
_CHARS = st.sampled_from([*"aAnNyY019_./#+@=~-:,?!&*%|>[]{}'\" <>\u00e9", "no", "2026-06-02"])
_NAME = (
    st.lists(_CHARS, min_size=1, max_size=8)
    .map("".join)
    .filter(lambda s: s.strip() == s and bool(s.strip()))
)
_IDENTITY = st.one_of(
    st.builds(
        lambda n, e: f"{n} <{e}@example.org>", _NAME, st.from_regex(r"[a-z.]{1,6}", fullmatch=True)
    ),
    _NAME,
)
_DOC = st.from_regex(r"[A-Za-z0-9_.#:,'{}\[\]-]{1,12}", fullmatch=True)
_VERDICT = st.one_of(
    st.sampled_from(["relevant", "irrelevant"]),
    st.integers(0, 4),
    st.builds(DuplicateOf, _DOC),
)
_JV = st.builds(
    JudgeVerdict,
    judge=_IDENTITY,
    verdict=_VERDICT,
    kind=st.sampled_from([PERSON, MACHINE]),
    adjudicator=st.booleans(),
).map(lambda jv: JudgeVerdict(jv.judge, jv.verdict, PERSON, True) if jv.adjudicator else jv)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.dictionaries(_DOC, st.lists(_JV, min_size=1, max_size=3), min_size=1, max_size=3))
def test_written_record_reads_back_and_validates(record: dict[str, list[JudgeVerdict]]) -> None:
    tree = _tree()
    for doc in record:
        rec.set_verdicts(tree, doc, record[doc])
    judged = tree["judged_ids"]
    assert isinstance(judged, CommentedSeq)
    from labelpool.labelfile import set_sorted_list

    set_sorted_list(tree, "judged_ids", [*map(str, judged), *record])
    text = yamlfile.dumps(tree)
    label = label_from_data(yamlfile.loads_fast(text))
    assert {d: list(v) for d, v in label.verdicts.items()} == record
    schema_errors = [e for e in _errors(text) if e.startswith(("LP020", "LP021", "LP015"))]
    assert schema_errors == []
    # the direct text of the block is the dump's
    start = text.index("verdicts:\n")
    end = text.index("pool:")
    try:
        lines = rec.verdicts_lines(record)
    except ValueError:
        return
    assert "\n".join(lines) + "\n" == text[start:end]


def test_an_entry_written_before_is_written_again_by_its_own_verdict_type() -> None:
    """The text of an entry is kept once written; ``True == 1`` must not give the one the
    other's text (a boolean is no recorded verdict), and a refusal is never kept."""
    one = JudgeVerdict("Ana <ana@x.org>", 1)
    for _ in range(2):
        assert rec.verdict_entry_text(one) == "{judge: Ana <ana@x.org>, verdict: 1}"
        with pytest.raises(ValueError, match="not a recorded verdict"):
            rec.verdict_entry_text(JudgeVerdict("Ana <ana@x.org>", True))
        with pytest.raises(ValueError, match="names its judge"):
            rec.verdict_entry_text(JudgeVerdict(None, 1))
    dup = JudgeVerdict("Ana <ana@x.org>", DuplicateOf("d1"), MACHINE)
    text = "{judge: Ana <ana@x.org>, kind: machine, verdict: {duplicate-of: d1}}"
    assert rec.verdict_entry_text(dup) == text
    assert rec.verdict_entry_text(JudgeVerdict("Ana <ana@x.org>", DuplicateOf("d1"))) != text
