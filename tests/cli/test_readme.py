"""The README (and ``docs/example.md``, which describes the example in full) tell the truth
about the example shipped in this checkout.

(a) Every figure they quote about the example is computed here from ``labels/``, ``runs/`` and
``corpus/``: 60 questions (58 judged) and their pool entry (``docs/example.md``), R@10 0.840 vs
0.582 against the full ground truth (``corpus/ground-truth.qrels``, over the 58 judged
questions), R@10 0.657 vs 0.703 against the labels, 46% of dense's top 10 unjudged (both
pages), 267 documents over 54 questions to judge.
(b) The README's main-job block (the ``text`` block after "The first command shows exactly
that") is the full output of the command it shows, byte for byte; the one exception is the
12-hex commit id on its first line (``labels <commit>``), which names the checkout's HEAD and
so changes with every commit. Timing tables (Speed) come from ``bench/`` and are not tested.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
import pytrec_eval
import yaml

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PROSE = " ".join(README.split())  # prose figures are checked across line breaks
EXAMPLE = " ".join((ROOT / "docs" / "example.md").read_text(encoding="utf-8").split())
COMMAND = "labelpool compare runs/bm25.trec runs/dense.trec"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main([*args, "--repo", str(ROOT)]) == 0
    return capsys.readouterr().out


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.chdir(ROOT)


def _main_job_block() -> str:
    after = README.split("The first command shows exactly that", 1)[1]
    match = re.search(r"```text\n(.*?)```", after, re.S)
    assert match, "no ```text block after 'The first command shows exactly that'"
    return match.group(1)


def test_main_job_block_is_the_full_output_of_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert f"&& {COMMAND}\n" in README  # the command the block shows
    out = _run(capsys, *COMMAND.split()[1:])
    block = _main_job_block()
    # this checkout's commit, and "(dirty)" while it has uncommitted edits
    head = re.match(r"labels ([0-9a-f]{12}|uncommitted)( \(dirty\))?  ", out)
    assert head, out.splitlines()[0]
    shown = re.match(r"labels ([0-9a-f]{12})  ", block)
    assert shown, block.splitlines()[0]
    assert block == out.replace(head.group(0), shown.group(0), 1)


def _labels() -> list[dict[str, object]]:
    return [yaml.safe_load(p.read_text("utf-8")) for p in sorted((ROOT / "labels").glob("*.yaml"))]


def test_question_counts() -> None:
    labels = _labels()
    judged = [d for d in labels if d.get("judged_ids")]
    assert (len(labels), len(judged)) == (60, 58)
    assert "`labels/` holds 60 questions (58 judged)" in EXAMPLE
    assert all(d["pool"] == [{"system": "bm25", "k": 20, "date": "2026-06-02"}] for d in judged)
    assert "`{system: bm25, k: 20, date: '2026-06-02'}`" in EXAMPLE


def test_ground_truth_recall() -> None:
    judged = {str(d["id"]) for d in _labels() if d.get("judged_ids")}
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in (ROOT / "corpus" / "ground-truth.qrels").read_text("utf-8").splitlines():
        qid, _zero, doc, grade = line.split()
        if qid in judged:
            qrels[qid][doc] = int(grade)
    recall = {}
    for system in ("dense", "bm25"):
        run: dict[str, dict[str, float]] = defaultdict(dict)
        for line in (ROOT / "runs" / f"{system}.trec").read_text("utf-8").splitlines():
            qid, _q0, doc, _rank, score, _tag = line.split()
            run[qid][doc] = float(score)
        per = pytrec_eval.RelevanceEvaluator(dict(qrels), {"recall_10"}).evaluate(dict(run))
        recall[system] = f"{sum(v['recall_10'] for v in per.values()) / len(per):.3f}"
    for prose in (PROSE, EXAMPLE):
        assert f"(R@10 {recall['dense']} vs {recall['bm25']})" in prose


def test_pooled_figures(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(_run(capsys, "compare", "bm25", "dense", "-m", "R@10", "--format", "json"))
    (c,) = doc["comparisons"]
    dense = f"{c['challenger_score']['raw']:.3f}"
    bm25 = f"{c['baseline_score']['raw']:.3f}"
    rate = f"{c['challenger_unjudged']:.0%}"
    for prose in (PROSE, EXAMPLE):
        assert f"it looks *worse* (R@10 {dense} vs {bm25}), because {rate} of its top 10" in prose
    cost = c["judge_cost"]
    block = _main_job_block()
    assert f"{cost['documents']} documents over {cost['questions']} questions" in block
    assert (dense, bm25, rate, cost["documents"], cost["questions"]) == (
        "0.657",
        "0.703",
        "46%",
        267,
        54,
    )
