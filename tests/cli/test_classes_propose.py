"""``labelpool classes propose`` and ``labelpool import duplicates`` through the CLI on real git
repositories: proposals on a new branch in one commit, never a version pair, a reviewer's
acceptance merged, hostile input as a path:line error or a counted skip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.model import label_from_data
from pool_scenario import cli, committed_example, git

RITA = {"GIT_AUTHOR_NAME": "Rita Review", "GIT_AUTHOR_EMAIL": "rita@example.invalid"}


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return committed_example(tmp_path)


def _proposals(repo: Path) -> dict[str, list[tuple[str, ...]]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for path in sorted((repo / "labels").glob("*.yaml")):
        label = label_from_data(yamlfile.load_fast(path))
        if label.proposed_classes:
            out[label.id] = [p.members for p in label.proposed_classes]
    return out


def test_propose_writes_one_commit_on_a_branch_and_never_a_version_pair(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = git(example, "rev-parse", "HEAD").strip()
    capsys.readouterr()
    assert cli(example, "classes", "propose", "--format", "json", "--branch", "cls") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["branch"] == "cls" and report["commit"]
    assert git(example, "rev-parse", "--abbrev-ref", "HEAD").strip() == "cls"
    assert git(example, "rev-parse", "HEAD~1").strip() == head  # one commit
    assert git(example, "status", "--porcelain").strip() == ""
    assert report["version_pairs"] >= 1  # the superseded policies: set aside
    proposed = _proposals(example)
    assert sum(map(len, proposed.values())) == len(report["proposals"])
    for members in (m for ms in proposed.values() for m in ms):
        # never two versions of one policy; never two tenants' pages
        assert len({m.split("#")[0] for m in members if m.startswith("policy-")}) <= 1
        assert len({m for m in members if m.startswith("tenant-")}) <= 1
    assert cli(example, "validate") == 1  # the proposals wait for review (LP062)
    assert cli(example, "validate", "--allow-pending") == 0
    # the comment says what differs; accepting one class is deleting one line
    qid, members = next((q, ms[0]) for q, ms in sorted(proposed.items()))
    path = example / "labels" / f"{qid}.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("- members:"))
    assert lines[at - 1].lstrip().startswith("# proposed: ") and " differ in: " in lines[at - 1]
    assert lines[at + 1].lstrip().startswith("proposed: {method: shingle-")
    del lines[at + 1]
    path.write_text("".join(lines), encoding="utf-8")
    git(example, "commit", "-q", "-am", "accept", env=RITA)
    assert cli(example, "merge") == 0
    assert git(example, "log", "-1", "--format=%an").strip() == "Rita Review"
    label = label_from_data(yamlfile.load_fast(path))
    assert tuple(sorted(members)) in {tuple(sorted(c)) for c in label.relevant_classes}


def test_propose_twice_proposes_nothing_new(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(example, "classes", "propose", "--questions", "cookies", "--branch", "one") == 0
    capsys.readouterr()
    args = ["classes", "propose", "--questions", "cookies", "--format", "json"]
    assert cli(example, *args, "--branch", "two") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["proposals"] == [] and report["commit"] is None


def test_bad_options_and_a_corpus_line_that_is_not_json(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(example, "classes", "propose", "--threshold", "1.5") == 2
    assert cli(example, "classes", "propose", "--questions", "nope") == 2
    corpus = example / "corpus" / "corpus.jsonl"
    corpus.write_text(corpus.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    git(example, "commit", "-q", "-am", "a broken corpus line")
    capsys.readouterr()
    assert cli(example, "classes", "propose") == 1
    err = capsys.readouterr().err
    assert "corpus.jsonl:" in err and "not JSON" in err and "Traceback" not in err


def test_import_duplicates_proposes_groups_the_labels_name(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label = label_from_data(yamlfile.load_fast(example / "labels" / "cookies.yaml"))
    a, b = sorted(label.judged_ids)[:2]
    dups = example.parent / "dups.txt"
    dups.write_text(f"{a}:{b},elsewhere#1\n\nx#1\ty#2\n", encoding="utf-8")
    capsys.readouterr()
    assert cli(example, "import", "duplicates", str(dups), "--format", "json") == 0
    report = json.loads(capsys.readouterr().out)
    assert [p["members"] for p in report["proposals"] if p["question"] == "cookies"] == [[a, b]]
    assert report["outside"] >= 3  # elsewhere#1, x#1, y#2: counted, not written
    text = (example / "labels" / "cookies.yaml").read_text(encoding="utf-8")
    assert "proposed: {method: duplicate-map, score: 1.0}" in text
    assert "elsewhere#1" not in text


def test_a_duplicate_map_line_in_neither_form_is_a_path_line_error(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dups = example.parent / "dups.txt"
    dups.write_text("a:b\njust-one-id\n", encoding="utf-8")
    capsys.readouterr()
    assert cli(example, "import", "duplicates", str(dups)) == 1
    err = capsys.readouterr().err
    assert f"{dups}:2" in err and "Traceback" not in err


def test_the_api_call_says_what_the_command_would_write(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from labelpool import api

    report = api.propose_classes(repo=example, questions="cookies")
    assert report.result.written.commit is None
    assert git(example, "status", "--porcelain").strip() == ""
    capsys.readouterr()
    assert cli(example, "classes", "propose", "--questions", "cookies", "--format", "json") == 0
    written = json.loads(capsys.readouterr().out)
    assert report.to_dict()["proposals"] == written["proposals"]
