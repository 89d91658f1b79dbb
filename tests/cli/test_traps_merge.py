"""``merge --oracle`` says what happened (issue 13, "No traps").

0.1.0: documents the oracle did not know left ``still pending: 2`` as the last line and exit 1,
which read as a failure of the merge."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool.cli import main
from pool_scenario import git, make_repo

UNKNOWN = (
    "merged 3 verdicts in 1 commit; 2 documents unknown to the oracle stay pending "
    "(--oracle-missing irrelevant to count them as judged irrelevant)"
)


@pytest.fixture
def pooled(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    assert main(["pool", "a", "b", "--depth", "3", "--repo", str(repo)]) == 0
    return repo


def _reference(repo: Path) -> Path:
    qrels = repo.parent / "reference.qrels"
    qrels.write_text(
        "returns-damaged 0 faq-shipping#damaged 2\n"
        "returns-damaged 0 policy-returns-v2#sec-2 0\n"
        "cancel-order 0 no 1\n"
        "cancel-order 0 1239 -1\n",
        encoding="utf-8",
    )
    return qrels


def test_oracle_merge_ends_with_what_happened(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = _reference(pooled)
    capsys.readouterr()
    assert main(["merge", "--oracle", str(qrels), "--repo", str(pooled)]) == 1  # verdicts remain
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == UNKNOWN
    assert "still pending: 2" in out  # the list stays, above the last line
    assert git(pooled, "log", "-1", "--format=%an").strip() == "labelpool oracle"

    args = ["merge", "--oracle", str(qrels), "--oracle-missing", "irrelevant"]
    assert main([*args, "--repo", str(pooled)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "merged 2 verdicts in 1 commit"


def test_oracle_merge_without_commit_says_so(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = _reference(pooled)
    capsys.readouterr()
    code = main(
        ["merge", "--oracle", str(qrels), "--no-commit", "--partial", "--repo", str(pooled)]
    )
    assert code == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == UNKNOWN.replace("in 1 commit", "(not committed)")
