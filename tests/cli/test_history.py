"""``labelpool history``: who judged what, when, in which batch, on real git repositories."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from history_scenario import ALICE, BATCH1, BATCH2, BOB, Scenario, build, commit_all
from labelpool.cli import main
from labelpool.gitio import parse_blame_porcelain


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    return build(tmp_path_factory.mktemp("history"))


def history_json(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> Any:
    capsys.readouterr()
    assert main(["history", *args, "--format", "json", "--repo", str(repo)]) == 0
    return json.loads(capsys.readouterr().out)


def by_doc(data: Any) -> dict[str, Any]:
    return {j["doc"]: j for j in data["judgments"]}


def test_each_judgment_names_its_author_date_and_batch(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = by_doc(history_json(capsys, scenario.repo, "q1"))
    assert sorted(docs) == ["doc-a", "doc-b", "doc-c", "doc-d", "doc-e"]
    expected = {
        "doc-a": (ALICE, BATCH1, scenario.batch1, "relevant"),
        "doc-b": (BOB, BATCH2, scenario.batch2, "relevant"),
        "doc-c": (ALICE, BATCH1, scenario.batch1, "irrelevant"),
        "doc-d": (BOB, BATCH2, scenario.batch2, "relevant"),
        "doc-e": (BOB, BATCH2, scenario.batch2, "irrelevant"),
    }
    for doc, (who, batch, commit, kind) in expected.items():
        j = docs[doc]
        set_by = j["set_by"]["commit"]
        assert (set_by["author"], set_by["author_mail"], set_by["date"]) == who, doc
        assert set_by["commit"] == commit
        assert batch in set_by["subject"]
        assert j["current"]["kind"] == kind
        assert j["before_question_edit"] is False
    assert docs["doc-d"]["current"]["grade"] == 2
    # Only the flipped judgment has an earlier verdict.
    assert [d for d, j in docs.items() if j["earlier"]] == ["doc-b"]


def test_flipped_verdict_shows_its_earlier_value_and_author(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    data = history_json(capsys, scenario.repo, "q1", "doc-b")
    (j,) = data["judgments"]
    assert j["current"]["verdict"] == "relevant (grade 1)"
    assert j["set_by"]["before"]["kind"] == "irrelevant"
    (earlier,) = j["earlier"]
    assert earlier["after"]["kind"] == "irrelevant"
    assert earlier["before"] is None
    assert earlier["commit"]["author"] == "Alice Judge"
    assert earlier["commit"]["date"] == ALICE[2]
    assert BATCH1 in earlier["commit"]["subject"]
    # blame: the judged_ids line is Alice's, the relevant_doc_ids line Bob's.
    lines = {ln["field"]: ln["commit"]["author"] for ln in j["lines"]}
    assert lines == {"judged_ids": "Alice Judge", "relevant_doc_ids": "Bob Reviewer"}


def test_who_decided_this_was_irrelevant_is_one_command(scenario: Scenario) -> None:
    proc = subprocess.run(
        ["labelpool", "history", "q1", "doc-c", "--repo", str(scenario.repo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "doc-c: irrelevant" in proc.stdout
    assert "set by Alice Judge <alice@example.org>, 2026-12-01T10:00:00+00:00" in proc.stdout
    assert BATCH1 in proc.stdout
    assert "doc-a" not in proc.stdout


def test_ignore_revs_file_looks_through_a_reformatting_commit(
    scenario: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # With the file: Alice's lines stay Alice's although the formatter rewrote them.
    j = by_doc(history_json(capsys, scenario.repo, "q1", "doc-c"))["doc-c"]
    assert [ln["commit"]["author"] for ln in j["lines"]] == ["Alice Judge"]
    # Without it, blame names the formatter (the file is what makes the difference).
    bare = build(tmp_path, ignore_fmt=False)
    j = by_doc(history_json(capsys, bare.repo, "q1", "doc-c"))["doc-c"]
    assert [ln["commit"]["author"] for ln in j["lines"]] == ["Formatter"]
    # The semantic walk is not fooled either way: the verdict was Alice's.
    assert j["set_by"]["commit"]["author"] == "Alice Judge"


def test_judgments_older_than_the_question_text_are_flagged(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    data = history_json(capsys, scenario.repo, "q2")
    assert data["text_changed"]["author"] == "Carol Editor"
    docs = by_doc(data)
    assert docs["doc-x"]["before_question_edit"] is True
    assert docs["doc-y"]["before_question_edit"] is True
    text = subprocess.run(
        ["labelpool", "history", "q2", "--repo", str(scenario.repo)],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert text.count("judged before the question's text was last edited") == 2


def test_removed_judgment_and_uncommitted_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = build(tmp_path)
    path = s.repo / "labels" / "q1.yaml"
    text = path.read_text(encoding="utf-8")
    # Carol removes doc-e (blame cannot see a removed line; the walk can).
    path.write_text(text.replace("  - 'doc-e'\n", ""), encoding="utf-8")
    commit_all(s.repo, "drop doc-e", ("Carol Editor", "carol@example.org", "2026-12-07T00:00:00Z"))
    # ... and an uncommitted flip of doc-c in the working tree.
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("  - 'doc-b'\n  - 'doc-d'", "  - 'doc-b'\n  - 'doc-c'\n  - 'doc-d'", 1),
        encoding="utf-8",
    )
    docs = by_doc(history_json(capsys, s.repo, "q1"))
    gone = docs["doc-e"]
    assert gone["current"] is None
    assert gone["set_by"]["commit"]["author"] == "Carol Editor"
    assert gone["earlier"][0]["commit"]["author"] == "Bob Reviewer"
    flipped = docs["doc-c"]
    assert flipped["current"]["kind"] == "relevant"
    assert flipped["set_by"]["commit"]["uncommitted"] is True
    assert flipped["earlier"][0]["commit"]["author"] == "Alice Judge"


def test_pending_and_class_states(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = build(tmp_path)
    path = s.repo / "labels" / "q1.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("pool:\n", "relevant_classes:\n  - - 'doc-a'\n    - doc-z\npool:\n")
    text += (
        "pending:\n  - batch: '2026-12-09-dense@30'\n    systems:\n      - dense\n"
        "    depth: 30\n    date: '2026-12-09'\n    docs:\n"
        "      # text: some chunk text naming doc-a\n"
        "      - {doc: doc-p, verdict: null}\n      - {doc: doc-q, verdict: relevant}\n"
        "      - {doc: doc-r, verdict: {duplicate-of: doc-a}}\n"
    )
    path.write_text(text, encoding="utf-8")
    commit_all(s.repo, "pool batch 2026-12-09-dense@30", BOB)
    docs = by_doc(history_json(capsys, s.repo, "q1"))
    assert docs["doc-z"]["current"]["kind"] == "class-member"
    assert docs["doc-z"]["current"]["class"] == ["doc-a", "doc-z"]
    assert docs["doc-p"]["current"]["kind"] == "pending"
    assert docs["doc-p"]["current"]["batch"] == "2026-12-09-dense@30"
    assert docs["doc-q"]["current"]["proposed"] == "relevant"
    # doc-a's lines: relevant_doc_ids, judged_ids and its class line; never a comment.
    fields = sorted(ln["field"] for ln in docs["doc-a"]["lines"])
    assert fields == ["judged_ids", "relevant_classes", "relevant_doc_ids"]
    assert [ln["field"] for ln in docs["doc-r"]["lines"]] == ["pending"]
    assert docs["doc-r"]["current"]["proposed"] == "duplicate-of doc-a"


def test_errors_are_messages_not_tracebacks(
    scenario: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "q1", "doc-never", "--repo", str(scenario.repo)]) == 1
    assert "doc-never has no judgment" in capsys.readouterr().err
    assert main(["history", "nope", "--repo", str(scenario.repo)]) == 1
    assert "no such label file" in capsys.readouterr().err
    assert main(["history", "../etc/passwd", "--repo", str(scenario.repo)]) == 1
    assert "not a question id" in capsys.readouterr().err
    assert main(["history", "q1", "--format", "xml", "--repo", str(scenario.repo)]) == 2
    (tmp_path / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    assert main(["history", "q1", "--repo", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "not in a git repository" in err or "no such label file" in err
    assert "Traceback" not in err


def test_blame_parser_reuses_commit_headers() -> None:
    sha = "a" * 40
    out = (
        f"{sha} 1 1 2\nauthor Ann\nauthor-mail <ann@x>\nauthor-time 0\nauthor-tz +0100\n"
        f"summary first\nfilename f\n\tline one\n{sha} 2 2\n\tline two\n"
    )
    lines = parse_blame_porcelain(out)
    assert [(ln.line, ln.text, ln.author) for ln in lines] == [
        (1, "line one", "Ann"),
        (2, "line two", "Ann"),
    ]
    assert lines[1].info.author_date == "1970-01-01T01:00:00+01:00"
    assert lines[1].info.subject == "first"


LABEL = """\
id: {qid}
question: {question}
relevant_doc_ids:
  - {rel}
