"""Property: whatever ``import`` (every format) and ``add`` are given, they either refuse it,
naming the input's file (and a line that exists in it) and writing nothing, or everything
they write passes ``labelpool validate``.

Hostile input is drawn from ids and texts with control, bidirectional, line-break and
whitespace characters, non-NFC text, YAML indicators and resolver words, ``#``, empty
fields, long ids and texts, and grades near and past LP042's bound (negative, 10^20, forms
``int()`` reads and trec_eval does not). 0.2.0-dev (issue 29): ``import trec`` wrote a grade
of 10^20 and questions with escapes ``validate`` refuses; these properties failed on it at
once. Derandomized, a few dozen examples a format (about 20 s of the suite).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.hostile.labels_scenario import cli, make_repo

from labelpool.corpus import CorpusTexts

SETTINGS = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _mostly(
    good: st.SearchStrategy[str], hostile: st.SearchStrategy[str]
) -> st.SearchStrategy[str]:
    """``good`` eight times in ten, else ``hostile``: with a hostile value in every field,
    nearly every input would be refused at its first line and the writing never tried."""
    return st.integers(0, 9).flatmap(lambda i: good if i < 8 else hostile)


_PIECES = st.sampled_from(
    [
        *"aZ09._-#:'\"{}[]&*!|>%@` ",
        *("\t", "\n", "\r", "\x00", "\x1b", "\x7f", "\x85", "\x9b", "\x1c", "\u00a0"),
        *("\u2028", "\u2029", "\u202e", "\u2066", "\u200e", "\u061c", "\ufeff"),
        *("\u0301", "\u00e9", "e\u0301", "\U0001f600", "\\", "<<<<<<< ", "\ud800"),
    ]
)
_WORDS = st.sampled_from(["", " ", "#", "# x", "yes", "no", "0o17", "1e3", "2026-06-02", "~"])
_PLAIN = st.text(st.sampled_from("ab ?\u00e9\u4e2d-"), min_size=1, max_size=20)
TEXT = st.one_of(
    _PLAIN,
    st.lists(_PIECES, max_size=14).map("".join),
    _WORDS,
    st.integers(900, 1100).map(lambda n: "w" * n),
    st.integers(1, 3).map(lambda n: "long " * (60_000 * n)),
)
_GOOD_ID = st.one_of(
    st.sampled_from(["q1", "q2", "d1", "d2", "doc-a#1"]),
    st.from_regex(r"[a-z][a-z0-9._-]{0,5}", fullmatch=True),
)
ID = st.one_of(
    _GOOD_ID,
    st.lists(_PIECES, min_size=1, max_size=8).map("".join),
    _WORDS,
    st.integers(100, 400).map(lambda n: "Q" * n),
    st.integers(1, 3).map(lambda n: "d" * (500_000 * n)),
)
GRADE = _mostly(
    st.integers(-3, 5).map(str),
    st.sampled_from(
        [
            *("1000000", "1000001", "-1000000", "-1000001", "100000000000000000000"),
            *("-100000000000000000000", "1_000", "+1", "\u0663", "1.5", "#", "", "9" * 30),
        ]
    ),
)


_QID = _mostly(_GOOD_ID, ID)
_DOC = _mostly(_GOOD_ID, ID)
RECORDS = st.lists(st.tuples(_QID, _DOC, GRADE), min_size=1, max_size=3)
QUESTIONS = st.lists(st.tuples(_QID, _mostly(_PLAIN, TEXT)), max_size=2)
ERROR_RE = re.compile(r"error: (?P<path>[^:\n]+?)(?::(?P<line>\d+))?(?::(?P<col>\d+))?: ")

Records = list[tuple[str, str, str]]  # (question id, document id, grade as written)
Questions = list[tuple[str, str]]  # (question id, text)
Command = tuple[list[str], list[str]]  # the arguments, the input files they name
Build = Callable[[Path, Records, Questions], Command]  # writes a format's input files


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))


def _texts(records: Records, questions: Questions) -> Questions:
    """The questions, and a plain text for each judged question without one."""
    named = {qid for qid, _ in questions}
    return questions + [
        (qid, "What?") for qid in dict.fromkeys(r[0] for r in records) if qid not in named
    ]


def _trec_tsv(root: Path, records: Records, questions: Questions) -> Command:
    _write(root / "in.qrels", "".join(f"{q} 0 {d} {g}\n" for q, d, g in records))
    _write(root / "q.tsv", "".join(f"{q}\t{t}\n" for q, t in _texts(records, questions)))
    return ["import", "trec", "in.qrels", "--queries", "q.tsv"], ["in.qrels", "q.tsv"]


def _trec_jsonl(root: Path, records: Records, questions: Questions) -> Command:
    _write(root / "in.qrels", "".join(f"{q} 0 {d} {g}\n" for q, d, g in records))
    lines = [json.dumps({"id": q, "text": t}) for q, t in _texts(records, questions)]
    _write(root / "q.jsonl", "".join(line + "\n" for line in lines))
    return ["import", "trec", "in.qrels", "--queries", "q.jsonl"], ["in.qrels", "q.jsonl"]


def _trec_json(root: Path, records: Records, questions: Questions) -> Command:
    _write(root / "in.qrels", "".join(f"{q} 0 {d} {g}\n" for q, d, g in records))
    items = [{"id": q, "text": t} for q, t in _texts(records, questions)]
    _write(root / "q.json", json.dumps(items, indent=1))
    return ["import", "trec", "in.qrels", "--queries", "q.json"], ["in.qrels", "q.json"]


def _beir(root: Path, records: Records, questions: Questions) -> Command:
    lines = [json.dumps({"_id": q, "text": t}) for q, t in _texts(records, questions)]
    _write(root / "beir" / "queries.jsonl", "".join(line + "\n" for line in lines))
    tsv = "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in records)
    _write(root / "beir" / "qrels" / "test.tsv", tsv)
    return ["import", "beir", "beir"], ["beir/queries.jsonl", "beir/qrels/test.tsv"]


def _jsonl(root: Path, records: Records, questions: Questions) -> Command:
    texts = dict(_texts(records, questions))
    lines = []
    for qid in dict.fromkeys(r[0] for r in records):
        docs = [d for q, d, g in records if q == qid]
        judged = [d for q, d, g in records if q == qid and g.lstrip("-").isdigit()]
        record = {"id": qid, "question": texts[qid], "relevant_doc_ids": docs[:1]}
        lines.append(json.dumps({**record, "judged_ids": judged}))
    _write(root / "in.jsonl", "".join(line + "\n" for line in lines))
    return ["import", "jsonl", "in.jsonl"], ["in.jsonl"]


FORMATS: list[Build] = [_trec_tsv, _trec_jsonl, _trec_json, _beir, _jsonl]


def _lines_of(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8", "replace").removeprefix("\ufeff").split("\n")


def _holds(
    capsys: pytest.CaptureFixture[str], root: Path, args: list[str], inputs: list[str]
) -> None:
    """The property: refused (exit 1 or 2, one ``error:`` line naming an input and a line
    and column that exist in it, no label file) or written and valid."""
    code, _, err = cli(capsys, root, *args)
    event("written" if code == 0 else "refused")
    if code == 0:
        vcode, vout, verr = cli(capsys, root, "validate")
        assert vcode == 0, (args, vout, verr)
        return
    assert code in (1, 2), err
    assert list((root / "labels").iterdir()) == [], err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    if not inputs:
        return
    found = ERROR_RE.match(err)
    assert found is not None and found["path"] in inputs, err
    if found["line"] is not None:
        lines = _lines_of(root / found["path"])
        line = int(found["line"])
        assert 1 <= line <= len(lines), err
        if found["col"] is not None:
            assert 1 <= int(found["col"]) <= len(lines[line - 1]) + 1, err


@pytest.mark.parametrize("build", FORMATS, ids=lambda b: b.__name__.strip("_"))
@given(records=RECORDS, questions=QUESTIONS)
@SETTINGS
def test_import_refuses_naming_its_input_or_writes_what_validates(
    capsys: pytest.CaptureFixture[str],
    build: Build,
    records: Records,
    questions: Questions,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = make_repo(Path(tmp), {})
        args, inputs = build(root, records, questions)
        _holds(capsys, root, args, inputs)


@given(qid=ID, text=TEXT)
@SETTINGS
def test_add_refuses_or_writes_what_validates(
    capsys: pytest.CaptureFixture[str], qid: str, text: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = make_repo(Path(tmp), {})
        _holds(capsys, root, ["add", "--", qid, text], [])


@given(docs=st.lists(st.tuples(ID, TEXT), min_size=1, max_size=3))
@SETTINGS
def test_import_corpus_refuses_naming_its_input_or_writes_a_corpus_that_reads(
    capsys: pytest.CaptureFixture[str], docs: list[tuple[str, str]]
) -> None:
    """The corpus is not a label file; what it must hold is a file the corpus reader takes,
    every document by its id."""
    with tempfile.TemporaryDirectory() as tmp:
        root = make_repo(Path(tmp), {}, config='corpus = "corpus/corpus.jsonl"\n')
        _write(
            root / "docs.jsonl", "".join(json.dumps({"_id": d, "text": t}) + "\n" for d, t in docs)
        )
        code, _, err = cli(capsys, root, "import", "corpus", "docs.jsonl", "--format", "jsonl")
        if code != 0:
            assert code in (1, 2) and err.startswith("error: docs.jsonl:"), err
            assert not (root / "corpus" / "corpus.jsonl").exists()
            return
        texts = CorpusTexts(root / "corpus" / "corpus.jsonl")
        assert [texts[d].text for d, _ in docs] == [t for _, t in docs]
