"""``rules.written``: what ``pool`` writes into a label file, validate accepts."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from labelpool import batch
from labelpool.labelfile import NewLabel, PoolEntry, label_file_text
from labelpool.rules import written
from labelpool.rules.check import check_bytes
from labelpool.schemas import PACKAGE_DATA
from labelpool.yamlfile import YamlError, loads_checked

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


def test_text_problems_of_a_note() -> None:
    assert written.text_problem("tabs\tand\nlines\r") is None
    assert written.text_problem("caf\u00e9 \u4e2d") is None
    assert written.text_problem("a\x1b[31m") == "holds the control character U+001B (LP003)"
    assert written.text_problem("a\x85") == "holds the control character U+0085 (NEL) (LP003)"
    assert written.text_problem("a\u2066b") == "holds the bidirectional control U+2066 (LP004)"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from(TRICKY), st.characters()), max_size=12))
def test_an_accepted_question_text_makes_a_label_validate_accepts(text: str) -> None:
    """Whatever ``text_problem`` lets through (``import`` and ``add`` collapse whitespace
    first), written as a question, validate takes; what it refuses, validate refuses once it
    reads an escape as its character (issue 29, finding 5) or cannot hold (a surrogate)."""
    question = " ".join(text.split())
    if written.text_problem(question) is not None:
        return
    label = NewLabel("q1", question, relevant=("d1",), judged=("d1",), pool=PoolEntry("s", 1, None))
    assert errors(label_file_text(label)) == []


def test_text_problems() -> None:
    problem = written.text_problem
    assert problem("Where is my parcel?") is None
    assert problem("caf\u00e9 \u4e2d \U0001f600 a\tb") is None
    assert problem("a\x1b[31mb") == "holds the control character U+001B (LP003)"
    assert problem("a\x9bb") == "holds the control character U+009B (LP003)"
    assert problem("a\x00b") == "holds the control character U+0000 (NUL) (LP003)"
    assert problem("a\u2066b") == "holds the bidirectional control U+2066 (LP004)"
    assert problem("a\ud800b") == "holds the lone surrogate U+D800: not UTF-8 (LP002)"


@settings(max_examples=200, deadline=None)
@given(st.integers(-(10**22), 10**22) | st.integers(-1_000_002, 1_000_002))
def test_grade_problem_is_lp042(grade: int) -> None:
    """A grade ``grade_problem`` takes is one LP042 takes in ``grades`` (and the other way)."""
    text = LABEL.replace("pool:", f"grades:\n  doc-a#1: {abs(grade)}\npool:")
    refused = any(e.startswith("LP042") for e in errors(text))
    assert (written.grade_problem(grade) is not None) == refused or abs(grade) < 2
    assert (written.grade_problem(grade) is None) == (abs(grade) <= 1_000_000)


_MUTATIONS = [
    lambda t: t,
    lambda t: t.replace("Where", "Wh\x1bere"),
    lambda t: t.replace("Where", "Wh\u202eere"),
    lambda t: t.replace("Where", "Wh\rere"),
    lambda t: t + "<<<<<<< HEAD\n",
    lambda t: "%YAML 1.1\n---\n" + t,
    lambda t: t.replace("k: 2", "k: 5000000000"),
    lambda t: t.replace("k: 2", "k: 0"),
    lambda t: t.rstrip("\n"),
    lambda t: t + "x" * 300,
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(range(len(_MUTATIONS))), st.booleans()), max_size=6))
def test_first_error_of_new_is_first_new_error_of_each(picks: list[tuple[int, bool]]) -> None:
    """The batch form (the text rules over all texts joined, the data given or read) names
    the first text ``first_new_error`` refuses, with the same finding."""
    kwargs = {"schema_file": SCHEMA, "max_bytes": 400, "max_depth": 32}
    news: list[tuple[str, object]] = []
    for index, give_data in picks:
        text = _MUTATIONS[index](LABEL)
        data = None
        if give_data:
            try:
                data = loads_checked(text.encode("utf-8"))
            except YamlError:
                data = None
        news.append((text, data))
    expected = next(
        (
            (i, found)
            for i, (text, _) in enumerate(news)
            if (found := written.first_new_error(None, text, **kwargs)) is not None
        ),
        None,
    )
    assert written.first_error_of_new(news, **kwargs) == expected
