"""Attribution, shallow clones (CI checkouts default to depth 1): ``git blame`` there credits
every line older than the boundary to the boundary commit's author, so ``merge`` and
``history`` refuse to run: exit 1, ``error: shallow clone: verdict authors cannot be read; run
git fetch --unshallow``, nothing written (work tree, index, HEAD, ``.git/labelpool``).

0.1.0 ran: the issue measured "merge credited other judges' verdicts to the tip's author".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.cited import lp

import attribution_scenario as scen
from attribution_scenario import CO, RD, commit_as, git, merge_commits, set_verdict, snapshot

ALICE = ("Alice Judge", "alice@example.invalid")
BOB = ("Bob Reviewer", "bob@example.invalid")
SHALLOW = "error: shallow clone: verdict authors cannot be read; run git fetch --unshallow\n"


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Alice's verdict, then Bob's, on the batch branch."""
    repo = scen.pooled_repo(tmp_path_factory.mktemp("origin") / "repo")
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, ALICE, "alice judges\n")
    set_verdict(repo, CO, "no", "irrelevant")
    commit_as(repo, BOB, "bob judges\n")
    return repo


@pytest.fixture
def shallow(origin: Path, tmp_path: Path) -> Path:
    """A depth-1 clone of the batch branch: its one commit is Bob's."""
    branch = git(origin, "branch", "--show-current").strip()
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", branch, origin.as_uri(), str(clone))
    git(clone, "config", "user.name", "Runner")
    git(clone, "config", "user.email", "runner@example.invalid")
    assert git(clone, "rev-parse", "--is-shallow-repository").strip() == "true"
    return clone


def refused(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> None:
    before = snapshot(repo)
    assert lp(capsys, repo, *args) == (1, "", SHALLOW)
    assert snapshot(repo) == before


def test_merge_in_a_shallow_clone_is_refused(
    shallow: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, one commit crediting Bob Reviewer (the boundary) with Alice's verdict
    too."""
    refused(shallow, capsys, "merge", "--partial")


def test_merge_no_commit_in_a_shallow_clone_is_refused(
    shallow: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, both verdicts folded into the files, reported as Bob Reviewer's."""
    refused(shallow, capsys, "merge", "--partial", "--no-commit")


def test_merge_with_a_journal_left_in_a_shallow_clone_touches_nothing(
    shallow: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal comes before a journal is finished or discarded. 0.1.0 had no journal;
    it merged, crediting Bob Reviewer."""
    journal = shallow / ".git" / "labelpool"
    journal.mkdir()
    (journal / "merge.json").write_text("{}", encoding="utf-8")
    refused(shallow, capsys, "merge", "--partial")
    assert (journal / "merge.json").read_text(encoding="utf-8") == "{}"


def test_history_in_a_shallow_clone_is_refused(
    shallow: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, the document's pending verdict line blamed on Bob Reviewer."""
    refused(shallow, capsys, "history", "returns-damaged")


def test_history_json_in_a_shallow_clone_is_refused(
    shallow: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, JSON naming Bob Reviewer for every line."""
    refused(
        shallow, capsys, "history", "returns-damaged", "faq-shipping#damaged", "--format", "json"
    )


def test_after_unshallow_merge_credits_each_judge(
    shallow: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The way out the message names. 0.1.0 credited both verdicts to Bob Reviewer before;
    after unshallowing it credited each judge too."""
    git(shallow, "fetch", "-q", "--unshallow")
    base = scen.head(shallow)
    assert lp(capsys, shallow, "merge", "--partial")[0] == 0
    assert merge_commits(shallow, base) == [
        ("Alice Judge <alice@example.invalid>", []),
        ("Bob Reviewer <bob@example.invalid>", []),
    ]
