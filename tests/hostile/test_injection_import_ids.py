"""Document ids holding control or bidirectional characters, from qrels into label files.

0.1.0's ``import trec`` wrote such an id escaped in double quotes (``"doc\\eevil"``), exit 0;
``validate`` then accepted the file (no raw control byte left in it), while every run reader
refuses the same id (``document id 'doc\\x1bevil' holds the control character U+001B``): a
label set no run could ever be scored against, and text that a terminal would run once a
renderer unescaped it. ``import`` (trec, beir, jsonl) now applies the rule ``pool`` applies
before it writes (``rules.written.doc_id_problem``), naming the file, line and column, and
writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, make_repo

CASES = [
    ("doc\x1bevil", "holds the control character U+001B (LP003)"),
    ("doc\x85nel", "holds whitespace U+0085 (NEL) (LP020: a document id has none)"),
    ("doc\u202eevil", "holds the bidirectional control U+202E (LP004)"),
    ("doc\u0301x", "is not in Unicode NFC form (LP024)"),
]


@pytest.mark.parametrize(("doc", "problem"), CASES)
def test_import_trec_refuses_the_id_naming_the_qrels_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: str, problem: str
) -> None:
    """0.1.0: exit 0, ``imported 1 question(s)``; the label held the id escaped."""
    root = make_repo(tmp_path, {})
    (root / "in.qrels").write_text(f"q1 0 fine 0\nq1  0 {doc} 1\n", encoding="utf-8")
    (root / "q.tsv").write_text("q1\tWhat?\n", encoding="utf-8")
    code, out, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert (code, out) == (1, "")
    assert err == f"error: in.qrels:2:7: document id {doc!a} {problem}; nothing written\n"
    assert "\x1b" not in err and "\u202e" not in err
    assert list((root / "labels").iterdir()) == []


def test_import_beir_and_jsonl_refuse_it_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: both exit 0, the id written escaped."""
    root = make_repo(tmp_path, {})
    beir = root / "beir"
    (beir / "qrels").mkdir(parents=True)
    (beir / "queries.jsonl").write_text('{"_id": "q1", "text": "What?"}\n')
    qrels = "query-id\tcorpus-id\tscore\nq1\tok\t1\nq1\tb\x1bx\t1\n"
    (beir / "qrels" / "test.tsv").write_text(qrels)
    code, out, err = cli(capsys, root, "import", "beir", "beir")
    assert (code, out) == (1, "")
    assert err == (
        "error: beir/qrels/test.tsv:3:4: document id 'b\\x1bx' holds the control character "
        "U+001B (LP003); nothing written\n"
    )
    record = {"id": "q1", "question": "What?", "relevant_doc_ids": ["ok", "b\x1bx"]}
    (root / "in.jsonl").write_text(json.dumps(record) + "\n")
    code, out, err = cli(capsys, root, "import", "jsonl", "in.jsonl")
    assert (code, out) == (1, "")
    assert err == (
        "error: in.jsonl:1:1: document id 'b\\x1bx' holds the control character U+001B "
        "(LP003); nothing written\n"
    )
    assert list((root / "labels").iterdir()) == []
