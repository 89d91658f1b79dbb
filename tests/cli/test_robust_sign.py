"""A robust sign: P@k, RR and Success@k verdicts that hold for every labelling of the unjudged
documents (issue 13, section 2).

The constructed case: 30 questions judged from bm25's top 10 (``tests/compare_helpers.py``);
``junk`` returns only bm25's judged irrelevant documents and one document nobody judged, last.
Its unjudged rate (about 12%) makes every reading ``uninterpretable``, yet even if that one
document were relevant on every question, P@10 (at most 0.1 against bm25's 0.2 or 0.3) and
RR@10 (at most 1/8 against at least 1/3) stay below bm25's, and the sign-flip test gives p of
about 1e-5. 0.1.0 read all of this ``uninterpretable``; now P@10 and RR@10 are robust
regressions, while R@10, nDCG@10 and AP@100 (whose denominators count relevant documents no
system returned) keep the verdict their reading gives, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from tests.compare_helpers import N_QUESTIONS, bm25, build_repo, doc, qid, relevant, write_run

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "compare-report.schema.json").read_text("utf-8"))
MEASURES = ("P@10", "RR@10", "Success@10", "R@10", "nDCG@10", "AP@100")


def junk(i: int) -> list[str]:
    """bm25's judged irrelevant documents, then one nobody judged."""
    rel = relevant(i)
    return [d for d in bm25(i) if d not in rel] + [doc(i, 99)]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / "labels").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    build_repo(root)
    write_run(root / "runs" / "junk.trec", junk, "junk")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(root)
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _measures() -> list[str]:
    return [w for m in MEASURES for w in ("-m", m)]


def test_robust_regression_in_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "compare", "bm25", "junk", *_measures(), "--format", "json")
    assert code == 0, err
    doc_ = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc_)
    by = {c["measure"]: c for c in doc_["comparisons"]}
    for name in ("P@10", "RR@10"):
        c = by[name]
        assert c["reading"] == "uninterpretable"
        assert c["p_adjusted"] < 0.001
        assert c["delta_range"][1] < 0  # every labelling: junk is worse
        assert c["robust_sign"] is True and c["sign_can_flip"] is False
        assert c["verdict_code"] == "regression"
        assert c["unjudged_in_range"] == N_QUESTIONS
        assert c["verdict"].startswith(f"regression (uninterpretable): {c['delta']:+.3f} {name}")
        assert c["verdict"].endswith(
            f"; robust: the sign holds for every labelling of the {N_QUESTIONS} unjudged documents"
        )
    # Success@10: the one unjudged document could make junk succeed wherever bm25 does
    assert by["Success@10"]["sign_can_flip"] is True
    assert by["Success@10"]["robust_sign"] is False
    assert by["Success@10"]["verdict_code"] == "uninterpretable"
    # R, nDCG and AP: unchanged, whatever their range says (R's excludes zero here)
    assert by["R@10"]["delta_range"][1] < 0
    for name in ("R@10", "nDCG@10", "AP@100"):
        c = by[name]
        assert c["robust_sign"] is False
        assert c["verdict_code"] == c["reading"] == "uninterpretable"
        assert c["verdict"].startswith("uninterpretable: ")


def test_robust_regression_in_text(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "compare", "bm25", "junk", "-m", "P@10", "-m", "R@10")
    assert code == 0
    lines = out.splitlines()
    p_row = next(line for line in lines if line.startswith("P@10 "))
    assert p_row.split()[-2:] == ["uninterpretable", "regression*"]
    r_row = next(line for line in lines if line.startswith("R@10 "))
    assert r_row.split()[-2:] == ["uninterpretable", "uninterpretable"]
    assert "* robust: the sign holds for every labelling of the unjudged documents" in lines
    flat = " ".join(out.split())
    assert (
        "verdict: regression on 1 of 2 measures (P@10: robust: the sign holds for every "
        f"labelling of the {N_QUESTIONS} unjudged documents); uninterpretable on 1" in flat
    )
    assert max(len(line) for line in lines) <= 80


def test_check_exits_1_on_a_robust_regression(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 3 (not meaningful), as if nothing could be said."""
    code, out, _ = _run(
        capsys, "check", "runs/junk.trec", "--against", "runs/bm25.trec", "-m", "P@10"
    )
    assert code == 1
    assert "check: regression against runs/bm25.trec" in out
    assert "for every labelling of the 30 unjudged documents" in " ".join(out.split())
    # a budget the most favourable labelling still loses more than: still 1; a larger one: 3
    code, _, _ = _run(
        capsys,
        "check",
        "runs/junk.trec",
        "--against",
        "runs/bm25.trec",
        "-m",
        "P@10",
        "--budget",
        "0.05",
    )
    assert code == 1
    code, _, _ = _run(
        capsys,
        "check",
        "runs/junk.trec",
        "--against",
        "runs/bm25.trec",
        "-m",
        "P@10",
        "--budget",
        "0.5",
    )
    assert code == 3
    # R@10 alone: no robust sign, not meaningful, as before
    code, _, _ = _run(
        capsys, "check", "runs/junk.trec", "--against", "runs/bm25.trec", "-m", "R@10"
    )
    assert code == 3


def test_robust_improvement_keeps_the_reading(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same case the other way round: bm25 against junk as the baseline."""
    code, out, _ = _run(capsys, "compare", "junk", "bm25", "-m", "RR@10", "--format", "json")
    assert code == 0
    (c,) = json.loads(out)["comparisons"]
    assert c["robust_sign"] is True and c["verdict_code"] == "improvement"
    assert c["verdict"].startswith("improvement (uninterpretable): ")


def test_scores_of_r_ndcg_ap_are_unchanged(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The robust rule changes verdicts only: the per-question values of every measure are the
    score command's, and the question set is the judged one."""
    code, out, _ = _run(capsys, "compare", "bm25", "junk", *_measures(), "--format", "json")
    assert code == 0
    compared = {c["measure"]: c for c in json.loads(out)["comparisons"]}
    code, out, _ = _run(capsys, "score", "bm25", "junk", *_measures(), "--format", "json")
    assert code == 0
    scored = {s["system"]: s["measures"] for s in json.loads(out)["systems"]}
    for name in MEASURES:
        assert compared[name]["baseline_score"] == scored["bm25"][name]
        assert compared[name]["challenger_score"] == scored["junk"][name]
    assert compared["R@10"]["baseline_score"]["raw"] == 1.0  # every relevant doc in bm25's top 10
    assert qid(1) not in json.loads(out)["not_judged"]
