"""A revision's labels read through the label index (``labelindex.stored``): ``diff`` parses
only the blobs the index has not seen, adds them, and says the same as without the index.

Real git repositories in tmp folders; a blob the index holds is shown not to be read by
deleting its object from git after the first diff.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from labelpool import columns, config, labelset, schemas
from labelpool.cli import main
from labelpool.labelindex import files, store

VERDICT = "verdicts:\n  d0:\n    - {judge: Jo <jo@example.org>, verdict: relevant}\n"


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, check=False)
    assert proc.returncode == 0, f"git {args}: {proc.stderr!r}"
    return proc.stdout.decode()


def label(qid: str, judged: list[str], relevant: list[str], tail: str = "") -> str:
    return (
        f"id: {qid}\nquestion: Where is {qid}?\nrelevant_doc_ids:\n"
        + "".join(f"  - {d}\n" for d in relevant)
        + "judged_ids:\n"
        + "".join(f"  - {d}\n" for d in judged)
        + tail
    )


@pytest.fixture
def two(repo: Path) -> tuple[Path, str, str]:
    """A repository with two commits: q0..q3, then q0 flipped, q1 judged more, q2 removed,
    q4 added (q3 unchanged)."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.invalid")
    labels = repo / "labels"
    for i in range(4):
        (labels / f"q{i}.yaml").write_text(label(f"q{i}", ["d0", "d1"], ["d0"]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    first = git(repo, "rev-parse", "HEAD").strip()
    (labels / "q0.yaml").write_text(label("q0", ["d0", "d1"], ["d1"]))
    (labels / "q1.yaml").write_text(label("q1", ["d0", "d1", "d2"], ["d0"], VERDICT))
    (labels / "q2.yaml").unlink()
    (labels / "q4.yaml").write_text(label("q4", ["d9"], ["d9"]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two")
    second = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", first)
    return repo, first, second


def diff_out(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> str:
    capsys.readouterr()
    assert main(["diff", *args, "--repo", str(repo), "--format", "json"]) == 0
    return capsys.readouterr().out


def index_rows(repo: Path) -> store.Rows:
    cfg = config.load(repo)
    schema = schemas.schema_path(schemas.LABEL, cfg.root)
    tag = labelset.index_tag(cfg.max_file_bytes, cfg.max_depth, schema)
    return store.load(files.index_file(cfg.labels_dir, tag), tag, columns.SCHEMA)


def blob_at(repo: Path, rev: str, name: str) -> str:
    return git(repo, "rev-parse", f"{rev}:labels/{name}").strip()


def test_diff_fills_the_index_and_reads_it_back(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, first, second = two
    before = diff_out(capsys, repo, first, second)
    rows = index_rows(repo)
    changed = [blob_at(repo, first, "q0.yaml"), blob_at(repo, second, "q0.yaml")]
    changed += [blob_at(repo, first, "q1.yaml"), blob_at(repo, second, "q4.yaml")]
    assert all(b in rows.row_of for b in changed)
    assert not any(rows.checked[rows.row_of[b]] for b in changed)  # data only: not checked
    assert blob_at(repo, first, "q3.yaml") not in rows.row_of  # unchanged: never read
    # the blobs are now read from the index alone: git no longer has the new revision's
    for name in ("q0.yaml", "q1.yaml", "q4.yaml"):
        blob = blob_at(repo, second, name)
        (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    assert diff_out(capsys, repo, first, second) == before
    data = json.loads(before)
    assert [q["question"] for q in data["questions"]] == ["q0", "q1"]
    assert [q["question"] for q in data["questions_added"]] == ["q4"]


def test_index_rows_a_diff_added_are_checked_by_the_next_load(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, first, second = two
    diff_out(capsys, repo, first, second)
    git(repo, "checkout", "-q", second)
    cfg = config.load(repo)
    through = labelset.load(cfg)
    assert dict(through.labels) == dict(labelset.load(cfg, use_cache=False).labels)
    rows = index_rows(repo)
    assert rows.checked[rows.row_of[blob_at(repo, second, "q1.yaml")]]


def test_a_blob_lp041_refuses_is_diffed_as_before_but_never_kept(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, first, _ = two
    git(repo, "checkout", "-q", "main")
    text = label("q3", ["d0", "d1", "d5"], ["d0"]).replace("Where is q3?", '"Where\u2028is q3?"')
    (repo / "labels" / "q3.yaml").write_text(text, encoding="utf-8")  # LP041: U+2028
    git(repo, "commit", "-q", "-am", "three")
    out = json.loads(diff_out(capsys, repo, first, "main"))
    assert [q["question"] for q in out["questions"]] == ["q0", "q1", "q3"]
    assert blob_at(repo, "main", "q3.yaml") not in index_rows(repo).row_of


def test_a_broken_blob_at_a_revision_is_cited_with_the_index_filled(
    two: tuple[Path, str, str], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, first, _ = two
    git(repo, "checkout", "-q", "main")
    (repo / "labels" / "q3.yaml").write_text("id: q3\njudged_ids: [d0\n")
    git(repo, "commit", "-q", "-am", "broken")
    capsys.readouterr()
    assert main(["diff", first, "main", "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "main:labels/q3.yaml:" in err
