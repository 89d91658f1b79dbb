"""``rules.written`` refuses a write that breaks the record of judges (LP043-LP046): its fast
path (schema, LP042, LP035) would take such a text."""

from __future__ import annotations

from labelpool.rules import written
from labelpool.schemas import PACKAGE_DATA

SCHEMA = PACKAGE_DATA / "label.schema.json"
BOUND = 4 * 1024 * 1024
OLD = """\
id: q1
question: Where is my parcel?
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1
verdicts:
  doc-a#1:
    - {judge: Ana <ana@x.org>, verdict: relevant}
pool:
  - system: bm25
    k: 2
    date: '2026-06-02'
"""


def first(new: str, old: str | None = OLD) -> str | None:
    found = written.first_new_error(old, new, schema_file=SCHEMA, max_bytes=BOUND, max_depth=32)
    return None if found is None else f"{found.rule} {found.message}"


def test_a_valid_record_is_taken() -> None:
    assert first(OLD, None) is None
    second = "    - {judge: Bo <bo@x.org>, verdict: relevant}\n"
    assert first(OLD.replace("pool:\n", f"{second}pool:\n")) is None


def test_a_judge_twice_is_refused() -> None:
    twice = OLD.replace("pool:\n", "    - {judge: Ana <ana@x.org>, verdict: relevant}\npool:\n")
    assert first(twice) == (
        "LP043 verdicts.doc-a#1[1]: Ana <ana@x.org> gives a second verdict on doc-a#1 "
        "(one verdict per judge and document)"
    )


def test_lists_that_disagree_with_the_record_are_refused() -> None:
    wrong = OLD.replace("verdict: relevant", "verdict: irrelevant")
    assert first(wrong) == (
        "LP046 verdicts.doc-a#1: the verdict that counts is irrelevant, but "
        "`relevant_doc_ids` and `grades` say relevant"
    )


def test_a_verdict_on_a_document_not_judged_is_refused() -> None:
    other = OLD.replace("  doc-a#1:\n", "  doc-z#9:\n")
    assert first(other, None) == (
        "LP044 verdicts.doc-z#9: doc-z#9 is not judged (add it to `judged_ids`, or remove "
        "its verdicts)"
    )
