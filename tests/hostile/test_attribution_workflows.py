"""Attribution through the ways a judging pull request reaches the branch, and ignored
revisions: a merge commit or a rebase keeps each judge; a squash credits the squasher (with
GitHub's ``Co-authored-by:`` trailers for the other commit authors, copied as co-authors: the
README says to merge judging pull requests with a merge commit or a rebase); a reformatting
commit listed in ``.git-blame-ignore-revs`` is looked through, trailers and all; a conflict
resolved by hand in a merge commit is the merger's. Each case asserts the exit code and every
new commit's author and trailers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.cited import lp

import attribution_scenario as scen
from attribution_scenario import CO, RD, commit_as, git, merge_commits, set_verdict, snapshot

ALICE = ("Alice Judge", "alice@example.invalid")
BOB = ("Bob Reviewer", "bob@example.invalid")
SAM = ("Sam Maintainer", "sam@example.invalid")
BOT = ("Format Bot", "bot@example.invalid")


def ident(who: tuple[str, str]) -> str:
    return f"{who[0]} <{who[1]}>"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return scen.pooled_repo(tmp_path / "repo")


def judged_on_a_branch(repo: Path) -> str:
    """Alice and Bob judge on ``pr``, branched from the batch branch; back on the batch
    branch, which got one unrelated commit meanwhile. Returns the batch branch's name."""
    batch = git(repo, "branch", "--show-current").strip()
    git(repo, "switch", "-q", "-c", "pr")
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, ALICE, "alice judges\n")
    set_verdict(repo, CO, "no", "irrelevant")
    commit_as(repo, BOB, "bob judges\n")
    git(repo, "switch", "-q", batch)
    (repo / "NOTES.md").write_text("judging notes\n", encoding="utf-8")
    git(repo, "add", "NOTES.md")
    commit_as(repo, SAM, "notes\n")
    return batch


def merge(repo: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return lp(capsys, repo, "merge", "--partial")


def test_pull_request_merged_with_a_merge_commit_keeps_each_judge(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: the same (git blame follows the merge to each judge's commit)."""
    judged_on_a_branch(repo)
    git(
        repo,
        "merge",
        "-q",
        "--no-ff",
        "-m",
        "Merge pull request #3 from judges/pr",
        "pr",
        author=SAM,
    )
    base = scen.head(repo)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base) == [(ident(ALICE), []), (ident(BOB), [])]


def test_pull_request_rebased_keeps_each_judge(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub's "rebase and merge" re-commits each commit with its author. 0.1.0: the same."""
    batch = judged_on_a_branch(repo)
    git(repo, "switch", "-q", "pr")
    git(repo, "rebase", "-q", batch)
    base = scen.head(repo)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base) == [(ident(ALICE), []), (ident(BOB), [])]


def test_squash_merge_credits_the_squasher_with_the_judges_as_co_authors(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub's squash message names the other commit authors as co-authors: every line of
    the squash gets the squasher and all of them (the documented limit). 0.1.0: one commit by
    Sam Maintainer, no trailer: Alice and Bob vanished from the record."""
    judged_on_a_branch(repo)
    git(repo, "merge", "-q", "--squash", "pr")
    message = (
        "Judging batch (#3)\n\n* alice judges\n\n* bob judges\n\n"
        f"Co-authored-by: {ident(ALICE)}\nCo-authored-by: {ident(BOB)}\n"
    )
    commit_as(repo, SAM, message)
    base = scen.head(repo)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base) == [(ident(SAM), [ident(ALICE), ident(BOB)])]


def test_reformatting_commit_in_ignore_revs_is_looked_through_trailers_and_all(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bot's reformat carries a forged Co-authored-by; listed in .git-blame-ignore-revs,
    it is neither the author nor a source of co-authors. 0.1.0: Alice, no trailer."""
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, ALICE, "alice judges\n")
    path = repo / RD
    path.write_text(path.read_text().replace("verdict: relevant}", "verdict: 'relevant'}"))
    fmt = commit_as(repo, BOT, "reformat\n\nCo-authored-by: Mallory <mallory@example.invalid>\n")
    (repo / ".git-blame-ignore-revs").write_text(f"# formatting only\n{fmt}\n")
    git(repo, "add", ".git-blame-ignore-revs")
    commit_as(repo, BOT, "ignore the reformat in blame\n")
    base = scen.head(repo)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base) == [(ident(ALICE), [])]


def test_unreadable_ignore_revs_is_refused_naming_the_file(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line that names no commit: git blame cannot run, so no judge is guessed. 0.1.0: the
    same refusal."""
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, ALICE, "alice judges\n")
    (repo / ".git-blame-ignore-revs").write_text("not-a-commit\n")
    before = snapshot(repo)
    code, out, err = merge(repo, capsys)
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {repo / RD}: cannot tell who wrote its verdicts: git blame")
    assert err.endswith("(check .git-blame-ignore-revs: every line a commit of this repository)\n")
    assert snapshot(repo) == before


def test_conflict_resolved_in_a_merge_commit_is_the_mergers(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Alice and Bob disagree on one document on two branches; Sam resolves the conflict by
    hand in the merge commit with a third verdict: the line is Sam's (git blame's answer).
    0.1.0: the same."""
    batch = git(repo, "branch", "--show-current").strip()
    git(repo, "switch", "-q", "-c", "pr")
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, ALICE, "alice judges\n")
    git(repo, "switch", "-q", batch)
    set_verdict(repo, RD, "faq-shipping#damaged", "irrelevant")
    commit_as(repo, BOB, "bob judges\n")
    git(repo, "merge", "-q", "pr", check=False)
    text = (repo / RD).read_text()
    start, end = text.index("<<<<<<<"), text.index(">>>>>>>")
    end = text.index("\n", end) + 1
    resolved = "      - {doc: faq-shipping#damaged, verdict: 2}\n"
    (repo / RD).write_text(text[:start] + resolved + text[end:])
    git(repo, "add", RD)
    git(repo, "commit", "-q", "--no-edit", author=SAM)
    base = scen.head(repo)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base) == [(ident(SAM), [])]
