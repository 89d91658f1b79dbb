"""Attribution, GitHub suggestions and co-authors: ``merge`` credits the author of a verdict
line's last commit and copies that commit's ``Co-authored-by:`` trailers (parsed with ``git
interpret-trailers --parse``, de-duplicated by email, sorted) into the folding commit, one
commit per (author, co-author set). Each case asserts the exit code, the report and every new
commit's author and trailers (``git log --format=%(trailers:key=Co-authored-by)``).

0.1.0 credited the author of the line's last commit (``git blame``) and dropped every
co-author: the issue measured "the co-author is dropped".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.cited import lp

import attribution_scenario as scen
from attribution_scenario import CO, RD, commit_as, merge_commits, set_verdict

ALICE = ("Alice Judge", "alice@example.invalid")
BOB = ("Bob Clicker", "bob@example.invalid")
ZED = ("Zed Reviewer", "zed@example.invalid")
AMY = ("Amy Reviewer", "amy@example.invalid")


def ident(who: tuple[str, str]) -> str:
    return f"{who[0]} <{who[1]}>"


def suggestion(reviewer: tuple[str, str], *more: tuple[str, str]) -> str:
    """The message GitHub writes when a suggestion is applied (the clicker is the author)."""
    trailers = "".join(f"Co-authored-by: {ident(r)}\n" for r in (reviewer, *more))
    return f"Apply suggestions from code review\n\n{trailers}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return scen.pooled_repo(tmp_path / "repo")


def merge(repo: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    code, out, err = lp(capsys, repo, "merge", "--partial")
    lines = [ln.rsplit(", commit ", 1)[0] for ln in out.splitlines()]
    return code, lines, err


def test_suggestion_credits_the_clicker_with_the_reviewer_as_co_author(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: one commit by Bob Clicker, no Co-authored-by trailer (Alice dropped)."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, BOB, suggestion(ALICE))
    code, out, err = merge(repo, capsys)
    assert (code, err) == (0, "")
    assert out[:2] == [
        "Bob Clicker <bob@example.invalid>: 1 verdict",
        "  1 relevant, 0 irrelevant, 0 duplicates; 1 file",
    ]
    assert merge_commits(repo, base)[1:] == [(ident(BOB), [ident(ALICE)])]


def test_co_authors_are_sorted_by_name(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: one commit by Bob Clicker with no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, BOB, suggestion(ZED, AMY))
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[1:] == [(ident(BOB), [ident(AMY), ident(ZED)])]


def test_co_authors_are_deduplicated_by_email_ignoring_case(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: one commit by Bob Clicker with no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    message = (
        "Apply suggestions\n\n"
        "Co-authored-by: Zed Reviewer <zed@example.invalid>\n"
        "co-authored-by: Zed R. <ZED@EXAMPLE.INVALID>\n"
        "Co-authored-by: Zed Reviewer <zed@example.invalid>\n"
    )
    commit_as(repo, BOB, message)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[1:] == [(ident(BOB), [ident(ZED)])]


def test_the_author_is_never_its_own_co_author(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: one commit by Bob Clicker with no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, BOB, "verdict\n\nCo-authored-by: Bob C <BOB@example.invalid>\n")
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[1:] == [(ident(BOB), [])]


def test_one_commit_per_author_and_co_author_set(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: one commit by Bob Clicker for all four verdicts, no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    set_verdict(repo, RD, "policy-returns-v2#sec-2", "irrelevant")
    commit_as(repo, BOB, suggestion(ZED))
    set_verdict(repo, RD, "tenant-acme#returns", "2")
    commit_as(repo, BOB, suggestion(AMY))
    set_verdict(repo, CO, "no", "irrelevant")
    commit_as(repo, BOB, "my own verdict\n")
    code, out, _ = merge(repo, capsys)
    assert code == 0
    assert merge_commits(repo, base)[3:] == [
        (ident(BOB), []),
        (ident(BOB), [ident(AMY)]),
        (ident(BOB), [ident(ZED)]),
    ]
    assert out[:6] == [
        "Bob Clicker <bob@example.invalid>: 1 verdict",
        "  0 relevant, 1 irrelevant, 0 duplicates; 1 file",
        "Bob Clicker <bob@example.invalid>: 1 verdict",
        "  1 relevant, 0 irrelevant, 0 duplicates; 1 file",
        "Bob Clicker <bob@example.invalid>: 2 verdicts",
        "  1 relevant, 1 irrelevant, 0 duplicates; 1 file",
    ]


def test_only_the_last_commit_of_the_line_counts(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suggestion, then the verdict changed again by Alice without a trailer: Alice alone.
    0.1.0: Alice alone too (it never copied trailers)."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "irrelevant")
    commit_as(repo, BOB, suggestion(ZED))
    path = repo / RD
    path.write_text(
        path.read_text().replace("damaged, verdict: irrelevant}", "damaged, verdict: relevant}")
    )
    commit_as(repo, ALICE, "no, relevant\n")
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[2:] == [(ident(ALICE), [])]


def test_forged_trailer_in_a_commit_that_did_not_touch_the_verdict_is_ignored(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mallory's later commit only adds a comment line to the file, with a Co-authored-by
    trailer naming herself; the verdict line stays Alice's. 0.1.0: Alice, no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, ALICE, "verdict\n")
    path = repo / RD
    path.write_text("# reviewed\n" + path.read_text())
    mallory = ("Mallory", "mallory@example.invalid")
    commit_as(repo, mallory, f"comment\n\nCo-authored-by: {ident(mallory)}\n")
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[2:] == [(ident(ALICE), [])]


def test_co_authored_by_outside_the_trailer_block_is_not_a_trailer(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``git interpret-trailers --parse`` reads only the last paragraph. 0.1.0: no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    message = (
        "verdict\n\nCo-authored-by: Zed Reviewer <zed@example.invalid>\n\n"
        "This paragraph ends the message, so the line above is body text.\n"
    )
    commit_as(repo, ALICE, message)
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[1:] == [(ident(ALICE), [])]


def test_co_author_without_an_email_is_ignored(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: no trailer."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    message = "verdict\n\nCo-authored-by: just a name\nCo-authored-by: Amy Reviewer <>\n"
    commit_as(repo, ALICE, message + f"Co-authored-by: {ident(ZED)}\n")
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[1:] == [(ident(ALICE), [ident(ZED)])]


def test_uncommitted_verdict_is_the_current_users_without_co_authors(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HEAD is a suggestion with a trailer; a verdict typed afterwards and not committed is
    Runner's (the user merging) with no co-author. 0.1.0: Runner's too, and Bob's without
    Zed."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, BOB, suggestion(ZED))
    set_verdict(repo, RD, "tenant-acme#returns", "irrelevant")
    code, _, err = merge(repo, capsys)
    assert code == 0
    assert "verdict lines not committed yet are attributed to the current git user" in err
    assert merge_commits(repo, base)[1:] == [
        ("Runner <runner@example.invalid>", []),
        (ident(BOB), [ident(ZED)]),
    ]


def test_suggestions_added_as_a_batch_give_every_line_all_suggesters(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub's "add suggestions to batch" makes one commit naming every suggester: each
    line of the batch gets them all (the documented limit). 0.1.0: Bob alone."""
    base = scen.head(repo)
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    set_verdict(repo, CO, "no", "irrelevant")
    commit_as(repo, BOB, suggestion(ZED, AMY))
    code, out, _ = merge(repo, capsys)
    assert code == 0
    assert merge_commits(repo, base)[1:] == [(ident(BOB), [ident(AMY), ident(ZED)])]
    assert out[:2] == [
        "Bob Clicker <bob@example.invalid>: 2 verdicts",
        "  1 relevant, 1 irrelevant, 0 duplicates; 2 files",
    ]


def test_names_with_odd_characters_are_kept_exactly(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: the author kept, the co-author dropped."""
    base = scen.head(repo)
    odd = ("Ünïcode, Jr. (the 2nd)", "u+nicode@example.invalid")
    zoe = ('Zoë O\'Brien-Ñúñez "Z"', "zoe@example.invalid")
    set_verdict(repo, RD, "faq-shipping#damaged", "relevant")
    commit_as(repo, odd, suggestion(zoe))
    assert merge(repo, capsys)[0] == 0
    assert merge_commits(repo, base)[1:] == [(ident(odd), [ident(zoe)])]
