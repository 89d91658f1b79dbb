"""Attribution in ``history``: every commit it names shows its ``Co-authored-by:`` trailers,
text as ``by A <a> (with B <b>, C <c>)`` and JSON as ``co_authors: [{name, email}]`` on every
commit object; names from commits pass the sanitiser (controls and bidi characters escaped
in text, ASCII-only JSON).

0.1.0 showed the author alone, and its JSON had no ``co_authors``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.cited import lp

import attribution_scenario as scen
from attribution_scenario import RD, commit_as, git, set_verdict

ALICE = ("Alice Judge", "alice@example.invalid")
BOB = ("Bob Clicker", "bob@example.invalid")
ZED = ("Zed Reviewer", "zed@example.invalid")
DOC = "faq-shipping#damaged"


def ident(who: tuple[str, str]) -> str:
    return f"{who[0]} <{who[1]}>"


def who(rev: str, repo: Path, with_: str) -> str:
    """How history names commit ``rev``: author, co-authors, date, id and subject."""
    sha, author, mail, date, subject = (
        git(repo, "log", "-1", "--format=%H%x00%an%x00%ae%x00%aI%x00%s", rev)
        .strip("\n")
        .split("\x00")
    )
    return f"{author} <{mail}>{with_}, {date}, {sha[:10]} {subject!r}"


@pytest.fixture(autouse=True)
def whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read who is named, not the layout: each history line whole (unwrapped)."""
    monkeypatch.setenv("COLUMNS", "10000")


@pytest.fixture
def suggested(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Alice's verdict on DOC applied by Bob as a suggestion (Zed and Alice co-authors, Zed
    twice), then merged."""
    repo = scen.pooled_repo(tmp_path / "repo")
    set_verdict(repo, RD, DOC, "relevant")
    message = (
        "Apply suggestions from code review\n\n"
        f"Co-authored-by: {ident(ZED)}\nCo-authored-by: {ident(ALICE)}\n"
        "Co-authored-by: Zed <ZED@example.invalid>\n"
    )
    commit_as(repo, BOB, message)
    assert lp(capsys, repo, "merge", "--partial")[0] == 0
    return repo


def history(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = lp(capsys, repo, "history", "returns-damaged", DOC, *args)
    assert (code, err) == (0, "")
    return out


def test_history_text_names_co_authors(suggested: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: "set by Bob Clicker <bob@example.invalid>, ..." with no co-author."""
    out = history(suggested, capsys).splitlines()
    with_ = f" (with {ident(ALICE)}, {ident(ZED)})"
    assert f"  set by {who('HEAD', suggested, with_)}" in out
    assert f"  verdict filled in by {who('HEAD~1', suggested, with_)}" in out


def test_history_json_has_co_authors_on_every_commit(
    suggested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: no "co_authors" key."""
    data = json.loads(history(suggested, capsys, "--format", "json"))
    expected = [
        {"name": "Alice Judge", "email": "alice@example.invalid"},
        {"name": "Zed Reviewer", "email": "zed@example.invalid"},
    ]
    [j] = data["judgments"]
    assert j["set_by"]["commit"]["co_authors"] == expected
    assert j["decided_by"]["commit"]["co_authors"] == expected
    assert [line["commit"]["co_authors"] for line in j["lines"]] == [expected, expected]
    assert data["created"]["co_authors"] == []


def test_history_of_a_verdict_not_merged_yet_names_the_suggestions_co_authors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pending line is blamed on the suggestion commit. 0.1.0: Bob alone."""
    repo = scen.pooled_repo(tmp_path / "repo")
    set_verdict(repo, RD, DOC, "relevant")
    commit_as(repo, BOB, f"Apply suggestion\n\nCo-authored-by: {ident(ZED)}\n")
    out = history(repo, capsys).splitlines()
    line = next(ln for ln in out if ln.startswith("  line ") and "(pending)" in ln)
    assert line.endswith(": " + who("HEAD", repo, f" (with {ident(ZED)})"))


def test_control_and_bidi_characters_in_a_co_author_are_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A co-author named ``Eve ESC[31m U+202E`` prints as ``Eve \\x1b[31m \\u202e`` in text and
    as ``\\u001b`` / ``\\u202e`` in JSON. 0.1.0: the name was not shown (co-authors dropped);
    the author's name went out raw."""
    repo = scen.pooled_repo(tmp_path / "repo")
    set_verdict(repo, RD, DOC, "relevant")
    commit_as(repo, BOB, "Apply\n\nCo-authored-by: Eve \x1b[31m \u202e <eve@example.invalid>\n")
    text = history(repo, capsys)
    assert "\x1b" not in text and "\u202e" not in text
    assert "(with Eve \\x1b[31m \\u202e <eve@example.invalid>)" in text
    raw = history(repo, capsys, "--format", "json")
    assert raw.isascii()
    assert '"name": "Eve \\u001b[31m \\u202e"' in raw
