"""Counted nouns: ``1 document over 1 question``, never ``1 documents over 1 questions``
(0.1.0 wrote the plural whatever the count)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.compare_helpers import bm25, qid, write_label, write_run

from labelpool import api
from labelpool.cli import main
from labelpool.words import counted, noun


def test_counted() -> None:
    assert counted(0, "document") == "0 documents"
    assert counted(1, "document") == "1 document"
    assert counted(2, "document") == "2 documents"
    assert counted(1, "pool entry", "pool entries") == "1 pool entry"
    assert counted(3, "pool entry", "pool entries") == "3 pool entries"
    assert noun(1, "loss", "losses") == "loss" and noun(5, "loss", "losses") == "losses"


@pytest.fixture
def one_question(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One question judged from bm25's top 10; ``other`` returns bm25's first nine and one
    document nobody judged: 1 document over 1 question to judge."""
    root = tmp_path / "repo"
    (root / "labels").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    write_label(root / "labels", 1, bm25(1), "bm25", 10)
    write_run(root / "runs" / "bm25.trec", lambda i: bm25(i) if i == 1 else [], "bm25")
    write_run(
        root / "runs" / "other.trec", lambda i: [*bm25(1)[:9], "q01-new"] if i == 1 else [], "o"
    )
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(root)
    return root


def test_compare_judging_cost_of_one_document_over_one_question(
    one_question: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["compare", "bm25", "other", "-m", "nDCG@10"]) == 0
    out = capsys.readouterr().out
    assert "other vs bm25 (baseline), 1 question; " in out
    verdict = next(line for line in out.splitlines() if line.startswith("verdict: "))
    assert verdict.startswith("verdict: uninterpretable on 1 of 1 measure (nDCG@10: ")
    assert verdict.endswith("; 1 document over 1 question to judge")
    report = api.compare("bm25", "other", measures=["nDCG@10"])
    (c,) = report.comparisons
    assert (c.judge_cost.documents, c.judge_cost.questions) == (1, 1)
    assert "; judge 1 document over 1 question (labelpool pool " in c.verdict
    assert "1 documents" not in report.to_markdown() + out


def test_pool_text_counts_one_question(
    one_question: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = api.pool(["bm25", "other"], depth=10)
    text = plan.to_text()
    assert "union of the top 10: 11 documents over 1 question\n" in text
    assert "in this batch: 1 document in 1 question\n" in text
    assert "per question: --verbose lists the 1 question\n" in text
    assert "| **to judge in this batch** | **1** in 1 question |" in plan.to_markdown()
    assert qid(1) in plan.to_dict()["questions"][0]["question"]


def test_the_report_reads_merge_commits_of_one_verdict_old_and_new(one_question: Path) -> None:
    """``labelpool merge: 1 verdict by ...`` (0.2.0) and ``1 verdicts by ...`` (0.1.0) both
    count in the report's timeline."""
    from tests.pool_scenario import git, init_git

    from labelpool import config
    from labelpool.report.timeline import timeline

    init_git(one_question)
    label = one_question / "labels" / "q01.yaml"
    for subject in ("labelpool merge: 1 verdicts by Bo (b1)", "labelpool merge: 1 verdict by Al"):
        label.write_text(label.read_text(encoding="utf-8") + "# edit\n", encoding="utf-8")
        git(one_question, "commit", "-q", "-am", subject)
    merges = timeline(config.load(one_question)).merges
    assert [(m.verdicts, m.batches) for m in merges] == [(1, ("b1",)), (1, ())]
