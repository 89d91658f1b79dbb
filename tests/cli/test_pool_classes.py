"""``labelpool pool`` and accepted classes: a document whose class holds a judged member is not
sent to judges; the command says how many verdicts the classes carried, and from which
member (--verbose, JSON); ``--max-docs`` counts what is left. A proposal carries nothing."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pool_scenario import LABELS, cli, make_repo

ROOT = Path(__file__).resolve().parents[2]

CLASS = "relevant_classes:\n  - - faq-shipping#damaged\n    - policy-returns-v3#sec-2\n"
PROPOSAL = (
    "relevant_classes:\n  - members: [faq-shipping#damaged, policy-returns-v3#sec-2]\n"
    "    proposed: {method: shingle-jaccard, score: 0.9}\n"
)


def _repo(tmp_path: Path, classes: str, name: str = "repo") -> Path:
    """A fresh repository (``pool`` writes its batch: each call pools a new one)."""
    labels = dict(LABELS)
    labels["returns-damaged"] = labels["returns-damaged"].replace("pool:\n", classes + "pool:\n")
    return make_repo(tmp_path / name, labels)


def test_a_judged_class_carries_its_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, CLASS)
    capsys.readouterr()
    assert cli(repo, "pool", "a", "b", "--depth", "3", "--verbose") == 0
    out = capsys.readouterr().out
    assert "carried by classes: 1 verdict\n" in out
    assert "  returns-damaged: faq-shipping#damaged from policy-returns-v3#sec-2\n" in out
    repo = _repo(tmp_path, CLASS, "json")
    assert cli(repo, "pool", "a", "b", "--depth", "3", "--format", "json") == 0
    report = json.loads(capsys.readouterr().out)
    schema = json.loads((ROOT / "schema" / "pool-report.schema.json").read_text("utf-8"))
    jsonschema.validate(report, schema)
    assert report["carried"] == [
        {
            "question": "returns-damaged",
            "document": "faq-shipping#damaged",
            "from": "policy-returns-v3#sec-2",
        }
    ]
    batch = next(q for q in report["questions"] if q["question"] == "returns-damaged")
    assert "faq-shipping#damaged" not in batch["documents"]
    # the budget counts what is left: the carried document is not part of it
    remainder = report["remainder"]
    assert report["union"] == report["judged"] + report["waiting"] + remainder
    repo = _repo(tmp_path, CLASS, "budget")
    args = ["pool", "a", "b", "--depth", "3", "--format", "json"]
    assert cli(repo, *args, "--max-docs", str(remainder)) == 0
    budget = json.loads(capsys.readouterr().out)
    assert budget["documents"] == remainder and budget["remainder"] == remainder


def test_a_proposal_carries_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, PROPOSAL)
    capsys.readouterr()
    assert cli(repo, "pool", "a", "b", "--depth", "3", "--format", "json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["carried"] == []
    batch = next(q for q in report["questions"] if q["question"] == "returns-damaged")
    assert "faq-shipping#damaged" in batch["documents"]
