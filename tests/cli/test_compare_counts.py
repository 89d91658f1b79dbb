"""``--draws`` and ``--resamples`` of ``compare`` and ``check`` (and ``labelpool.api.compare``):
the counts made are stated where they differ from the defaults, bad values are usage errors,
and past the budget of draws x questions the workflow makes and states fewer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from tests.api_scenario import copy_example
from tests.compare_helpers import build_repo

from labelpool import api, config, labelset
from labelpool.cli import main
from labelpool.errors import UsageError
from labelpool.render.compare import formats, text
from labelpool.runs import read_run
from labelpool.scoring.measures import parse
from labelpool.workflows.evaluate import compare as compare_workflow
from labelpool.workflows.evaluate import noise

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "compare-report.schema.json").read_text())
RUNS = ("runs/bm25.trec", "runs/dense.trec")
COUNTS = ("--draws", "20000", "--resamples", "2000")
DEFAULT_TEST = "paired randomization (sign flip), monte-carlo"


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_example(tmp_path_factory.mktemp("counts") / "repo")


def run_cli(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--repo", str(repo)])
    out = capsys.readouterr()
    return code, out.out, out.err


def as_json(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> dict[str, Any]:
    code, out, err = run_cli(capsys, repo, *args, "--format", "json")
    assert code in (0, 1, 3), err
    doc: dict[str, Any] = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    return doc


def test_compare_states_the_counts_asked_for(
    capsys: pytest.CaptureFixture[str], example: Path
) -> None:
    default = as_json(capsys, example, "compare", *RUNS)
    counted = as_json(capsys, example, "compare", *RUNS, *COUNTS)
    assert "ci95_resamples" not in default
    assert {c["test"] for c in default["comparisons"]} == {DEFAULT_TEST}
    assert counted["ci95_resamples"] == 2000
    assert {c["test"] for c in counted["comparisons"]} == {f"{DEFAULT_TEST} (20,000 draws)"}
    assert {c["test_samples"] for c in counted["comparisons"]} == {20_000}
    # other draws, another Monte Carlo estimate (the scores are the same)
    assert [c["delta"] for c in counted["comparisons"]] == [
        c["delta"] for c in default["comparisons"]
    ]
    assert [c["ci95"] for c in counted["comparisons"]] != [
        c["ci95"] for c in default["comparisons"]
    ]


def test_the_defaults_asked_for_are_not_stated(
    capsys: pytest.CaptureFixture[str], example: Path
) -> None:
    asked = ("--draws", "100000", "--resamples", "10000", "--wide")
    _, default, _ = run_cli(capsys, example, "compare", *RUNS, "--verbose", "--wide")
    code, out, err = run_cli(capsys, example, "compare", *RUNS, "--verbose", *asked)
    assert code == 0, err
    assert out == default
    assert "draws)" not in out and "bootstrap resamples" not in out


def test_compare_text_names_the_draws_and_the_verbose_legend_the_resamples(
    capsys: pytest.CaptureFixture[str], example: Path
) -> None:
    code, out, err = run_cli(capsys, example, "compare", *RUNS, "--wide", *COUNTS)
    assert code == 0, err
    assert "p: sign-flip test, monte-carlo (20,000 draws), Holm" in out
    assert "95% CI: 2,000 bootstrap resamples" not in out  # the CI is in the verbose view
    code, out, err = run_cli(capsys, example, "compare", *RUNS, "--wide", "--verbose", *COUNTS)
    assert code == 0, err
    assert "95% CI: 2,000 bootstrap resamples" in out.splitlines()


def test_check_states_the_counts(capsys: pytest.CaptureFixture[str], example: Path) -> None:
    check = ("check", RUNS[1], "--against", RUNS[0], "--draws", "500", "--resamples", "1")
    doc = as_json(capsys, example, *check)
    assert doc["ci95_resamples"] == 1
    assert {c["test"] for c in doc["comparisons"]} == {f"{DEFAULT_TEST} (500 draws)"}
    assert "check" in doc
    _, out, _ = run_cli(capsys, example, *check, "--format", "markdown")
    assert "p: sign-flip test, monte-carlo (500 draws), Holm; 95% CI: 1 bootstrap resample." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("compare", *RUNS, "--draws", "0"), "--draws must be from 1 to 10,000,000, not 0"),
        (("compare", *RUNS, "--resamples", "-2"), "--resamples must be from 1 to 10,000,000"),
        (("compare", *RUNS, "--draws", "10000001"), "--draws must be from 1 to 10,000,000"),
        (("check", RUNS[1], "--against", RUNS[0], "--resamples", "0"), "--resamples must be"),
        (("compare", *RUNS, "--draws", "many"), "Invalid value for '--draws'"),
        (("check", RUNS[1], "--against", RUNS[0], "--draws", "1.5"), "Invalid value"),
    ],
)
def test_bad_counts_are_usage_errors(
    capsys: pytest.CaptureFixture[str], example: Path, args: tuple[str, ...], message: str
) -> None:
    code, out, err = run_cli(capsys, example, *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_api_takes_the_counts_and_checks_them(example: Path) -> None:
    report = api.compare(RUNS[0], RUNS[1], repo=example, measures=["P@10"], draws=300, resamples=7)
    assert report.result.draws == 300 and report.result.resamples == 7
    assert report.to_dict()["ci95_resamples"] == 7
    for bad in ({"draws": 0}, {"resamples": True}, {"draws": 2.0}):
        with pytest.raises(UsageError):
            api.compare(RUNS[0], RUNS[1], repo=example, **bad)  # type: ignore[arg-type]


def test_past_the_budget_fewer_are_made_and_stated(example: Path) -> None:
    """A budget that 58 questions exceed stands for 100,000 questions under the real one: the
    workflow makes the floors, 10,000 draws and 1,000 resamples, and every output says so."""
    cfg = config.load(example)
    labels = labelset.load(cfg)
    runs = [read_run(example / r) for r in RUNS]
    small = noise.Budget(draws=1_000, resamples=100)
    result = compare_workflow.compare(
        cfg, labels, runs, measures=parse(["P@10", "RR@10"]), budget=small
    )
    assert (result.draws, result.resamples) == (10_000, 1_000)
    assert {c.test.samples for c in result.comparisons} == {10_000}
    doc = formats.to_json(result)
    assert doc["ci95_resamples"] == 1_000
    assert {c["test"] for c in doc["comparisons"]} == {f"{DEFAULT_TEST} (10,000 draws)"}
    shown = text.render(result, None, verbose=True)
    assert "p: sign-flip test, monte-carlo (10,000 draws), Holm" in shown
    assert "95% CI: 1,000 bootstrap resamples" in shown.splitlines()
    assert "(10,000 draws), Holm; 95% CI: 1,000 bootstrap resamples" in formats.to_markdown(result)
    asked = compare_workflow.compare(
        cfg, labels, runs, measures=parse(["P@10"]), budget=small, draws=50_000, resamples=5_000
    )
    assert (asked.draws, asked.resamples) == (50_000, 5_000)  # never reduced


def test_the_suggested_commands_keep_the_counts(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A meaningful comparison suggests itself ``--verbose``, and then the ``check`` gate:
    both with the counts asked for, so that they show the same p-values."""
    build_repo(repo)
    pair = (str(repo / "runs/bm25.trec"), str(repo / "runs/degraded.trec"))
    asked = ("-m", "nDCG@10", "--draws", "3000", "--resamples", "300", "--wide")
    code, out, err = run_cli(capsys, repo, "compare", *pair, *asked)
    assert code == 0, err
    assert "monte-carlo (3,000 draws)" in out
    step = next(line for line in out.splitlines() if line.startswith("next: "))
    assert "--draws 3000 --resamples 300" in step and step.endswith("--verbose")
    code, out, err = run_cli(capsys, repo, "compare", *pair, *asked, "--verbose")
    assert code == 0, err
    step = next(line for line in out.splitlines() if line.startswith("next: "))
    assert step.startswith("next: labelpool check ") and "--draws 3000 --resamples 300" in step