judged_ids:
  - {rel}
  - {irr}
pool:
  - system: bm25
    k: 2
    date: '2026-11-01'
"""


def test_real_pool_and_merge_by_two_judges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real loop: `labelpool pool`, two judges fill verdicts, `labelpool merge`."""
    from history_scenario import PYPROJECT, git

    repo = tmp_path / "repo"
    (repo / "labels").mkdir(parents=True)
    (repo / "runs").mkdir()
    (repo / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for qid, question, rel, irr in (
        ("q1", "Damaged parcel?", "doc-a", "doc-b"),
        ("q2", "Refund?", "doc-x", "doc-y"),
    ):
        (repo / "labels" / f"{qid}.yaml").write_text(
            LABEL.format(qid=qid, question=question, rel=rel, irr=irr), encoding="utf-8"
        )
    (repo / "runs" / "dense.trec").write_text(
        "q1 Q0 doc-c 1 3 dense\nq1 Q0 doc-a 2 2 dense\n"
        "q2 Q0 doc-z 1 3 dense\nq2 Q0 doc-x 2 2 dense\n",
        encoding="utf-8",
    )
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.org")
    commit_all(repo, "init", ("Runner", "runner@example.org", "2026-11-01T00:00:00+00:00"))

    def cli(*args: str) -> str:
        proc = subprocess.run(
            ["labelpool", *args, "--repo", str(repo)], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout

    cli("pool", "dense", "--depth", "2", "--no-text")
    q1 = repo / "labels" / "q1.yaml"
    q2 = repo / "labels" / "q2.yaml"
    batch = next(
        line.split("'")[1]
        for line in q1.read_text(encoding="utf-8").splitlines()
        if "batch:" in line
    )
    q1.write_text(
        q1.read_text(encoding="utf-8").replace(
            "{doc: doc-c, verdict: null}", "{doc: doc-c, verdict: relevant}"
        ),
        encoding="utf-8",
    )
    commit_all(repo, "verdicts for q1", ALICE)
    q2.write_text(
        q2.read_text(encoding="utf-8").replace(
            "{doc: doc-z, verdict: null}", "{doc: doc-z, verdict: irrelevant}"
        ),
        encoding="utf-8",
    )
    commit_all(repo, "verdicts for q2", BOB)
    cli("merge")

    c = by_doc(history_json(capsys, repo, "q1", "doc-c"))["doc-c"]
    assert c["current"]["kind"] == "relevant"
    assert c["set_by"]["commit"]["author"] == "Alice Judge"
    assert batch in c["set_by"]["commit"]["subject"]
    assert c["batch"] == batch
    assert c["decided_by"]["commit"]["author"] == "Alice Judge"
    assert c["decided_by"]["commit"]["date"] == ALICE[2]
    assert {ln["field"]: ln["commit"]["author"] for ln in c["lines"]} == {
        "judged_ids": "Alice Judge",
        "relevant_doc_ids": "Alice Judge",
    }
    z = by_doc(history_json(capsys, repo, "q2", "doc-z"))["doc-z"]
    assert z["current"]["kind"] == "irrelevant"
    assert z["set_by"]["commit"]["author"] == "Bob Reviewer"
    assert z["decided_by"]["commit"]["date"] == BOB[2]
    assert batch in z["set_by"]["commit"]["subject"]
    # the old judgments stay the runner's
    a = by_doc(history_json(capsys, repo, "q1", "doc-a"))["doc-a"]
    assert a["set_by"]["commit"]["author"] == "Runner" and a["earlier"] == []

    # diff main..HEAD: exactly the two new judgments and the new pool entries
    capsys.readouterr()
    assert main(["diff", "main", "HEAD", "--format", "json", "--repo", str(repo)]) == 0
    data = json.loads(capsys.readouterr().out)
    added = {q["question"]: q["judgments_added"] for q in data["questions"]}
    assert added == {"q1": [{"doc": "doc-c", "grade": 1}], "q2": [{"doc": "doc-z", "grade": 0}]}
    for q in data["questions"]:
        (entry,) = q["pool_added"]
        assert entry["system"] == "dense" and entry["k"] == 2 and entry["run"]
        assert q["pending_opened"] == [] and q["flips"] == []
    assert data["summary"]["judgments_added"] == 2


def test_an_unreadable_version_in_history_invents_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = build(tmp_path)
    path = s.repo / "labels" / "q1.yaml"
    good = path.read_text(encoding="utf-8")
    path.write_text(good.replace("judged_ids:", "judged_ids: [oops"), encoding="utf-8")
    commit_all(s.repo, "break q1", ("Mallory", "m@example.org", "2026-12-07T00:00:00+00:00"))
    path.write_text(good, encoding="utf-8")
    commit_all(s.repo, "fix q1", ("Mallory", "m@example.org", "2026-12-08T00:00:00+00:00"))
    docs = by_doc(history_json(capsys, s.repo, "q1"))
    assert docs["doc-a"]["set_by"]["commit"]["author"] == "Alice Judge"
    assert docs["doc-d"]["set_by"]["commit"]["author"] == "Bob Reviewer"
    assert all(c["commit"]["author"] != "Mallory" for j in docs.values() for c in j["earlier"])
