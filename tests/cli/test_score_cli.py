"""``labelpool score`` through the public CLI, on real files in temp label repositories."""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "score-report.schema.json").read_text())

SEED = """\
# Comments are kept by every rewrite.
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - faq-shipping#damaged
  - policy-returns-v3#sec-2
judged_ids:
  - faq-shipping#damaged
  - handbook#returns
  - policy-returns-v2#sec-2
  - policy-returns-v3#sec-2
grades:
  policy-returns-v3#sec-2: 2
relevant_classes:
  - - faq-shipping#damaged
    - policy-returns-v3#sec-2
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
"""

OTHER = """\
id: opening-hours
question: When are you open?
relevant_doc_ids:
  - faq-hours
judged_ids:
  - faq-hours
  - handbook#hours
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
"""

FRESH = """\
id: not-yet
question: Nobody judged this yet.
relevant_doc_ids: []
judged_ids: []
"""

BM25 = """\
returns-damaged Q0 faq-shipping#damaged 1 3.0 bm25
returns-damaged Q0 handbook#returns 2 2.0 bm25
opening-hours Q0 faq-hours 1 5 bm25
opening-hours Q0 new-doc 2 4 bm25
unknown-q Q0 faq-hours 1 1 bm25
"""

DENSE = """\
returns-damaged Q0 policy-returns-v2#sec-2 1 0.9 dense
returns-damaged Q0 handbook#returns 2 0.8 dense
"""


@pytest.fixture
def labelled(repo: Path) -> Path:
    (repo / "labels" / "returns-damaged.yaml").write_text(SEED)
    (repo / "labels" / "opening-hours.yaml").write_text(OTHER)
    (repo / "labels" / "not-yet.yaml").write_text(FRESH)
    (repo / "runs" / "bm25.trec").write_text(BM25)
    (repo / "runs" / "dense.run").write_text(DENSE)
    return repo


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Caches in a folder of the test's own (outside the repository), never the user's."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(folder))
    return folder


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_report_valid_and_correct(labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "score", "bm25", "dense", "--format", "json", "--per-query", "--repo", str(labelled)
    )
    assert code == 0, err
    doc = json.loads(out)  # nothing but the document on stdout
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc["labels_commit"] is None  # not a git repository
    assert doc["k"] == 10
    bm25, dense = doc["systems"]
    assert bm25["system"] == "bm25" and dense["system"] == "dense"
    assert bm25["queries"] == 2
    assert bm25["skipped"] == {
        "not_in_labels": 1,
        "not_judged": 1,
        "missing_from_run": 0,
        "pending_docs": 0,
    }
    # 4 returned in the top 10, one of them (new-doc) never judged
    assert bm25["unjudged_rate"] == pytest.approx(1 / 4)
    assert bm25["reading"] == "retrieves outside the pool"
    assert bm25["measures"]["R@10"] == {"raw": 1.0, "judged_only": 1.0, "optimistic": 1.0}
    assert bm25["measures"]["P@10"]["optimistic"] == pytest.approx((0.1 + 0.2) / 2)
    # dense returns the superseded version: judged, irrelevant; the other question is missing
    assert dense["skipped"]["missing_from_run"] == 1
    assert set(dense["measures"]) == {"R@10", "nDCG@10", "P@10"}  # score's default measures
    assert dense["measures"]["P@10"]["raw"] == 0.0
    assert doc["no_relevant"] == [] and doc["not_judged"] == ["not-yet"]
    assert dense["per_query"]["returns-damaged"]["unjudged_rate"] == 0.0
    assert set(dense["per_query"]) == {"opening-hours", "returns-damaged"}
    assert "dense: 1 judged question(s) missing from the run score 0" in err
    assert len(bm25["run_sha256"]) == 64


def test_measures_k_and_level(labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys,
        "score",
        str(labelled / "runs" / "bm25.trec"),
        "-m",
        "P@1,nDCG@3",
        "-m",
        "Judged",
        "--k",
        "1",
        "--relevance-level",
        "2",
        "--format",
        "json",
        "--repo",
        str(labelled),
    )
    assert code == 0, err
    system = json.loads(out)["systems"][0]
    assert list(system["measures"]) == ["P@1", "nDCG@3", "Judged"]
    # level 2: only the class (grade 2) is relevant; opening-hours has no relevant doc at 2
    assert system["measures"]["P@1"]["raw"] == 0.5
    assert system["measures"]["Judged"]["raw"] == 1.0  # top 1 of both questions judged
    assert system["unjudged_rate"] == 0.0


