"""``rules.written``: what ``pool`` writes into a label file, validate accepts."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from labelpool import batch
from labelpool.rules import written
from labelpool.rules.check import check_bytes
from labelpool.schemas import PACKAGE_DATA

SCHEMA = PACKAGE_DATA / "label.schema.json"
BOUND = 4 * 1024 * 1024
LABEL = """\
id: q1
question: Where is my parcel?
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1
pool:
  - system: bm25
    k: 2
    date: '2026-06-02'
"""
TRICKY = (
    "aZ09#-_./:'\"[]{},&*!|>%@`?= \t\u00a0\u2028\u2029\r\n\x1b\x85\u202e\u200b\ufeff"
    "\u0301\u00e9\u4e2d\U0001f600\ufffd"
)


def with_batch(docs: tuple[str, ...], old: str = LABEL) -> str:
    item = batch.render(
        batch.NewBatch(
            batch="2026-12-02-bm25@5",
            systems=("bm25",),
            depth=5,
            date="2026-12-02",
            runs={},
            docs=docs,
        ),
        question=None,
        texts=None,
    )
    return batch.append(old, item)


def errors(text: str) -> list[str]:
    result = check_bytes(text.encode("utf-8"), SCHEMA, max_bytes=BOUND, max_depth=32)
    return [f"{f.rule} {f.message}" for f in result.findings if f.severity == "error"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from(TRICKY), st.characters()), max_size=8))
def test_an_accepted_document_id_makes_a_batch_validate_accepts(doc: str) -> None:
    """Whatever ``doc_id_problem`` lets through, validate takes (LP034 aside: the batch waits
    for its verdict)."""
    if written.doc_id_problem(doc) is not None:
        return
    text = with_batch(("doc-z#1", doc) if doc != "doc-z#1" else (doc,))
    assert [e for e in errors(text) if not e.startswith("LP034")] == []
    kwargs = {"schema_file": SCHEMA, "max_bytes": BOUND, "max_depth": 32}
    assert written.first_new_error(LABEL, text, **kwargs) is None


def test_document_id_problems() -> None:
    problem = written.doc_id_problem
    assert problem("doc-a#1") is None
    assert problem("caf\u00e9") is None
    assert problem("") == "is empty"
    assert problem("a\u00a0b") == "holds whitespace U+00A0 (LP020: a document id has none)"
    assert problem("a\rb") == "holds whitespace U+000D (LP020: a document id has none)"
    assert problem("a\x1bb") == "holds the control character U+001B (LP003)"
    assert problem("a\x85b") == "holds whitespace U+0085 (NEL) (LP020: a document id has none)"
    assert problem("a\u202eb") == "holds the bidirectional control U+202E (LP004)"
    assert problem("e\u0301") == "is not in Unicode NFC form (LP024)"


def test_first_new_error_ignores_what_the_file_had_before() -> None:
    """An error the file had already (here LP004 in the question) is not the batch's."""
    marked = LABEL.replace("my parcel", "my \u202eparcel")
    assert errors(marked)[0].startswith("LP004")
    new = with_batch(("doc-z#1",), marked)
    kwargs = {"schema_file": SCHEMA, "max_bytes": BOUND, "max_depth": 32}
    assert written.first_new_error(marked, new, **kwargs) is None
    found = written.first_new_error(None, new, **kwargs)
    assert found is not None and (found.line, found.rule) == (2, "LP004")


def test_first_new_error_reports_a_new_one_at_its_place() -> None:
    new = with_batch(("doc-z#1",)).replace("depth: 5", "depth: 5000000000")
    found = written.first_new_error(LABEL, new, schema_file=SCHEMA, max_bytes=BOUND, max_depth=32)
    assert found is not None
    assert (found.line, found.col, found.rule) == (15, 12, "LP042")


def test_first_new_error_size_bound_first(tmp_path: Path) -> None:
    new = with_batch(("doc-z#1",))
    found = written.first_new_error(LABEL, new, schema_file=SCHEMA, max_bytes=100, max_depth=32)
    assert found is not None
    assert (found.line, found.col, found.rule) == (1, 1, "LP001")
    assert found.message == f"the file would have {len(new.encode())} bytes; the bound is 100"


VERDICTS = st.one_of(
    st.sampled_from(["relevant", "irrelevant", "null", "RELEVANT", "{}", "[]", "'x'"]),
    st.integers(-2, 10**7).map(str),
    st.sampled_from([10**6, 10**6 + 1, 10**20]).map(str),
    st.sampled_from(["doc-z#1", "doc-y#1", "doc-a#1", "'a b'", "''", '"\\e"']).map(
        lambda d: f"{{duplicate-of: {d}}}"
    ),
)


@settings(max_examples=150, deadline=None)
@given(VERDICTS)
@example("{duplicate-of: doc-z#1}")
def test_first_new_error_agrees_with_validate_on_a_verdict(token: str) -> None:
    """A verdict token written into a batch: ``first_new_error`` finds an error exactly when
    validate's rules do (LP034 aside), the self-duplicate (LP035) included: 0.2's fast path
    took ``{duplicate-of: <itself>}`` as valid (the schema cannot see it)."""
    text = with_batch(("doc-z#1", "doc-y#1"))
    line = "{doc: doc-z#1, verdict: null}"
    assert line in text
    text = text.replace(line, f"{{doc: doc-z#1, verdict: {token}}}")
    found = written.first_new_error(LABEL, text, schema_file=SCHEMA, max_bytes=BOUND, max_depth=32)
    refused = [e for e in errors(text) if not e.startswith("LP034")]
    assert (found is None) == (not refused), (token, found, refused)
    if token == "{duplicate-of: doc-z#1}":
        assert found is not None and found.rule == "LP035"


def test_text_problems() -> None:
    assert written.text_problem("tabs\tand\nlines\r") is None
    assert written.text_problem("caf\u00e9 \u4e2d") is None
    assert written.text_problem("a\x1b[31m") == "holds the control character U+001B (LP003)"
    assert written.text_problem("a\x85") == "holds the control character U+0085 (NEL) (LP003)"
    assert written.text_problem("a\u2066b") == "holds the bidirectional control U+2066 (LP004)"
