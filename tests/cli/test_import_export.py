"""``labelpool import trec|beir|jsonl``, ``export trec`` and ``add``: files, errors, round trip."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import config, labelset, yamlfile
from labelpool.cli import main
from labelpool.workflows import exporting
from labelpool.workflows.importing import labels as importing

QRELS = """\
q1 0 doc-b 1
q1 0 doc-a 0
q1 0 0123 3
q1 0 doc-c -1
q2 0 no 2
q2 0 doc-a 0
"""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def test_import_trec_writes_canonical_labels(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path_factory.mktemp("src")
    qrels = write(src / "qrels.txt", QRELS)
    queries = write(src / "queries.tsv", "q1\tWhat is 1e3?\nq2\tno\nq3\tnever judged\n")
    code, out, err = run(
        [
            "import",
            "trec",
            str(qrels),
            "--queries",
            str(queries),
            "--pool-system",
            "bm25",
            "--pool-depth",
            "20",
            "--pool-date",
            "2026-06-02",
            "--repo",
            str(repo),
        ],
        capsys,
    )
    assert code == 0, err
    assert "imported 2 question(s)" in out
    assert "5 judged (3 relevant), 1 pooled-unjudged" in out
    assert "1 question(s) without judgments skipped" in out
    assert (repo / "labels" / "q1.yaml").read_text(encoding="utf-8") == (
        "id: q1\n"
        "question: What is 1e3?\n"
        "relevant_doc_ids:\n  - '0123'\n  - doc-b\n"
        "judged_ids:\n  - '0123'\n  - doc-a\n  - doc-b\n"
        "grades:\n  '0123': 3\n"
        "pooled_unjudged_ids:\n  - doc-c\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
    )
    q2 = yamlfile.load_fast(repo / "labels" / "q2.yaml")
    assert q2["question"] == "no" and q2["relevant_doc_ids"] == ["no"]
    assert q2["grades"] == {"no": 2}
    assert not (repo / "labels" / "q3.yaml").exists()


def test_import_without_provenance_says_unknown(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo / "runs" / "qrels.txt", "q1 0 d1 1\n")
    write(repo / "runs" / "q.tsv", "q1\tWhere?\n")
    monkeypatch.chdir(repo / "runs")  # any folder inside the repository, no --repo
    assert run(["import", "trec", "qrels.txt", "--queries", "q.tsv"], capsys)[0] == 0
    assert yamlfile.load_fast(repo / "labels" / "q1.yaml")["pool"] == [
        {"system": "unknown", "k": None, "date": None}
    ]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("q.jsonl", '{"_id": "q1", "text": "First?"}\n{"_id": "q2", "text": "Second?"}\n'),
        ("q.tsv", "\ufeffq1\tFirst?\nq2\t  Second?  \n"),
        ("q.jsonl", '{"id": "q1", "text": "First?"}\n\n{"id": "q2", "text": "Second?"}\n'),
        (
            "topics.txt",
            "<top>\n<num> Number: q1\n<title> Topic: First?\n\n<desc> Description:\nlong\n"
            "</top>\n\n<top>\n<num> Number: q2\n<title>\n  Second?\n</top>\n",
        ),
        (
            "topics.trec",
            "<top>\n<num>q1</num><title>\nFirst?\n</title>\n</top>\n"
            "<top>\n<num>q2</num><title>Second?</title>\n</top>\n",
        ),
        (
            "topics.xml",
            '<topics>\n <topic number="q1">\n  <query>First?</query>\n </topic>\n'
            ' <topic number="q2"><query>Second?</query></topic>\n</topics>\n',
        ),
    ],
)
def test_queries_formats(tmp_path: Path, name: str, text: str) -> None:
    assert importing.read_queries(write(tmp_path / name, text)) == {
        "q1": "First?",
        "q2": "Second?",
    }


@pytest.mark.parametrize(
    ("qrels", "message"),
    [
        (
            "q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n",
            "qrels.txt:3:6: duplicate judgment of 'd1' for question 'q1' (first on line 1)",
        ),
        ("q1 0 d1 1\n../etc 0 d1 1\n", "qrels.txt:2:1: question id '../etc' is not allowed"),
        ("q1 0 d1 1\n.hidden 0 d1 1\n", "qrels.txt:2:1: question id '.hidden' is not allowed"),
        ("q1 0 d1 x\n", "qrels.txt:1:9: grade 'x' is not an integer"),
        ("q1 0 d1\n", "qrels.txt:1:1: expected 4 fields"),
        ("q1 0 d1 1\nq9 0 d1 1\n", "qrels.txt:2:1: question 'q9' has no text in the queries file"),
    ],
)
def test_bad_qrels_name_their_line_and_write_nothing(
    repo: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    qrels: str,
    message: str,
) -> None:
    src = tmp_path_factory.mktemp("src")
    path = write(src / "qrels.txt", qrels)
    queries = write(src / "q.tsv", "q1\tWhere?\n")
    code, out, err = run(
        ["import", "trec", str(path), "--queries", str(queries), "--repo", str(repo)], capsys
    )
    assert code == 1
    assert f"{src}/{message}" in err
    assert "Traceback" not in out + err
    assert list((repo / "labels").iterdir()) == []


def test_existing_labels_are_kept_without_force(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path_factory.mktemp("src")
    qrels = write(src / "qrels.txt", "q1 0 d1 1\nq2 0 d2 1\n")
    queries = write(src / "q.tsv", "q1\tOne?\nq2\tTwo?\n")
    mine = write(repo / "labels" / "q1.yaml", "# hand written\nid: q1\nquestion: One?\n")
    argv = ["import", "trec", str(qrels), "--queries", str(queries), "--repo", str(repo)]
    code, _, err = run(argv, capsys)
    assert code == 1
    assert "1 label file(s) exist already" in err and "--force" in err
    assert mine.read_text(encoding="utf-8") == "# hand written\nid: q1\nquestion: One?\n"
    assert not (repo / "labels" / "q2.yaml").exists()  # all or nothing
    code, out, _ = run([*argv, "--force"], capsys)
    assert code == 0 and "overwrote 1" in out
    assert yamlfile.load_fast(mine)["relevant_doc_ids"] == ["d1"]


@pytest.mark.parametrize(
    "option", [["--pool-date", "02/06/2026"], ["--pool-depth", "0"], ["--pool-system", "a b"]]
)
def test_bad_provenance_is_a_usage_error(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    qrels = write(tmp_path / "qrels.txt", "q1 0 d1 1\n")
    queries = write(tmp_path / "q.tsv", "q1\tOne?\n")
    code, _, err = run(
        ["import", "trec", str(qrels), "--queries", str(queries), *option, "--repo", str(repo)],
        capsys,
    )
    assert code == 2 and "Traceback" not in err
    assert not (repo / "labels" / "q1.yaml").exists()


def test_import_beir_folder(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    beir = tmp_path_factory.mktemp("beir")
    write(
        beir / "queries.jsonl",
        '{"_id": "1", "text": "What is a qubit?", "metadata": {}}\n'
        '{"_id": "2", "text": "Unjudged"}\n',
    )
    (beir / "qrels").mkdir()
    write(beir / "qrels" / "test.tsv", "query-id\tcorpus-id\tscore\n1\tdoc1\t1\n1\tdoc2\t2\n")
    write(beir / "qrels" / "dev.tsv", "query-id\tcorpus-id\tscore\n1\tdoc9\t0\n")
    code, out, err = run(["import", "beir", str(beir), "--repo", str(repo)], capsys)
    assert code == 0, err
    data = yamlfile.load_fast(repo / "labels" / "1.yaml")
    assert data["id"] == "1"
    assert data["relevant_doc_ids"] == ["doc1", "doc2"] and data["grades"] == {"doc2": 2}
    assert "1 question(s) without judgments skipped" in out
    code, _, _ = run(
        ["import", "beir", str(beir), "--split", "dev", "--force", "--repo", str(repo)], capsys
    )
    assert code == 0
    data = yamlfile.load_fast(repo / "labels" / "1.yaml")
    assert data["judged_ids"] == ["doc9"] and data["relevant_doc_ids"] == []
    code, _, err = run(
        ["import", "beir", str(beir), "--split", "nope", "--repo", str(repo)], capsys
    )
    assert code == 2 and "nope.tsv: not found" in err


def test_import_jsonl(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write(
        tmp_path / "labels.jsonl",
        json.dumps({"id": "a1", "question": "Where?", "relevant_doc_ids": ["d2", "d1"]})
        + "\n"
        + json.dumps(
            {"id": "a2", "question": "What?", "relevant_doc_ids": ["d1"], "judged_ids": ["d3"]}
        )
        + "\n",
    )
    code, _, err = run(
        ["import", "jsonl", str(src), "--pool-system", "dense", "--repo", str(repo)], capsys
    )
    assert code == 0, err
    a2 = yamlfile.load_fast(repo / "labels" / "a2.yaml")
    assert a2["relevant_doc_ids"] == ["d1"] and a2["judged_ids"] == ["d1", "d3"]
    assert a2["pool"] == [{"system": "dense", "k": None, "date": None}]
    bad = write(tmp_path / "bad.jsonl", '{"id": "x", "question": "Q", "relevant_doc_ids": "d"}\n')
    code, _, err = run(["import", "jsonl", str(bad), "--repo", str(repo)], capsys)
    assert code == 1 and f"{bad}:1:1: `relevant_doc_ids` must be a list of strings" in err


def test_export_trec_classes_grades_and_unjudged(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        repo / "labels" / "returns-damaged.yaml",
        "id: returns-damaged\nquestion: Damaged?\n"
        "relevant_doc_ids:\n  - faq#damaged\n  - policy-v3#sec-2\n"
        "judged_ids:\n  - faq#damaged\n  - handbook#returns\n  - policy-v2#sec-2\n"
        "  - policy-v3#sec-2\n"
        "grades:\n  policy-v3#sec-2: 2\n"
        "relevant_classes:\n  - - faq#damaged\n    - policy-v3#sec-2\n    - tenant#returns\n"
        "pooled_unjudged_ids:\n  - zz#never\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n",
    )
    write(
        repo / "labels" / "new.yaml",
        "id: new\nquestion: New?\nrelevant_doc_ids: []\njudged_ids: []\n",
    )
    out_file = tmp_path / "out.qrels"
    code, _, err = run(["export", "trec", "--out", str(out_file), "--repo", str(repo)], capsys)
    assert code == 0, err
    assert out_file.read_text(encoding="utf-8") == (
        "returns-damaged 0 faq#damaged 2\n"
        "returns-damaged 0 handbook#returns 0\n"
        "returns-damaged 0 policy-v2#sec-2 0\n"
        "returns-damaged 0 policy-v3#sec-2 2\n"
        "returns-damaged 0 tenant#returns 2\n"
        "returns-damaged 0 zz#never -1\n"
    )
    code, out, _ = run(["export", "trec", "--repo", str(repo)], capsys)
    assert code == 0 and out == out_file.read_text(encoding="utf-8")
    import ir_measures

    rows = list(ir_measures.read_trec_qrels(str(out_file)))
    assert len(rows) == 6  # ir_measures reads it (it rejects comment lines)


def test_export_refuses_an_unsafe_label(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(repo / "labels" / "bad.yaml", "id: bad\nquestion: *x\n")
    code, _out, err = run(["export", "trec", "--repo", str(repo)], capsys)
    assert code == 1 and f"{bad}:2:11: LP010" in err and "Traceback" not in err


# --------------------------------------------------------------------------- add


def test_add_names_the_file_relative_to_the_working_folder(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As init, todo and validate print it (0.1.0 printed the absolute path)."""
    monkeypatch.chdir(repo)
    code, out, _ = run(["add", "where-is-my-order", "Where is my order?"], capsys)
    assert (code, out) == (0, "created labels/where-is-my-order.yaml\n")