def test_git_repo_reports_commit(labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=labelled, check=True, capture_output=True, text=True
        ).stdout.strip()

    git("init", "-q")
    git("config", "user.name", "Test")
    git("config", "user.email", "test@example.com")
    git("add", "-A")
    git("commit", "-q", "-m", "labels")
    code, out, _ = run_cli(capsys, "score", "bm25", "--format", "json", "--repo", str(labelled))
    assert code == 0
    doc = json.loads(out)
    assert doc["labels_commit"] == git("rev-parse", "HEAD")
    assert doc["labels_dirty"] is False


def test_csv_markdown_and_table(labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = str(labelled)
    code, out, _ = run_cli(capsys, "score", "bm25", "dense", "--format", "csv", "--repo", repo)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["system"] for r in rows] == ["bm25", "dense"]
    assert float(rows[0]["unjudged_rate"]) == 0.25
    assert rows[0]["nDCG@10 judged_only"] == "1.0"
    code, out, _ = run_cli(
        capsys, "score", "bm25", "--format", "csv", "--per-query", "--repo", repo
    )
    assert [r.split(",")[1] for r in out.splitlines()[1:]] == [
        "all",
        "opening-hours",
        "returns-damaged",
    ]
    code, out, _ = run_cli(capsys, "score", "bm25", "dense", "--format", "markdown", "--repo", repo)
    assert code == 0
    # bm25 holds a question with no label and dense lacks one: said first, then the table
    first, blank, table = out.split("\n", 2)
    assert first == (
        "Questions: 2 scored; 1 labelled question missing from dense (counted 0, as "
        "trec\\_eval -c); 1 run question of bm25 without a label (ignored)."
    )
    assert blank == ""
    assert table.startswith("| system | queries | unjudged@10 | reading | R@10 |")
    assert "| dense | 2 | 0.0% | pool covers this system |" in out
    code, out, _ = run_cli(capsys, "score", "bm25", "dense", "--repo", repo)
    assert code == 0
    assert "bm25 retrieves outside the pool (unjudged@10 above 10%)" in out
    assert "25.0%" in out
    assert "skipped: not judged (1): not-yet" in out


def test_name_option_and_duplicate_names(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(labelled)
    code, out, _ = run_cli(
        capsys, "score", "bm25", "--name", "incumbent", "--format", "json", "--repo", repo
    )
    assert code == 0
    assert json.loads(out)["systems"][0]["system"] == "incumbent"
    code, _, err = run_cli(capsys, "score", "bm25", "dense", "--name", "x", "--repo", repo)
    assert code == 2 and "one name per run" in err
    code, _, err = run_cli(capsys, "score", "bm25", "bm25", "--repo", repo)
    assert code == 2 and "use --name" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-m", "MAP@10"], "unknown measure 'MAP@10'; known: P@k"),
        (["--format", "xml"], "--format must be one of"),
        (["--k", "0"], "--k must be at least 1"),
        (["--relevance-level", "0"], "--relevance-level must be at least 1"),
    ],
)
def test_usage_errors_exit_2(
    labelled: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, "score", "bm25", *args, "--repo", str(labelled))
    assert code == 2
    assert message in err
    assert out == ""
    assert "Traceback" not in err


BAD_RUNS = [
    ("dup.trec", "q Q0 a 1 2 s\nq Q0 b 2 1 s\nq Q0 a 3 0 s\n", 3, "appears twice", "lines 1 and 3"),
    ("fields.trec", "q Q0 a 1 2 s\nq Q0 b 2\n", 2, "expected 6 fields", "found 4"),
    ("score.trec", "q Q0 a 1 2 s\nq Q0 b 2 1,5 s\n", 2, "score '1,5' is not a number", ""),
    ("nan.trec", "q Q0 a 1 NaN s\n", 1, "not a finite number", ""),
    ("inf.trec", "q Q0 a 1 inf s\n", 1, "not a finite number", ""),
    ("empty.trec", "", 1, "empty run file", ""),
    ("bad.jsonl", '{"qid": "q", "doc_id": "a", "score": 1}\n{oops}\n', 2, "bad JSON", ""),
]


@pytest.mark.parametrize(("name", "text", "line", "message", "detail"), BAD_RUNS)
def test_bad_run_names_file_and_line_exit_1(
    labelled: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    line: int,
    message: str,
    detail: str,
) -> None:
    path = labelled / "runs" / name
    path.write_text(text)
    code, out, err = run_cli(
        capsys, "score", str(path), "--format", "json", "--repo", str(labelled)
    )
    assert code == 1
    assert out == ""
    first = err.strip().splitlines()[0]
    assert first.startswith(f"error: {path}:{line}: ")
    assert message in first and detail in first
    assert "Traceback" not in err


