"""Question ids that differ only by case: on a case-insensitive disk (macOS, Windows) ``Q1.yaml``
and ``q1.yaml`` are one file, and one question's judgments replace the other's. ``import``
(trec, jsonl, beir) and ``add`` refuse them, naming both, writing nothing; also against the
label files already there.

Each docstring says what 0.1.0 did with the same input (on this case-sensitive disk).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import LABEL, cli, make_repo

WHY = "on a case-insensitive disk one label file would replace the other; nothing written"


def labels(root: Path) -> list[str]:
    return sorted(os.listdir(root / "labels"))


def trec(root: Path, qrels: str, queries: str) -> None:
    (root / "in.qrels").write_text(qrels, encoding="utf-8")
    (root / "q.tsv").write_text(queries, encoding="utf-8")


def test_import_trec_refuses_q1_and_Q1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, ``imported 2 question(s)``: ``Q1.yaml`` and ``q1.yaml`` written."""
    root = make_repo(tmp_path, {})
    trec(root, "Q1 0 doc-a 1\nq1 0 doc-b 1\n", "Q1\tUpper?\nq1\tLower?\n")
    code, out, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert (code, out) == (1, "")
    assert (
        err
        == f"error: in.qrels:2:1: question id 'q1' differs only by case from 'Q1' (line 1): {WHY}\n"
    )
    assert labels(root) == []


def test_import_trec_names_the_first_row_of_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rows of the two questions interleaved. 0.1.0: exit 0, ``imported 4 question(s)``:
    ``Q7.yaml`` and ``q7.yaml`` among them."""
    root = make_repo(tmp_path, {})
    trec(
        root, "a 0 d1 1\nQ7 0 d1 1\nQ7 0 d2 0\nb 0 d1 1\nq7 0 d3 1\n", "a\tA\nb\tB\nQ7\tU\nq7\tL\n"
    )
    code, _, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert code == 1
    assert (
        err
        == f"error: in.qrels:5:1: question id 'q7' differs only by case from 'Q7' (line 2): {WHY}\n"
    )
    assert labels(root) == []


def test_import_jsonl_refuses_q1_and_Q1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, ``Q1.yaml`` and ``q1.yaml`` written."""
    root = make_repo(tmp_path, {})
    rows = [
        {"id": "Q1", "question": "Upper?", "relevant_doc_ids": ["doc-a"]},
        {"id": "q1", "question": "Lower?", "relevant_doc_ids": ["doc-b"]},
    ]
    (root / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = cli(capsys, root, "import", "jsonl", "in.jsonl")
    assert (code, out) == (1, "")
    assert (
        err
        == f"error: in.jsonl:2:1: question id 'q1' differs only by case from 'Q1' (line 1): {WHY}\n"
    )
    assert labels(root) == []


def test_import_beir_refuses_q1_and_Q1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, ``Q1.yaml`` and ``q1.yaml`` written."""
    root = make_repo(tmp_path, {})
    (root / "beir" / "qrels").mkdir(parents=True)
    queries = [{"_id": "Q1", "text": "Upper?"}, {"_id": "q1", "text": "Lower?"}]
    (root / "beir" / "queries.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8"
    )
    (root / "beir" / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nQ1\tdoc-a\t1\nq1\tdoc-b\t1\n", encoding="utf-8"
    )
    code, out, err = cli(capsys, root, "import", "beir", "beir")
    assert (code, out) == (1, "")
    assert err == (
        f"error: beir/qrels/test.tsv:3:1: question id 'q1' differs only by case from 'Q1' "
        f"(line 2): {WHY}\n"
    )
    assert labels(root) == []


def test_import_refuses_a_clash_with_an_existing_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``labels/Q1.yaml`` exists; the qrels bring ``q1``. 0.1.0: exit 0, ``q1.yaml`` written
    beside it (one replaces the other on a case-insensitive disk)."""
    existing = LABEL.replace("id: q1", "id: Q1")
    root = make_repo(tmp_path, {"Q1.yaml": existing})
    trec(root, "q1 0 doc-a 1\n", "q1\tLower?\n")
    code, out, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert (code, out) == (1, "")
    assert err == (
        f"error: {root}/labels/Q1.yaml: question id 'q1' differs only by case from the label "
        f"file Q1.yaml: {WHY}\n"
    )
    assert labels(root) == ["Q1.yaml"]
    assert (root / "labels" / "Q1.yaml").read_text() == existing


def test_force_does_not_override_a_case_clash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0 (``--force``): exit 0, ``q1.yaml`` written beside ``Q1.yaml``, ``overwrote 1``.
    ``--force`` overwrites a question's own file, never another question's."""
    existing = LABEL.replace("id: q1", "id: Q1")
    root = make_repo(tmp_path, {"Q1.yaml": existing})
    trec(root, "q1 0 doc-a 1\n", "q1\tLower?\n")
    code, _, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv", "--force")
    assert code == 1
    assert "differs only by case from the label file Q1.yaml" in err
    assert labels(root) == ["Q1.yaml"]
    assert (root / "labels" / "Q1.yaml").read_text() == existing


def test_force_still_overwrites_the_same_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, ``overwrote 1`` (kept: the same id, the same file)."""
    root = make_repo(tmp_path)
    trec(root, "q1 0 doc-c 1\n", "q1\tAgain?\n")
    code, out, _ = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv", "--force")
    assert code == 0 and out.rstrip().endswith("overwrote 1")
    assert labels(root) == ["q1.yaml"]
    assert "doc-c" in (root / "labels" / "q1.yaml").read_text()


def test_add_refuses_Q1_beside_q1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, ``created labels/Q1.yaml`` beside ``q1.yaml``; then validate exit 1
    with LP023 on both files."""
    root = make_repo(tmp_path)
    code, out, err = cli(capsys, root, "add", "Q1", "Upper?")
    assert (code, out) == (1, "")
    assert err == (
        f"error: {root}/labels/q1.yaml: question id 'Q1' differs only by case from the label "
        f"file q1.yaml: {WHY}\n"
    )
    assert labels(root) == ["q1.yaml"]


def test_add_refuses_a_second_file_of_one_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``labels/q1.yml`` exists. 0.1.0: exit 0, ``created labels/q1.yaml``: two files for q1
    (LP023 afterwards)."""
    root = make_repo(tmp_path, {"q1.yml": LABEL})
    code, out, err = cli(capsys, root, "add", "q1", "Again?")
    assert (code, out) == (1, "")
    assert err == (
        f"error: {root}/labels/q1.yml: question 'q1' has a label file already (q1.yml); "
        "nothing written\n"
    )
    assert labels(root) == ["q1.yml"]


def test_add_of_a_new_question_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 (kept)."""
    root = make_repo(tmp_path)
    code, out, _ = cli(capsys, root, "add", "q2", "Another?")
    assert (code, out) == (0, "created labels/q2.yaml\n")  # relative to the working folder
    assert labels(root) == ["q1.yaml", "q2.yaml"]
