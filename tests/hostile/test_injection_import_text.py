"""Control and bidirectional characters in a question text, from every questions format and
``add``, and in ``--pool-system``.

0.2.0-dev (issue 29): ``import`` and ``add`` wrote such a text as a YAML escape
(``question: "What\\e[31m?"``), exit 0, a terminal escape waiting for the first renderer that
unescapes it, and a file ``validate`` refuses once it reads escapes as the characters they
stand for (issue 29, finding 5); a lone surrogate (``"\\ud800"`` in JSON) failed with an error
naming no input (``<output>:2:15: LP015 ...``); in ``import corpus`` it was a crash (exit 70).
Now each is refused before anything is written, naming the input's file and line (the rule
``validate`` applies: :func:`labelpool.rules.written.text_problem`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, make_repo

CHARS = [
    ("\x1b", "the control character U+001B (LP003)"),
    ("\x7f", "the control character U+007F (DEL) (LP003)"),
    ("\x9b", "the control character U+009B (LP003)"),
    ("\u202e", "the bidirectional control U+202E (LP004)"),
    ("\u2066", "the bidirectional control U+2066 (LP004)"),
]
SURROGATE = ("\ud800", "the lone surrogate U+D800: not UTF-8 (LP002)")


def _jsonl(obj: object) -> str:
    return json.dumps(obj) + "\n"


def _tsv(root: Path, text: str) -> tuple[list[str], str, str]:
    (root / "q.tsv").write_text(f"q0\tFine\nq1\t{text}\n", encoding="utf-8", errors="surrogatepass")
    return ["import", "trec", "in.qrels", "--queries", "q.tsv"], "q.tsv:2:1", "q1"


def _queries_jsonl(root: Path, text: str) -> tuple[list[str], str, str]:
    (root / "q.jsonl").write_text(_jsonl({"id": "q1", "text": text}), encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "q.jsonl"], "q.jsonl:1:1", "q1"


def _json_list(root: Path, text: str) -> tuple[list[str], str, str]:
    body = "[\n" + json.dumps({"id": "q1", "text": text}) + "\n]\n"
    (root / "q.json").write_text(body, encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "q.json"], "q.json:2:1", "q1"


def _cast(root: Path, text: str) -> tuple[list[str], str, str]:
    turn = {"number": 1, "manual_rewritten_utterance": text}
    (root / "cast.json").write_text(json.dumps([{"number": 7, "turn": [turn]}]), encoding="utf-8")
    (root / "in.qrels").write_text("7_1 0 d1 1\n", encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "cast.json"], "cast.json:1:1", "7_1"


def _topics(root: Path, text: str) -> tuple[list[str], str, str]:
    topics = (
        "<top>\n<num> Number: q0\n<title> Fine\n</top>\n\n"
        f"<top>\n<num> q1\n<title> {text}\n</top>\n"
    )
    (root / "topics.txt").write_text(topics, encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "topics.txt"], "topics.txt:6:1", "q1"


def _import_jsonl(root: Path, text: str) -> tuple[list[str], str, str]:
    record = {"id": "q1", "question": text, "relevant_doc_ids": ["d1"]}
    (root / "in.jsonl").write_text(_jsonl(record), encoding="utf-8")
    return ["import", "jsonl", "in.jsonl"], "in.jsonl:1:1", "q1"


def _beir(root: Path, text: str) -> tuple[list[str], str, str]:
    (root / "beir" / "qrels").mkdir(parents=True)
    (root / "beir" / "queries.jsonl").write_text(_jsonl({"_id": "q1", "text": text}))
    (root / "beir" / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    return ["import", "beir", "beir"], "beir/queries.jsonl:1:1", "q1"


Build = Callable[[Path, str], tuple[list[str], str, str]]
FORMATS: list[Build] = [_tsv, _queries_jsonl, _json_list, _cast, _topics, _import_jsonl, _beir]
JSON_FORMATS: list[Build] = [_queries_jsonl, _json_list, _cast, _import_jsonl, _beir]


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path, {})
    (root / "in.qrels").write_text("q1 0 d1 1\n", encoding="utf-8")
    return root


def _refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, build: Build, text: str, problem: str
) -> None:
    root = _repo(tmp_path)
    args, where, qid = build(root, text)
    code, out, err = cli(capsys, root, *args)
    assert (code, out) == (1, "")
    assert err == f"error: {where}: question {qid!r}: the text holds {problem}; nothing written\n"
    assert list((root / "labels").iterdir()) == []


@pytest.mark.parametrize("build", FORMATS, ids=lambda b: b.__name__.strip("_"))
@pytest.mark.parametrize(("char", "problem"), CHARS, ids=[c[1][:40] for c in CHARS])
def test_a_control_or_bidi_character_in_a_question_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], build: Build, char: str, problem: str
) -> None:
    """Before: exit 0, the character written as a YAML escape."""
    _refused(capsys, tmp_path, build, f"What{char}[31m?", problem)


@pytest.mark.parametrize("build", JSON_FORMATS, ids=lambda b: b.__name__.strip("_"))
def test_a_lone_surrogate_escape_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], build: Build
) -> None:
    """Before: exit 1, ``error: <output>:2:15: LP015 found invalid Unicode character escape
    code`` (the label text read back; no input named)."""
    _refused(capsys, tmp_path, build, f"What{SURROGATE[0]}?", SURROGATE[1])


@pytest.mark.parametrize("build", FORMATS, ids=lambda b: b.__name__.strip("_"))
def test_line_breaks_python_splits_at_become_spaces_and_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], build: Build
) -> None:
    """NEL, U+2028, U+2029 and the C0 separators are whitespace to the question's collapse:
    the text is written with a space and validates (no LP003 or LP041)."""
    root = _repo(tmp_path)
    args, _, qid = build(root, "What\x85is\u2028this\u2029and\x1cthat?")
    code, _, err = cli(capsys, root, *args)
    assert code == 0, err
    assert "question: What is this and that?\n" in (root / "labels" / f"{qid}.yaml").read_text()
    assert cli(capsys, root, "validate")[0] == 0


@pytest.mark.parametrize(("char", "problem"), CHARS, ids=[c[1][:40] for c in CHARS])
def test_add_refuses_the_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str, problem: str
) -> None:
    """Before: exit 0, ``created labels/q1.yaml`` with the escape in it."""
    root = make_repo(tmp_path, {})
    code, out, err = cli(capsys, root, "add", "q1", f"What{char}?")
    assert (code, out) == (2, "")
    assert err == f"error: the question text holds {problem}; nothing written\n"
    assert list((root / "labels").iterdir()) == []


def test_pool_system_with_an_escape_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 0, ``system: "bm\\e[31m25"`` written."""
    root = _repo(tmp_path)
    (root / "q.tsv").write_text("q1\tWhat?\n", encoding="utf-8")
    args = ["import", "trec", "in.qrels", "--queries", "q.tsv", "--pool-system", "bm\x1b[31m25"]
    code, out, err = cli(capsys, root, *args)
    assert (code, out) == (2, "")
    assert err == (
        "error: --pool-system 'bm\\x1b[31m25' holds the control character U+001B (LP003)\n"
    )
    assert list((root / "labels").iterdir()) == []


def test_import_corpus_refuses_a_lone_surrogate_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 70, ``internal error: UnicodeEncodeError``."""
    root = make_repo(tmp_path, {}, config='corpus = "corpus/corpus.jsonl"\n')
    lines = _jsonl({"_id": "d1", "text": "fine"}) + _jsonl({"_id": "d2", "text": "a\ud800b"})
    (root / "docs.jsonl").write_text(lines, encoding="utf-8")
    code, out, err = cli(capsys, root, "import", "corpus", "docs.jsonl", "--format", "jsonl")
    assert (code, out) == (1, "")
    assert err == (
        "error: docs.jsonl:2:1: a lone surrogate U+D800 (an escape UTF-8 cannot write); "
        "nothing written\n"
    )
    assert list((root / "corpus").iterdir()) == []  # the folder made, no file in it