def test_bad_gzip_run_counts_physical_lines(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = labelled / "runs" / "g.trec.gz"
    path.write_bytes(gzip.compress(b"# header\nq Q0 a 1 1 s\n\nq Q0 a 2 0 s\n"))
    code, _, err = run_cli(capsys, "score", str(path), "--repo", str(labelled))
    assert code == 1
    assert err.startswith(
        f"error: {path}:4: document 'a' appears twice for question 'q' (lines 2 and 4)"
    )


def test_unknown_system_lists_candidates(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "score", "splade", "--repo", str(labelled))
    assert code == 1
    assert "splade: no such run file, and no run named so" in err
    assert "known: bm25, dense" in err


def test_no_judged_labels(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "labels" / "not-yet.yaml").write_text(FRESH)
    (repo / "runs" / "bm25.trec").write_text(BM25)
    code, _, err = run_cli(capsys, "score", "bm25", "--repo", str(repo))
    assert code == 1
    assert "no judged question" in err


def test_tied_run_warns_on_stderr(labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = labelled / "runs" / "flat.trec"
    path.write_text("opening-hours Q0 b 1 1 s\nopening-hours Q0 faq-hours 2 1 s\n")
    code, out, err = run_cli(capsys, "score", "flat", "--format", "json", "--repo", str(labelled))
    assert code == 0
    json.loads(out)
    assert "all-equal scores" in err and "opening-hours" in err


def test_console_script_exit_codes(labelled: Path) -> None:
    bad = labelled / "runs" / "bad.trec"
    bad.write_text("q Q0 a 1 x s\n")
    proc = subprocess.run(
        ["labelpool", "score", "bad", "--format", "json"],
        cwd=labelled / "runs",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"error: {bad.resolve()}:1: score 'x' is not a number")
    assert "Traceback" not in proc.stderr
    ok = subprocess.run(
        ["labelpool", "score", "bm25", "--format", "json"],
        cwd=labelled,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["systems"][0]["system"] == "bm25"


def test_broken_label_file_exit_1(labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = labelled / "labels" / "opening-hours.yaml"
    bad.write_text(OTHER.replace("question: When are you open?", "question: [When are you open?"))
    code, out, err = run_cli(capsys, "score", "bm25", "--format", "json", "--repo", str(labelled))
    assert code == 1
    assert out == ""
    assert err.startswith(f"error: {bad}:")
    assert err.split(":")[2].isdigit()  # error: path:line:col
    assert "Traceback" not in err


def test_judgment_cache_follows_label_edits(
    labelled: Path, capsys: pytest.CaptureFixture[str], private_cache: Path
) -> None:
    args = ["score", "bm25", "--format", "json", "--repo", str(labelled)]
    code, first, _ = run_cli(capsys, *args)
    assert code == 0
    assert list(private_cache.glob("score-qrels-*.bin"))  # written on the first run
    code, again, _ = run_cli(capsys, *args)
    assert code == 0 and again == first  # served from the cache: same numbers
    # judge new-doc relevant: the cache must not serve the old judgments
    path = labelled / "labels" / "opening-hours.yaml"
    path.write_text(
        OTHER.replace(
            "  - faq-hours\njudged_ids:", "  - faq-hours\n  - new-doc\njudged_ids:"
        ).replace("  - handbook#hours\n", "  - handbook#hours\n  - new-doc\n")
    )
    code, edited, err = run_cli(capsys, *args)
    assert code == 0, err
    system = json.loads(edited)["systems"][0]
    assert system["unjudged_rate"] == 0.0
    assert system["measures"]["P@10"]["raw"] == pytest.approx((0.1 + 0.2) / 2)
    # a corrupt cache file is rebuilt, not an error
    for file in private_cache.glob("score-qrels-*.bin"):
        file.write_bytes(b"not an arrays file")
    code, rebuilt, _ = run_cli(capsys, *args)
    assert code == 0 and rebuilt == edited


def test_folder_argument_scores_every_run(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (labelled / "runs" / "README.md").write_text("# not a run\n")
    code, out, err = run_cli(
        capsys, "score", str(labelled / "runs"), "--format", "json", "--repo", str(labelled)
    )
    assert code == 0, err
    assert [s["system"] for s in json.loads(out)["systems"]] == ["bm25", "dense"]
