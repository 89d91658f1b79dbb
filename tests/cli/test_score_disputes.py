"""Scoring with several judges per document (issue 24): the disputes policy, ``--judge``,
``--disputes`` and the disputed rate, through the CLI on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from tests import disputes_scenario as scenario

from labelpool import api
from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCORE_SCHEMA = json.loads((ROOT / "schema" / "score-report.schema.json").read_text())
COMPARE_SCHEMA = json.loads((ROOT / "schema" / "compare-report.schema.json").read_text())


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def disputed(repo: Path) -> Path:
    return scenario.build(repo)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def score_json(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> dict:
    code, out, err = run_cli(
        capsys,
        "score",
        "base",
        "chal",
        "-m",
        "P@2",
        "--format",
        "json",
        "--repo",
        str(repo),
        *extra,
    )
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, SCORE_SCHEMA)
    return doc


def chal(doc: dict) -> dict:
    return next(s for s in doc["systems"] if s["system"] == "chal")


@pytest.mark.parametrize(
    ("policy", "raw", "optimistic", "unjudged"),
    [
        ("bounds", 0.0, 1.0, 1.0),  # an open dispute is unjudged
        ("max", 1.0, 1.0, 0.0),
        ("min", 0.0, 0.0, 0.0),
        ("majority", 0.0, 0.0, 0.0),  # one relevant, one irrelevant: the tie goes to the lowest
    ],
)
def test_policy_settles_open_disputes(
    disputed: Path,
    capsys: pytest.CaptureFixture[str],
    policy: str,
    raw: float,
    optimistic: float,
    unjudged: float,
) -> None:
    doc = score_json(capsys, disputed, "--disputes", policy)
    c = chal(doc)
    assert c["measures"]["P@2"]["raw"] == raw
    assert c["measures"]["P@2"]["optimistic"] == optimistic
    assert c["unjudged_rate"] == unjudged
    assert c["disputed_rate"] == 1.0  # b and c: both of chal's documents
    base = next(s for s in doc["systems"] if s["system"] == "base")
    assert base["disputed_rate"] == 0.0
    assert base["measures"]["P@2"]["raw"] == 0.5
    assert doc["disputes"] == policy


def test_config_chooses_the_policy(disputed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject = disputed / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'disputes = "max"\n')
    doc = score_json(capsys, disputed)
    assert doc["disputes"] == "max"
    assert chal(doc)["measures"]["P@2"]["raw"] == 1.0
    # --disputes overrides it for one run
    assert chal(score_json(capsys, disputed, "--disputes", "min"))["measures"]["P@2"]["raw"] == 0.0


def test_unknown_policy_is_a_usage_error(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "score", "chal", "--disputes", "mean", "--repo", str(disputed))
    assert code == 2
    assert "--disputes must be one of bounds, majority, max, min" in err


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("ana@example.org", 1.0),
        (scenario.ANA, 1.0),
        ("bo@example.org", 0.0),
        (scenario.BO, 0.0),
    ],
)
def test_judge_scores_with_that_judges_verdicts(
    disputed: Path, capsys: pytest.CaptureFixture[str], name: str, raw: float
) -> None:
    for policy in ("bounds", "max", "min"):
        doc = score_json(capsys, disputed, "--judge", name, "--disputes", policy)
        assert chal(doc)["measures"]["P@2"]["raw"] == raw
        # the judge gave a verdict on every disputed document: none is left open
        assert "disputed_rate" not in chal(doc)
        assert "disputes" not in doc


def test_unknown_judge_lists_the_known_ones(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("score", "compare"):
        code, out, err = run_cli(
            capsys, command, "base", "chal", "--judge", "cy@example.org", "--repo", str(disputed)
        )
        assert code == 2, err
        assert out == ""
        assert err == (
            "error: --judge 'cy@example.org' names no judge of the labels; the judges: "
            "Ana Lopez <ana@example.org>, Bo Chen <bo@example.org>\n"
        )


def test_text_csv_markdown_show_the_disputed_rate(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(disputed)
    code, out, _ = run_cli(capsys, "score", "base", "chal", "-m", "P@2", "--repo", repo)
    assert code == 0
    assert out.splitlines()[0].split() == [
        "system",
        "questions",
        "unjudged@10",
        "disputed@10",
        "P@2",
    ]
    assert out.splitlines()[2].split() == ["chal", "20", "100.0%", "100.0%", "0.000"]
    assert out.count("disputed@10: the share of the top 10 that judges dispute") == 1
    assert "under disputes = bounds each is unjudged (in unjudged@10 too)" in " ".join(out.split())
    code, out, _ = run_cli(
        capsys, "score", "base", "chal", "-m", "P@2", "--format", "csv", "--repo", repo
    )
    assert out.splitlines()[0].split(",")[5] == "disputed_rate"
    assert out.splitlines()[2].split(",")[5] == "1.0"
    code, out, _ = run_cli(
        capsys, "score", "base", "chal", "-m", "P@2", "--format", "markdown", "--repo", repo
    )
    assert "| disputed@10 |" in out
    assert out.count("Disputed@10: the share") == 1
    code, out, _ = run_cli(
        capsys,
        "score",
        "base",
        "chal",
        "-m",
        "P@2",
        "--per-query",
        "--format",
        "json",
        "--repo",
        repo,
    )
    doc = json.loads(out)
    jsonschema.validate(doc, SCORE_SCHEMA)
    assert chal(doc)["per_query"]["q01"]["disputed_rate"] == 1.0


def test_agreeing_judges_change_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Judges who agree: the record changes nothing in any output."""
    scenario.build(repo, disputed=False)
    for fmt in ("text", "json", "csv", "markdown"):
        code, out, _ = run_cli(
            capsys, "score", "base", "chal", "-m", "P@2", "--format", fmt, "--repo", str(repo)
        )
        assert code == 0
        assert "disput" not in out.lower()
    for fmt in ("text", "json", "markdown"):
        code, out, _ = run_cli(
            capsys, "compare", "base", "chal", "-m", "P@2", "--format", fmt, "--repo", str(repo)
        )
        assert code == 0
        assert "disput" not in out.lower()


