"""``import`` of what real collections ship: qrels with ``#`` comment lines, questions as a JSON
list or TREC CAsT's nested topics (``--text-field``), and ``import corpus`` (TREC, JSON Lines,
BEIR) into the configured corpus file. Every error names the file and line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from labelpool import config, corpus, yamlfile
from labelpool.cli import main

CORPUS_CONFIG = 'corpus = "corpus/corpus.jsonl"\n'


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def label(repo: Path, qid: str) -> dict[str, object]:
    data = yamlfile.load_fast(repo / "labels" / f"{qid}.yaml")
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------- qrels comments


def test_qrels_comment_lines_are_skipped_anywhere(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: ``expected 4 fields `qid iter doc grade`, found 3`` at the first comment (exit 1).
    trec_eval 10 reads one comment line between judgments; labelpool reads any number, also
    two in a row and one as the last line (where trec_eval fails)."""
    qrels = tmp_path / "in.qrels"
    qrels.write_text(
        "# CAsT-style header\n# two in a row\nq1 0 d1 1\n# between\nq1 0 d2 0\n#\n#last\n"
    )
    queries = tmp_path / "q.tsv"
    queries.write_text("q1\tWhat?\n")
    code, _out, err = run(
        capsys, "import", "trec", str(qrels), "--queries", str(queries), "--repo", str(repo)
    )
    assert (code, err) == (0, "")
    assert label(repo, "q1")["judged_ids"] == ["d1", "d2"]
    assert label(repo, "q1")["relevant_doc_ids"] == ["d1"]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            "q1 0 d1 1\n  # indented\n",
            ":2:1:",
            "expected 4 fields `qid iter doc grade`, found 2 (a comment line starts with `#` "
            "in its first column)",
        ),
        (
            "q1 0 d1 1 # trailing\n",
            ":1:1:",
            "expected 4 fields `qid iter doc grade`, found 6 (a comment line starts with `#` "
            "in its first column)",
        ),
        ("# only a comment\n", ":1:1:", "no `qid iter doc grade` line (an empty qrels file)"),
    ],
)
def test_what_trec_eval_refuses_is_refused_naming_the_line(
    repo: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    where: str,
    message: str,
) -> None:
    qrels = tmp_path / "in.qrels"
    qrels.write_text(text)
    queries = tmp_path / "q.tsv"
    queries.write_text("q1\tWhat?\n")
    code, _, err = run(
        capsys, "import", "trec", str(qrels), "--queries", str(queries), "--repo", str(repo)
    )
    assert (code, err) == (1, f"error: {qrels}{where} {message}\n")
    assert list((repo / "labels").iterdir()) == []


# --------------------------------------------------------------------------- JSON questions

NESTED = """\
[
  {"number": 7, "turn": [
    {"number": 1, "raw_utterance": "raw one", "manual_rewritten_utterance": "manual  one",
     "automatic_rewritten_utterance": "auto one"},
    {"number": 2, "raw_utterance": "raw two",
     "automatic_rewritten_utterance": "auto two"}
  ]},
  {"number": "8", "turn": [{"number": 1, "raw_utterance": "raw eight"}]}
]
"""


def _import_json(
    capsys: pytest.CaptureFixture[str], repo: Path, tmp_path: Path, topics: str, *extra: str
) -> tuple[int, str, str]:
    qrels = tmp_path / "in.qrels"
    qrels.write_text("7_1 0 d1 1\n7_2 0 d2 1\n8_1 0 d3 0\n")
    path = tmp_path / "topics.json"
    path.write_text(topics)
    return run(
        capsys,
        "import",
        "trec",
        str(qrels),
        "--queries",
        str(path),
        *extra,
        "--repo",
        str(repo),
    )