def test_add_creates_an_unjudged_question(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["add", "where-is-my-order", "Where is   my order?", "--repo", str(repo)], capsys
    )
    assert code == 0
    path = repo / "labels" / "where-is-my-order.yaml"
    assert f"created {path}" in out
    assert path.read_text(encoding="utf-8") == (
        "id: where-is-my-order\nquestion: Where is my order?\nrelevant_doc_ids: []\n"
        "judged_ids: []\n"
    )
    code, _, err = run(["add", "where-is-my-order", "Other?", "--repo", str(repo)], capsys)
    assert code == 1 and "exists already" in err
    assert "Where is my order?" in path.read_text(encoding="utf-8")
    code, _, _ = run(["add", "1239", "yes", "--repo", str(repo)], capsys)
    assert code == 0
    assert yamlfile.load_fast(repo / "labels" / "1239.yaml") == {
        "id": "1239",
        "question": "yes",
        "relevant_doc_ids": [],
        "judged_ids": [],
    }


@pytest.mark.parametrize("bad", ["../escape", "a/b", ".hidden", "-x", "a b", "x" * 129, ""])
def test_add_checks_the_id_before_building_a_path(
    repo: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    code, _, err = run(["add", "--repo", str(repo), "--", bad, "Question?"], capsys)
    assert code == 2 and "not allowed" in err and "Traceback" not in err
    assert list((repo / "labels").iterdir()) == []
    assert not (repo / "escape.yaml").exists()


# --------------------------------------------------------------------------- round trip

qid = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,8}", fullmatch=True)
doc = st.one_of(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9#:._/-]{0,10}", fullmatch=True),
    st.sampled_from(
        [
            "0123",
            "1239",
            "no",
            "on",
            "1e3",
            "null",
            "~",
            "2026-06-02",
            "0x1F",
            "1:20",
            "-1",
            "#x",
            "a,b",
            "[x]",
            "&a",
            "é",
        ]
    ),
)
qrels_rows = st.lists(
    st.tuples(qid, doc, st.integers(-2, 4)),
    min_size=1,
    max_size=40,
    unique_by=lambda r: (r[0], r[1]),
).filter(  # ids that differ only by case are refused (tests/hostile/test_data_loss_names.py)
    lambda rows: len({r[0].lower() for r in rows}) == len({r[0] for r in rows})
)


