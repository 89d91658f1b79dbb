"""journal: commits built as objects land once; merge's commit message carries co-authors."""

from __future__ import annotations

import subprocess
from pathlib import Path

from labelpool import gitio, journal
from labelpool.workflows.merge.commits import JudgeCommit, commit_message
from labelpool.workflows.merge.fold import Judge


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout


def _repo(root: Path) -> Path:
    (root / "labels").mkdir(parents=True)
    (root / "labels" / "a.yaml").write_text("a\n")
    (root / "labels" / "b.yaml").write_text("b\n")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Runner")
    _git(root, "config", "user.email", "runner@example.invalid")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return root


def test_build_and_land_a_chain_of_two_authors(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "r")
    base = gitio.head_commit(repo)
    assert base is not None
    steps = [
        journal.Step({"labels/a.yaml": b"a2\n"}, "first\n", ("Alice", "alice@x.invalid")),
        journal.Step({"labels/a.yaml": b"a3\n", "labels/b.yaml": b"b2\n"}, "second\n", None),
        journal.Step({}, "empty: dropped\n", ("Nobody", "n@x.invalid")),
    ]
    todo = journal.build(
        repo,
        "merge",
        steps,
        ref="refs/heads/main",
        old=base,
        base=base,
        head=None,
        modes=gitio.tree_entries(repo, base, "labels"),
    )
    assert todo is not None and len(todo.commits) == 2
    assert _git(repo, "rev-parse", "HEAD").strip() == base  # nothing moved yet
    journal.land(repo, todo, "test")
    assert _git(repo, "log", "--format=%an|%cn|%s", "-2").splitlines() == [
        "Runner|Runner|second",
        "Alice|Runner|first",
    ]
    assert (repo / "labels" / "a.yaml").read_text() == "a3\n"
    assert _git(repo, "status", "--porcelain") == ""
    assert journal.recover(repo, "merge") is None  # the journal went


def test_commit_message_ends_with_co_author_trailers(tmp_path: Path) -> None:
    judge = Judge("Alice", "alice@x.invalid", co_authors=(("Bo Z", "bo@x.invalid"),))
    info = JudgeCommit(judge, None, (Path("labels/q.yaml"),), 1, 0, 0, ("b1",), 0)
    message = commit_message(info, None, "pending")
    assert message.endswith("\n\nCo-authored-by: Bo Z <bo@x.invalid>\n")
    parsed = subprocess.run(
        ["git", "interpret-trailers", "--parse"],
        input=message,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert parsed == "Co-authored-by: Bo Z <bo@x.invalid>\n"
