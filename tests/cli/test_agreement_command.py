"""``labelpool agreement`` on real repositories of label files in issue 24's record: the
figures equal the references, undefined figures say why, the JSON follows its schema, judges
and questions are chosen, adjudicators are left out, disputes are listed, and --runs shows what
the judges' differences do to the ranking."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from agreement_scenario import ANA, BO, CY, make_repo, write_run
from labelpool import api
from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "agreement-report.schema.json").read_text("utf-8"))

LABELS = {
    "q1": {"d1": [(ANA, 2), (BO, 2)], "d2": [(ANA, 0), (BO, 1)], "d3": [(ANA, 0)]},
    "q2": {
        "d1": [(ANA, 1), (BO, 1), (CY, 0)],
        "d4": [(ANA, 0), (BO, 0)],
        "d5": [(ANA, 3), (BO, 1), ("!" + CY, 2)],  # adjudicated: Cy's verdict is left out
    },
    "q3": {"d6": [(ANA, 0), (BO, 0)], "d7": [(ANA, 2), (BO, 3)]},
}
# the panel by hand: (Ana, Bo, Cy) on each doubly judged document, Cy's adjudication left out
PANEL = [
    (2, 2, None),
    (0, 1, None),
    (1, 1, 0),
    (0, 0, None),
    (3, 1, None),
    (0, 0, None),
    (2, 3, None),
]


def run(repo: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["agreement", "--repo", str(repo), *args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(repo, "--format", "json", *args, capsys=capsys)
    assert code == 0, err
    report = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    return report


def figure(figures: list[dict[str, Any]], statistic: str, weighting: str) -> dict[str, Any]:
    return next(f for f in figures if f["statistic"] == statistic and f["weighting"] == weighting)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", LABELS)


def test_the_figures_equal_the_references(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = as_json(repo, capsys)
    assert (report["documents"], report["questions"], report["judges"]) == (7, 3, 3)
    grades = np.array([[np.nan if g is None else g for g in row] for row in PANEL]).T
    stats = report["statistics"]
    ordinal = krippendorff.alpha(reliability_data=grades, level_of_measurement="ordinal")
    assert figure(stats, "Krippendorff's alpha", "ordinal, grades")["value"] == pytest.approx(
        ordinal, abs=1e-12
    )
    relevant = np.where(np.isnan(grades), np.nan, grades >= 1)
    nominal = krippendorff.alpha(reliability_data=relevant, level_of_measurement="nominal")
    assert figure(stats, "Krippendorff's alpha", "nominal, relevance")["value"] == pytest.approx(
        nominal, abs=1e-12
    )
    pair = next(p for p in report["pairs"] if p["judges"] == [ANA, BO])
    ana, bo = grades[0].astype(int), grades[1].astype(int)
    quadratic = cohen_kappa_score(ana, bo, weights="quadratic", labels=[0, 1, 2, 3])
    got = figure(pair["statistics"], "Cohen's kappa", "quadratic weights, grades")["value"]
    assert got == pytest.approx(quadratic, abs=1e-12)
    plain = cohen_kappa_score(ana >= 1, bo >= 1)
    got = figure(pair["statistics"], "Cohen's kappa", "unweighted, relevance")["value"]
    assert got == pytest.approx(plain, abs=1e-12)
    assert pair["confusion"] == [[2, 1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1], [0, 1, 0, 0]]
    assert (pair["documents"], pair["questions"]) == (7, 3)
    for f in [*stats, *pair["statistics"]]:
        low, high = f["interval"]
        assert low <= high


def test_per_judge_and_disputes(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = as_json(repo, capsys)
    rows = {r["judge"]: r for r in report["per_judge"]}
    # q2 d1: Ana 1, Bo 1, Cy 0: Cy is the odd one out; d2, d5, d7 split Ana and Bo
    assert rows[CY]["odd_one_out"] == 1 and rows[CY]["documents_with_three_or_more_verdicts"] == 1
    assert rows[ANA]["odd_one_out"] == 0 and rows[ANA]["split"] == 3
    assert rows[ANA]["grades"] == [3, 1, 2, 1]
    disputes = [(d["question"], d["doc"]) for d in report["disputes"]]
    assert disputes == [("q1", "d2"), ("q2", "d1"), ("q3", "d7")]  # q2 d5 is adjudicated
    code, out, _ = run(repo, capsys=capsys)
    assert code == 0
    assert "Open disputes: 3 documents in 3 questions" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_judges_by_email_and_unknown_judges(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = as_json(repo, capsys, "--judges", "ana@example.org,cy@example.org")
    assert report["selection"]["judges"] == [ANA, CY]
    assert report["documents"] == 1 and report["judges"] == 2
    code, _, err = run(repo, "--judges", "dan@example.org", capsys=capsys)
    assert code == 2
    assert "no judge 'dan@example.org'" in err and ANA in err and CY in err


def test_question_pattern_is_re2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = as_json(repo, capsys, "--question-pattern", "^q[13]$")
    assert report["questions"] == 2 and report["documents"] == 4
    assert {d["question"] for d in report["disputes"]} == {"q1", "q3"}
    code, _, err = run(repo, "--question-pattern", "(a)\\1", capsys=capsys)  # a backreference
    assert code == 2 and "--question-pattern: RE2 refuses" in err


def test_undefined_figures_say_why_never_nan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agreeing = {"q1": {"d1": [(ANA, 1), (BO, 1)], "d2": [(ANA, 1), (BO, 1)]}}
    repo = make_repo(tmp_path / "repo", agreeing)
    report = as_json(repo, capsys)
    alpha = figure(report["statistics"], "Krippendorff's alpha", "ordinal, grades")
    assert alpha["value"] is None and "all verdicts agree" in alpha["reason"]
    assert alpha["interval"] is None
    ac1 = figure(report["statistics"], "Gwet's AC1", "unweighted, relevance")
    assert ac1["value"] == 1.0  # AC1 stays defined where kappa and alpha are not
    code, out, _ = run(repo, capsys=capsys)
    assert code == 0
    assert "undefined (all verdicts agree" in out
    assert "nan" not in out.lower()
    code, out, _ = run(repo, "--format", "markdown", capsys=capsys)
    assert "undefined (all verdicts agree" in out and "nan" not in out.lower()


def test_one_judge_per_document_is_no_panel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", {"q1": {"d1": [(ANA, 1)], "d2": [(BO, 0)]}})
    report = as_json(repo, capsys)
    assert report["documents"] == 0 and report["pairs"] == []
    assert all(f["value"] is None for f in report["statistics"])
    assert {f["reason"] for f in report["statistics"]} == {"no document with two verdicts"}


def test_seeded_bootstrap_and_the_api(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, first, _ = run(repo, "--format", "json", "--seed", "7", capsys=capsys)
    code, again, _ = run(repo, "--format", "json", "--seed", "7", capsys=capsys)
    assert first == again
    assert api.agreement(seed=7, repo=repo).to_json() == first
    none = as_json(repo, capsys, "--bootstrap", "0")
    assert all(f["interval"] is None for f in none["statistics"])
    code, _, err = run(repo, "--bootstrap", "-1", capsys=capsys)
    assert code == 2 and "--bootstrap" in err


def test_runs_under_each_judge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ana finds only a relevant, Bo only b relevant: the two systems swap places."""
    labels = {
        f"q{i}": {"a": [(ANA, 2), (BO, 0)], "b": [(ANA, 0), (BO, 2)], "c": [(ANA, 0), (BO, 0)]}
        for i in range(3)
    }
    repo = make_repo(tmp_path / "repo", labels)
    write_run(repo, "finds-a", {q: ["a", "c", "b"] for q in labels})
    write_run(repo, "finds-b", {q: ["b", "c", "a"] for q in labels})
    report = as_json(repo, capsys, "--runs", "finds-a", "finds-b", "-m", "RR@10")
    runs = report["runs"]
    assert runs["judges"] == [ANA, BO]
    scores = {s["system"]: s["scores"] for s in runs["systems"]}
    assert scores == {"finds-a": [1.0, 1 / 3], "finds-b": [1 / 3, 1.0]}
    assert runs["kendall_tau"] == [{"judges": [ANA, BO], "tau": -1.0, "below_threshold": True}]
    assert runs["sign_differs"] is True
    code, out, _ = run(repo, "--runs", "finds-a", "finds-b", "-m", "RR@10", capsys=capsys)
    assert "below 0.9: not the same ranking" in out
    assert "flag: the sign of finds-b - finds-a differs between judges" in out
    code, _, err = run(repo, "finds-a", capsys=capsys)
    assert code == 2 and "runs go after --runs" in err


def test_too_many_grades_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = {f"d{g}": [(ANA, g), (BO, g + 1)] for g in range(0, 40, 2)}
    repo = make_repo(tmp_path / "repo", {"q1": docs})
    code, _, err = run(repo, capsys=capsys)
    assert code == 1 and "at most 32 distinct grades" in err


def test_ties_and_warnings_are_quiet(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's divide warnings would be a bug here
        code, _, err = run(repo, "--judges", CY + "," + ANA, capsys=capsys)
    assert code == 0 and err == ""