def _import_rows(folder: Path, rows: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    (folder / "labels").mkdir(parents=True)
    (folder / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    qrels = write(folder / "in.qrels", "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows))
    queries = write(
        folder / "q.tsv", "".join(f"{q}\tQuestion {q}?\n" for q in {r[0] for r in rows})
    )
    items = importing.from_rows(importing.read_qrels(qrels), importing.read_queries(queries), qrels)
    importing.write_labels(folder / "labels", items, importing.Provenance())
    labels = labelset.load(config.load(folder), use_cache=False)
    return exporting.qrels_rows(labels)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels_rows)
def test_import_export_import_is_lossless(rows: list[tuple[str, str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        exported = _import_rows(Path(tmp) / "one", rows)
        # negative grades all mean "pooled, not judged": exported as -1
        expected = Counter((q, d, g if g >= 0 else -1) for q, d, g in rows)
        assert Counter(exported) == expected
        assert exported == sorted(exported, key=lambda r: (r[0], r[1]))
        again = _import_rows(Path(tmp) / "two", exported)
        assert Counter(again) == Counter(exported)


def test_vaswani_import_export_round_trip(
    vaswani_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    assert main(["init", str(repo)]) == 0
    code, out, err = run(
        [
            "import",
            "trec",
            str(vaswani_dir / "qrels"),
            "--queries",
            str(vaswani_dir / "query-text.trec"),
            "--repo",
            str(repo),
        ],
        capsys,
    )
    assert code == 0, err
    assert "imported 93 question(s)" in out
    exported = repo / "out.qrels"
    assert main(["export", "trec", "--out", str(exported), "--repo", str(repo)]) == 0

    def rows(path: Path) -> Counter[tuple[str, str, str]]:
        lines = path.read_text(encoding="utf-8").split("\n")
        return Counter((p[0], p[2], p[3]) for p in (ln.split() for ln in lines) if p)

    assert rows(exported) == rows(vaswani_dir / "qrels")
    assert yamlfile.load_fast(repo / "labels" / "1.yaml")["id"] == "1"