def test_cast_nested_topics_manual_else_raw(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: the file's first character ``[`` made it a TSV: ``expected `qid<TAB>text```."""
    code, _out, err = _import_json(capsys, repo, tmp_path, NESTED)
    assert (code, err) == (0, ""), err
    assert label(repo, "7_1")["question"] == "manual one"
    assert label(repo, "7_2")["question"] == "raw two"
    assert label(repo, "8_1")["question"] == "raw eight"


def test_text_field_chooses_the_utterance(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    topics = NESTED.replace('"raw eight"', '"raw eight", "automatic_rewritten_utterance": "a8"')
    code, _, err = _import_json(
        capsys, repo, tmp_path, topics, "--text-field", "automatic_rewritten_utterance"
    )
    assert (code, err) == (0, "")
    assert [label(repo, q)["question"] for q in ("7_1", "7_2", "8_1")] == [
        "auto one",
        "auto two",
        "a8",
    ]


def test_a_turn_without_the_field_names_its_line(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "topics.json"
    code, _, err = _import_json(
        capsys, repo, tmp_path, NESTED, "--text-field", "automatic_rewritten_utterance"
    )
    assert code == 1
    assert err == f"error: {path}:8:1: turn 8_1 has no `automatic_rewritten_utterance`\n"
    assert list((repo / "labels").iterdir()) == []


@pytest.mark.parametrize(
    ("topics", "where", "message"),
    [
        (
            '[\n  {"number": 7, "turn": [\n    {"number": 1}\n  ]}\n]\n',
            ":3:1:",
            "turn 7_1 has no `manual_rewritten_utterance` or `raw_utterance`",
        ),
        (
            '[\n  {"number": 7, "turn": [{"number": 1, "raw_utterance": "x"},\n'
            '  {"number": 1, "raw_utterance": "y"}]}]\n',
            ":3:1:",
            "question '7_1' appears twice",
        ),
        (
            '[\n  {"number": 7, "turn": [\n    {"number": 1, "raw_utterance": "x",}\n  ]}\n]\n',
            ":3:40:",
            "invalid JSON: Expecting property name enclosed in double quotes",
        ),
        (
            '[{"number": 7.5, "turn": []}]',
            ":1:1:",
            "`number` must be a string or an integer, not 7.5",
        ),
        (
            '[\n{"qid": "7_1", "text": "a"},\n{"text": "b"}\n]',
            ":3:1:",
            "expected a question id: `qid`, `id` or `_id`",
        ),
        (
            '[\n{"qid": "7_1", "text": ""}\n]',
            ":2:1:",
            "question '7_1': `text` must be a non-empty string",
        ),
        ("[]", ":1:1:", "expected a non-empty JSON list of questions or of CAsT topics"),
        (
            '{\n  "q": [{"qid": "7_1", "text": "a"}]\n}\n',
            ":1:1:",
            "one JSON object over many lines; expected JSON Lines (one question object a line) "
            "or a JSON list of questions",
        ),
    ],
)
def test_bad_json_questions_name_file_and_line(
    repo: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    topics: str,
    where: str,
    message: str,
) -> None:
    code, _, err = _import_json(capsys, repo, tmp_path, topics)
    assert (code, err) == (1, f"error: {tmp_path / 'topics.json'}{where} {message}\n")


def test_flat_json_list_and_jsonl_take_qid_id_or__id(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flat = json.dumps(
        [
            {"qid": "7_1", "text": "first"},
            {"id": "7_2", "query": "second", "other": 1},
            {"_id": "8_1", "text": "third", "query": "not this"},
        ]
    )
    code, _, err = _import_json(capsys, repo, tmp_path, flat)
    assert (code, err) == (0, "")
    assert [label(repo, q)["question"] for q in ("7_1", "7_2", "8_1")] == [
        "first",
        "second",
        "third",
    ]
    jsonl = '{"_id": "7_1", "title": "t1", "text": "a"}\n{"id": "7_2", "title": "t2"}\n'
    jsonl += '{"qid": 8, "title": "t3"}\n'
    (tmp_path / "q.jsonl").write_text(jsonl)
    qrels = tmp_path / "b.qrels"
    qrels.write_text("7_2 0 d2 1\n")
    code, _, err = run(
        capsys,
        *("import", "trec", str(qrels), "--queries", str(tmp_path / "q.jsonl")),
        *("--text-field", "title", "--force", "--repo", str(repo)),
    )
    assert (code, err) == (0, "")
    assert label(repo, "7_2")["question"] == "t2"


def test_text_field_on_a_tsv_is_a_usage_error(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = tmp_path / "in.qrels"
    qrels.write_text("q1 0 d1 1\n")
    queries = tmp_path / "q.tsv"
    queries.write_text("q1\tWhat?\n")
    code, _, err = run(
        capsys,
        *("import", "trec", str(qrels), "--queries", str(queries)),
        *("--text-field", "title", "--repo", str(repo)),
    )
    assert code == 2
    assert err == (
        f"error: {queries}: --text-field applies to JSON and JSON Lines questions; "
        "this file reads as TSV `qid<TAB>text`\n"
    )


# --------------------------------------------------------------------------- import corpus


def _corpus_repo(repo: Path) -> Path:
    with (repo / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write(CORPUS_CONFIG)
    return repo


def test_vaswani_trec_corpus_becomes_the_configured_file(
    repo: Path, vaswani_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corpus_repo(repo)
    source = vaswani_dir / "corpus"
    code, out, err = run(
        capsys, "import", "corpus", str(source), "--format", "trec", "--repo", str(repo)
    )
    target = repo / "corpus" / "corpus.jsonl"
    assert (code, err) == (0, "")
    assert out == f"wrote {target}: 11,429 documents\n"  # (relative when under the cwd)
    texts = corpus.load_texts(config.load(repo))
    assert len(texts) == 11429
    first = texts["1"]
    assert first.text.startswith("compact memories have flexible capacities a digital data")
    assert "<" not in first.text and "DOCNO" not in first.text
    lines = target.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"_id": "1", "title": "", "text": first.text}
    # a second import refuses to overwrite; --force replaces
    before = target.read_bytes()
    code, out, err = run(
        capsys, "import", "corpus", str(source), "--format", "trec", "--repo", str(repo)
    )
    assert (code, out) == (1, "")
    assert err == (
        f"error: {target}: the corpus file exists already; nothing written "
        "(use --force to replace it)\n"
    )
    assert target.read_bytes() == before
    one = repo.parent / "one.trec"
    one.write_text(
        "<DOC>\n<DOCNO> x-1 </DOCNO>\n<TEXT>a &amp; <b>b</b></TEXT>\n</DOC>\n"
        "<doc><DOCNO>x-2</DOCNO>one line</doc>  <DOC>\n<DOCNO>x-3</DOCNO></DOC>\n"
    )
    code, out, _ = run(
        capsys, "import", "corpus", str(one), "--format", "trec", "--force", "--repo", str(repo)
    )
    assert code == 0 and out.startswith("replaced ")
    assert target.read_text() == (
        '{"_id": "x-1", "title": "", "text": "a & b"}\n'
        '{"_id": "x-2", "title": "", "text": "one line"}\n'
        '{"_id": "x-3", "title": "", "text": ""}\n'
    )


def test_jsonl_and_beir_sources_gzip_and_other_keys(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corpus_repo(repo)
    target = repo / "corpus" / "corpus.jsonl"
    src = tmp_path / "docs.jsonl.gz"
    with gzip.open(src, "wt", encoding="utf-8") as handle:
        handle.write('{"docid": "d1", "contents": "é text", "lang": "fr"}\n\n')
        handle.write('{"id": 2, "title": "T", "body": "two"}\n')
    code, _, err = run(
        capsys, "import", "corpus", str(src), "--format", "jsonl", "--repo", str(repo)
    )
    assert (code, err) == (0, "")
    assert [json.loads(x) for x in target.read_text(encoding="utf-8").splitlines()] == [
        {"_id": "d1", "title": "", "text": "é text", "lang": "fr"},
        {"_id": "2", "title": "T", "text": "two"},
    ]
    beir = tmp_path / "beir"
    beir.mkdir()
    (beir / "corpus.jsonl").write_text(
        '{"_id": "b1", "title": null, "text": "x", "metadata": {"url": "u"}}\n'
    )
    code, _, err = run(
        capsys, "import", "corpus", str(beir), "--format", "beir", "--force", "--repo", str(repo)
    )
    assert (code, err) == (0, "")
    assert json.loads(target.read_text()) == {
        "_id": "b1",
        "title": "",
        "text": "x",
        "metadata": {"url": "u"},
    }


@pytest.mark.parametrize(
    ("fmt", "text", "where", "message"),
    [
        (
            "trec",
            "<DOC>\n<TEXT>x</TEXT>\n</DOC>\n",
            ":1:1:",
            "a <DOC> needs one <DOCNO>...</DOCNO>, this one has 0",
        ),
        (
            "trec",
            "<DOC>\n<DOCNO>a</DOCNO>\n</DOC>\n<DOC>\n<DOCNO>a</DOCNO>\n</DOC>\n",
            ":4:1:",
            "document 'a' appears twice (first at line 1); nothing written",
        ),
        (
            "trec",
            "<DOC>\n<DOCNO>a\x1bb</DOCNO>\n</DOC>\n",
            ":2:1:",
            "document id 'a\\x1bb' holds the control character U+001B (LP003); nothing written",
        ),
        ("trec", "<DOC>\n<DOCNO>a</DOCNO>\n", ":1:1:", "the <DOC> opened here has no </DOC>"),
        (
            "trec",
            "hello\n",
            ":1:1:",
            "text outside a <DOC> ... </DOC> block",
        ),
        (
            "trec",
            "<DOC><DOCNO>a</DOCNO></DOC> x\n",
            ":1:29:",
            "text outside a <DOC> ... </DOC> block",
        ),
        ("trec", "<DOC>\n<DOC>\n", ":2:1:", "<DOC> inside the <DOC> opened on line 1"),
        ("trec", "  </DOC>\n", ":1:3:", "</DOC> without its <DOC>"),
        (
            "jsonl",
            '{"_id": "a", "text": "x"}\n{"_id": "b"}\n',
            ":2:1:",
            "document 'b' has no `text` or `contents` or `body`",
        ),
        (
            "jsonl",
            '{"_id": "a b", "text": "x"}\n',
            ":1:1:",
            "document id 'a b' holds whitespace U+0020 (LP020: a document id has none); "
            "nothing written",
        ),
        ("beir", '{"id": "a", "text": "x"}\n', ":1:1:", "a document without `_id`"),
        ("jsonl", '{"_id": "a", "text": "x"\n', ":1:25:", "invalid JSON: Expecting ',' delimiter"),
    ],
)
def test_bad_corpus_names_file_and_line_and_writes_nothing(
    repo: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    text: str,
    where: str,
    message: str,
) -> None:
    _corpus_repo(repo)
    src = tmp_path / "src.txt"
    src.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", "corpus", str(src), "--format", fmt, "--repo", str(repo))
    assert (code, out) == (1, "")
    assert err == f"error: {src}{where} {message}\n"
    assert not (repo / "corpus").exists() or list((repo / "corpus").iterdir()) == []


def test_no_corpus_configured_is_a_usage_error(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "c.jsonl"
    src.write_text('{"_id": "a", "text": "x"}\n')
    code, _, err = run(
        capsys, "import", "corpus", str(src), "--format", "jsonl", "--repo", str(repo)
    )
    assert code == 2
    assert err == (
        f"error: {repo / 'pyproject.toml'}: no corpus is configured: add "
        '`corpus = "corpus/corpus.jsonl"` under [tool.labelpool] in pyproject.toml, then run '
        "this again\n"
    )