def compare_json(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> dict:
    code, out, err = run_cli(
        capsys,
        "compare",
        "base",
        "chal",
        "-m",
        "P@2",
        "--format",
        "json",
        "--repo",
        str(repo),
        *extra,
    )
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, COMPARE_SCHEMA)
    return doc


def test_compare_names_no_winner_while_the_dispute_decides(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The winner depends on how the disputes are settled: under bounds the delta range
    spans both signs and compare names no winner; under max and min it names the one the
    data says, robustly."""
    c = compare_json(capsys, disputed)["comparisons"][0]
    assert c["delta_range"] == [-0.5, 0.5]
    assert c["sign_can_flip"] is True
    assert c["robust_sign"] is False
    assert c["verdict_code"] not in ("improvement", "regression")
    assert (c["baseline_disputed"], c["challenger_disputed"]) == (0.0, 1.0)
    high = compare_json(capsys, disputed, "--disputes", "max")
    assert high["disputes"] == "max"
    c = high["comparisons"][0]
    assert (c["delta"], c["verdict_code"], c["robust_sign"]) == (0.5, "improvement", True)
    c = compare_json(capsys, disputed, "--disputes", "min")["comparisons"][0]
    assert (c["delta"], c["verdict_code"], c["robust_sign"]) == (-0.5, "regression", True)
    c = compare_json(capsys, disputed, "--judge", "ana@example.org")["comparisons"][0]
    assert c["verdict_code"] == "improvement"
    code, out, _ = run_cli(capsys, "compare", "base", "chal", "-m", "P@2", "--repo", str(disputed))
    assert code == 0
    assert out.count("disputed@k: the share") == 1
    assert "labelpool pool --adjudicate" in " ".join(out.split())


def test_check_bias_and_api_read_the_same_labels(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = disputed / "pyproject.toml"
    args = ["check", "runs/chal.trec", "--against", "runs/base.trec", "-m", "P@2"]
    args += ["--repo", str(disputed)]
    code, _, _ = run_cli(capsys, *args)
    assert code == 3  # bounds: not meaningful, the disputes are unjudged
    pyproject.write_text(pyproject.read_text() + 'disputes = "min"\n')
    code, _, _ = run_cli(capsys, *args)
    assert code == 1  # significantly worse
    report = api.score(["base", "chal"], measures=["P@2"], repo=disputed)
    assert report["chal"].means["P@2"].raw == 0.0
    assert report["chal"].disputed_rate == 1.0
    report = api.score(["chal"], measures=["P@2"], repo=api.load(disputed), disputes="max")
    assert report["chal"].means["P@2"].raw == 1.0
    compared = api.compare("base", "chal", measures=["P@2"], repo=disputed, judge=scenario.ANA)
    assert compared.comparisons[0].verdict_code == "improvement"


def test_report_shows_the_disputed_rate(disputed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = disputed / "report.html"
    code, _, err = run_cli(
        capsys, "report", "base", "chal", "-m", "P@2", "-o", str(out), "--repo", str(disputed)
    )
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "disputed at 10</th>" in page
    assert page.count("disputed@10: the share of the top 10 that judges dispute") == 1
