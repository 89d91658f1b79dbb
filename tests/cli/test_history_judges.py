"""``labelpool history QUESTION DOC`` names every judge of every verdict from the record
(issue 24), beside git's word, and shows where they differ as a line, not an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests import disputes_scenario as scenario

from labelpool.cli import main


def history(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> tuple[int, str]:
    code = main(["history", *args, "--repo", str(repo)])
    out = capsys.readouterr()
    assert out.err == ""
    return code, out.out


def test_every_judge_of_every_verdict(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = scenario.label_text(1).replace(
        "    - {judge: Bo Chen <bo@example.org>, verdict: irrelevant}\n  q01-c:",
        "    - {judge: Bo Chen <bo@example.org>, verdict: irrelevant}\n"
        "    - {adjudicator: Cy Park <cy@example.org>, verdict: 2}\n  q01-c:",
    )
    text = text.replace(
        "  q01-c:\n",
        "  q01-c:\n    - {judge: umbrela-3, kind: machine, verdict: irrelevant}\n",
    )
    (repo / "labels" / "q01.yaml").write_text(text, encoding="utf-8")
    scenario.commit_all(repo)
    code, out = history(capsys, repo, "q01", "q01-b")
    assert code == 0
    assert (
        "  judged by Ana Lopez <ana@example.org>: relevant\n"
        "  judged by Bo Chen <bo@example.org>: irrelevant\n"
        "  adjudicated by Cy Park <cy@example.org>: grade 2\n"
    ) in out
    assert "git credits" not in out  # Ana committed it, and the record names her
    code, out = history(capsys, repo, "q01", "q01-c")
    assert "  judged by umbrela-3 (machine): irrelevant\n" in out
    code, out = history(capsys, repo, "q01", "q01-b", "--format", "json")
    doc = json.loads(out)["judgments"][0]
    assert doc["verdicts"][2] == {
        "judge": "Cy Park <cy@example.org>",
        "kind": "person",
        "adjudicator": True,
        "verdict": "grade 2",
    }
    assert doc["git_credits"] is None


def test_record_and_git_differ_is_a_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A squash merge credits whoever merged: the record names Bo, git credits Ana."""
    text = scenario.label_text(1).replace(f"judge: {scenario.ANA}", f"judge: {scenario.BO}")
    (repo / "labels" / "q01.yaml").write_text(text, encoding="utf-8")
    scenario.commit_all(repo)
    code, out = history(capsys, repo, "q01", "q01-a")
    assert code == 0
    assert "  judged by Bo Chen <bo@example.org>: grade 1\n" in out
    assert "  ! git credits Ana Lopez <ana@example.org>, whom the record does not name" in out
    code, out = history(capsys, repo, "q01", "q01-a", "--format", "json")
    assert json.loads(out)["judgments"][0]["git_credits"] == "Ana Lopez <ana@example.org>"


def test_no_record_no_judge_lines(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "labels" / "q01.yaml").write_text(
        "id: q01\nquestion: Q?\nrelevant_doc_ids:\n  - a\njudged_ids:\n  - a\n", encoding="utf-8"
    )
    scenario.commit_all(repo)
    code, out = history(capsys, repo, "q01", "a")
    assert code == 0
    assert "judged by" not in out
    code, out = history(capsys, repo, "q01", "a", "--format", "json")
    assert "verdicts" not in json.loads(out)["judgments"][0]
