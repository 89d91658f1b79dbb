"""Data loss, the judges of a batch for several judges (issue 24): every judge's verdict is at
HEAD with its judge, whatever way GitHub merges the judging pull request.

Simulated with real git on a bare "origin": the batch (``pool --judges 2``) is pushed on its
branch; Ana judges seat 1 and Bo seat 2, each in their own commit; ``merge`` runs on the
batch branch (before the pull request is merged), and the branch reaches ``main`` by a merge
commit (``git merge --no-ff``), a rebase (``git rebase`` then a fast-forward) or a squash
(``git merge --squash`` and a commit by a third person). The record at ``main``'s HEAD names
both judges on every document. A seat's ``judge:`` (the page claims it) credits its judge
even when the squash comes first; an accepted suggestion credits the one who committed it,
its reviewer a co-author of the merge commit (docs/attribution.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.cli import main
from labelpool.model import label_from_data
from labelpool.verdicts import record
from pool_scenario import git, make_repo

ANA = ("Ana Lopez", "ana@example.org")
BO = ("Bo Chen", "bo@example.org")
SQUASHER = ("Sam Squash", "sam@example.org")
DOCS = ("faq-shipping#damaged", "policy-returns-v2#sec-2", "tenant-acme#returns")


def _who(person: tuple[str, str]) -> str:
    return f"{person[0]} <{person[1]}>"


def _commit_as(repo: Path, person: tuple[str, str], message: str) -> None:
    git(repo, "-c", f"user.name={person[0]}", "-c", f"user.email={person[1]}", "commit", "-qam",
        message)  # fmt: skip


def _fill(repo: Path, seat: int, verdict: str, claim: tuple[str, str] | None = None) -> None:
    """Every entry of ``seat`` in returns-damaged gets ``verdict`` (and ``judge:``)."""
    path = repo / "labels" / "returns-damaged.yaml"
    head, one, two = _split(path.read_text("utf-8"))
    part = one if seat == 1 else two
    part = part.replace("verdict: null}", f"verdict: {verdict}}}")
    if claim is not None:
        part = part.replace("    docs:\n", f"    judge: {_who(claim)}\n    docs:\n", 1)
    one, two = (part, two) if seat == 1 else (one, part)
    path.write_text(head + one + two, "utf-8")


def _split(text: str) -> tuple[str, str, str]:
    start = text.index("pending:\n") + len("pending:\n")
    second = text.index("  - batch:", text.index("    seat: 1\n"))
    return text[:start], text[start:second], text[second:]


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    git(repo, "push", "-q", "origin", "main")
    assert main(["pool", "a", "b", "--depth", "3", "--judges", "2", "--repo", str(repo)]) == 0
    git(repo, "push", "-q", "origin", "HEAD")
    return repo


def _judged(repo: Path) -> dict[str, set[tuple[str | None, object]]]:
    label = label_from_data(yamlfile.load_fast(repo / "labels" / "returns-damaged.yaml"))
    assert not label.pending
    return {d: {(v.judge, v.verdict) for v in record(label, d)} for d in DOCS}


def _both() -> dict[str, set[tuple[str | None, object]]]:
    return {d: {(_who(ANA), "relevant"), (_who(BO), "irrelevant")} for d in DOCS}


def _land(repo: Path, how: str) -> None:
    branch = git(repo, "symbolic-ref", "--short", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    if how == "merge":
        git(repo, "merge", "-q", "--no-ff", "-m", "Merge pull request #1", branch)
    elif how == "rebase":
        git(repo, "checkout", "-q", branch)
        git(repo, "rebase", "-q", "main")
        git(repo, "checkout", "-q", "main")
        git(repo, "merge", "-q", "--ff-only", branch)
    else:
        git(repo, "merge", "-q", "--squash", branch)
        _commit_as(repo, SQUASHER, "Judging batch (#1)")
    git(repo, "push", "-q", "origin", "main")


@pytest.mark.parametrize("how", ["merge", "rebase", "squash"])
def test_every_judge_survives_every_merge_method(batch: Path, how: str) -> None:
    _fill(batch, 1, "relevant")
    _commit_as(batch, ANA, "seat 1")
    _fill(batch, 2, "irrelevant")
    _commit_as(batch, BO, "seat 2")
    assert (
        main(["merge", "--partial", "--repo", str(batch)]) == 0
    )  # on the batch branch, before the PR
    _land(batch, how)
    assert _judged(batch) == _both()
    assert (
        main(["validate", "--allow-pending", "--repo", str(batch)]) == 0
    )  # LP047: a warning, exit 0


def test_a_claimed_seat_credits_its_judge_after_a_squash(batch: Path) -> None:
    _fill(batch, 1, "relevant", claim=ANA)
    _fill(batch, 2, "irrelevant", claim=BO)
    _commit_as(batch, ANA, "both seats, one commit")  # blame names Ana for Bo's lines too
    _land(batch, "squash")  # the squasher authors every line
    assert main(["merge", "--partial", "--repo", str(batch)]) == 0
    assert _judged(batch) == _both()
    authors = git(batch, "log", "-2", "--format=%an <%ae>").split("\n")[:2]
    assert sorted(authors) == sorted([_who(ANA), _who(BO)])  # a commit per judge


def test_a_suggestion_credits_its_committer_with_the_reviewer_as_co_author(
    batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(batch, 1, "relevant")
    _commit_as(batch, ANA, "seat 1")
    _fill(batch, 2, "irrelevant")
    trailer = f"Apply suggestions from code review\n\nCo-authored-by: {_who(SQUASHER)}"
    git(batch, "-c", f"user.name={BO[0]}", "-c", f"user.email={BO[1]}", "commit", "-qam", trailer)
    assert main(["merge", "--partial", "--verbose", "--repo", str(batch)]) == 0
    assert "new disputes: 3 documents in 1 question" in capsys.readouterr().out
    assert _judged(batch) == _both()
    bodies = git(batch, "log", "-2", "--format=%an%n%B%n--")
    assert f"Co-authored-by: {_who(SQUASHER)}" in bodies


def test_the_same_judge_twice_on_a_document_is_an_error(
    batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(batch, 1, "relevant", claim=ANA)
    _fill(batch, 2, "irrelevant", claim=ANA)
    _commit_as(batch, ANA, "both seats")
    before = (batch / "labels" / "returns-damaged.yaml").read_bytes()
    assert main(["merge", "--partial", "--repo", str(batch)]) == 1
    err = capsys.readouterr().err
    assert "contradicts" in err and f"by the same judge {_who(ANA)}" in err
    assert (batch / "labels" / "returns-damaged.yaml").read_bytes() == before
