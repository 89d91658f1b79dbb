"""``labelpool merge`` on a proposals branch: a proposed class whose ``proposed:`` line a
reviewer deleted is written in the accepted form in a commit authored by that reviewer, so
that ``git blame`` names them; scoring uses the class."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.labelfile.classes import add_proposals
from labelpool.model import label_from_data
from pool_scenario import cli, git, make_repo

RITA = {"GIT_AUTHOR_NAME": "Rita Review", "GIT_AUTHOR_EMAIL": "rita@example.invalid"}
CLICKER = {"GIT_AUTHOR_NAME": "Gus Hub", "GIT_AUTHOR_EMAIL": "gus@example.invalid"}
A, B = "proposed: a", "proposed: b"
PROPOSED_A = "    proposed: {method: shingle-jaccard, score: 0.91}\n"
PROPOSED_B = "    proposed: {method: shingle-containment, score: 0.95}\n"


@pytest.fixture
def proposed(tmp_path: Path) -> Path:
    """The scenario with two proposals in returns-damaged, committed on a branch."""
    repo = make_repo(tmp_path / "repo")
    git(repo, "checkout", "-q", "-b", "classes/proposed")
    path = repo / "labels" / "returns-damaged.yaml"
    text = add_proposals(
        path.read_text(encoding="utf-8"),
        [
            (["policy-returns-v3#sec-2", "tenant-acme#returns"], "shingle-jaccard", 0.91, A),
            (["faq-shipping#damaged", "handbook#returns"], "shingle-containment", 0.95, B),
        ],
    )
    path.write_text(text, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "labelpool classes propose")
    return repo


def _label(repo: Path) -> dict:  # type: ignore[type-arg]
    return yamlfile.load_fast(repo / "labels" / "returns-damaged.yaml")  # type: ignore[no-any-return]


def _accept(repo: Path, proposed_line: str, who: dict[str, str], message: str) -> None:
    path = repo / "labels" / "returns-damaged.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(proposed_line) == 1
    path.write_text(text.replace(proposed_line, ""), encoding="utf-8")
    git(repo, "commit", "-q", "-am", message, env=who)


def test_the_reviewer_who_deleted_the_line_is_the_author_of_the_class(
    proposed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(proposed, "validate") == 1  # two proposals wait (LP062)
    assert cli(proposed, "validate", "--allow-pending") == 0
    _accept(proposed, PROPOSED_A, RITA, "accept the v3 / acme class")
    capsys.readouterr()
    assert cli(proposed, "merge") == 0
    out = capsys.readouterr().out
    assert "Rita Review <rita@example.invalid>: 1 proposed class accepted, commit" in out
    assert git(proposed, "log", "-1", "--format=%an|%cn|%s").strip() == (
        "Rita Review|Runner|labelpool merge: 1 proposed class accepted by Rita Review"
    )
    text = (proposed / "labels" / "returns-damaged.yaml").read_text(encoding="utf-8")
    assert "  - - policy-returns-v3#sec-2\n    - tenant-acme#returns\n" in text
    assert "# proposed: a" not in text and "# proposed: b" in text  # the other proposal still waits
    blame = git(proposed, "blame", "--line-porcelain", "labels/returns-damaged.yaml")
    authors = [ln[7:] for ln in blame.splitlines() if ln.startswith("author ")]
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line in ("  - - policy-returns-v3#sec-2", "    - tenant-acme#returns"):
            assert authors[i] == "Rita Review"
    label = label_from_data(_label(proposed))
    assert label.relevant_classes == (("policy-returns-v3#sec-2", "tenant-acme#returns"),)
    assert label.gain["tenant-acme#returns"] == 1  # carried by the class
    assert [p.members for p in label.proposed_classes] == [
        ("faq-shipping#damaged", "handbook#returns")
    ]
    head = git(proposed, "rev-parse", "HEAD")
    assert cli(proposed, "merge") == 0  # twice: nothing more
    assert git(proposed, "rev-parse", "HEAD") == head


def test_a_suggestion_applied_on_github_credits_its_co_author(
    proposed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = "Apply suggestion\n\nCo-authored-by: Rita Review <rita@example.invalid>\n"
    _accept(proposed, PROPOSED_B, CLICKER, message)
    assert cli(proposed, "merge") == 0
    body = git(proposed, "log", "-1", "--format=%an%n%B")
    assert body.startswith("Gus Hub\n")
    assert "Co-authored-by: Rita Review <rita@example.invalid>" in body
    # a class of a judged-irrelevant document: its members share grade 0
    label = label_from_data(_label(proposed))
    assert label.gain["faq-shipping#damaged"] == 0


def test_a_deletion_not_committed_waits(proposed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = proposed / "labels" / "returns-damaged.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(PROPOSED_A, ""), encoding="utf-8")
    head = git(proposed, "rev-parse", "HEAD")
    capsys.readouterr()
    assert cli(proposed, "merge") == 0
    assert git(proposed, "rev-parse", "HEAD") == head
    assert "its accepted classes wait" in capsys.readouterr().err
