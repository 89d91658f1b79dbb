"""Which questions a run and the labels share, through ``score``, ``compare``, ``check`` and
``report`` (and the API) on a copy of the shipped example.

* A run with no question in common with the labels is an input error (exit 1) that names a
  few ids of each side: it once scored 0.000 everywhere, "the pool covers every system", and
  compared as a "meaningful" regression with p = 2e-05.
* A partial overlap is said: one header line in text and markdown, fields in JSON, a row of
  the report's header. Labelled questions the run lacks count 0 (``trec_eval -c``); run
  questions with no label are ignored.
* ``check --min-coverage`` (default 1: every labelled question in both runs) exits 3 below it.

The example's runs cover every labelled question, so none of its outputs carries the line
(``tests/golden`` holds them byte for byte).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli

from labelpool import api
from labelpool.workflows.evaluate import score as score_workflow
from labelpool.workflows.evaluate.coverage import NoCommonQuestion
from pool_scenario import committed_example

DROPPED = ("cancel-order", "coffee-weak")  # no relevant document: 0 for every system anyway
EXTRA = ("zz-extra-a", "zz-extra-b", "zz-extra-c")
LABELS_NAMED = "labels: acme-returns, agent-complaints, agent-refund-limit and 55 more)"
DISJOINT = (
    "runs/other.trec: no question in common with the labels "
    f"(run: x0001, x0002, x0003 and 1,247 more; {LABELS_NAMED}"
)
LINE = (
    "questions: 58 scored; 2 labelled questions missing from partial (counted 0, as "
    "trec_eval -c); 3 run questions of partial without a label (ignored)"
)
Run = Callable[..., tuple[int, str, str]]


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example, with runs/other.trec (1,250 questions, none labelled), runs/partial.trec
    (bm25 without two labelled questions, with three unlabelled ones) and runs/unjudged.trec
    (only the two questions nobody judged)."""
    repo = committed_example(tmp_path_factory.mktemp("coverage"))
    runs = repo / "runs"
    (runs / "other.trec").write_text(
        "".join(f"x{i:04d} Q0 d1 1 1.0 x\n" for i in range(1, 1251)), encoding="utf-8"
    )
    bm25 = (runs / "bm25.trec").read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in bm25 if line.split()[0] not in DROPPED]
    extra = [f"{q} Q0 doc-{n} {n} {9 - n}.0 x\n" for q in EXTRA for n in (1, 2)]
    (runs / "partial.trec").write_text("".join(kept + extra), encoding="utf-8")
    (runs / "unjudged.trec").write_text(
        "app-night-theme Q0 d1 1 1.0 x\nsunday-opening Q0 d1 1 1.0 x\n", encoding="utf-8"
    )
    return repo


@pytest.fixture
def run(example: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    monkeypatch.chdir(example)
    return partial(cli, capsys, example)


# --------------------------------------------------------------------------- no overlap


def test_score_refuses_a_run_with_no_question_in_common(run: Run) -> None:
    code, out, err = run("score", "runs/other.trec")
    assert (code, out) == (1, "")
    assert err == f"error: {DISJOINT}\n"  # every error line starts with error:


def test_score_of_several_runs_refuses_when_any_has_no_question_in_common(run: Run) -> None:
    for runs in (("runs/bm25.trec", "runs/other.trec"), ("runs/other.trec", "runs/bm25.trec")):
        code, out, err = run("score", *runs, "--format", "json")
        assert (code, out) == (1, ""), runs
        assert DISJOINT in err


def test_score_in_windows_refuses_it_too(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(score_workflow, "STREAM_BYTES", 0)  # every run scored in windows
    code, _, err = run("score", "runs/other.trec")
    assert code == 1 and DISJOINT in err
    code, out, err = run("score", "runs/partial.trec", "--format", "json")
    assert code == 0, err
    (system,) = json.loads(out)["systems"]
    assert system["coverage"] == {
        "scored": 58,
        "in_run": 56,
        "missing_from_run": list(DROPPED),
        "not_in_labels": 3,
    }


def test_compare_and_check_refuse_a_run_with_no_question_in_common(run: Run) -> None:
    for args in (
        ("compare", "runs/bm25.trec", "runs/other.trec"),
        ("compare", "runs/other.trec", "runs/bm25.trec", "--format", "json"),
        ("check", "runs/other.trec", "--against", "runs/bm25.trec"),
        ("check", "runs/bm25.trec", "--against", "runs/other.trec", "--format", "json"),
    ):
        code, out, err = run(*args)
        assert (code, out) == (1, ""), args
        assert "no question in common with the labels (run: x0001, x0002, x0003" in err, args
        assert LABELS_NAMED in err, args
        assert err.startswith("error: ")


def test_a_run_of_unjudged_questions_only_shares_no_judged_question(run: Run) -> None:
    code, _, err = run("compare", "runs/bm25.trec", "runs/unjudged.trec")
    assert code == 1
    assert (
        "error: runs/unjudged.trec: no judged question in common with the labels "
        f"(run: app-night-theme, sunday-opening; {LABELS_NAMED}"
    ) in err


def test_report_refuses_a_run_with_no_question_in_common(run: Run) -> None:
    code, _, err = run("report", "runs/other.trec", "-o", "other.html")
    assert code == 1 and DISJOINT in err
    code, _, err = run("report", "runs/bm25.trec", "runs/other.trec", "-o", "other.html")
    assert code == 1 and DISJOINT in err


def test_the_api_raises_it(example: Path) -> None:
    with pytest.raises(NoCommonQuestion) as raised:
        api.score(str(example / "runs" / "other.trec"), repo=example)
    assert str(raised.value).endswith(DISJOINT.removeprefix("runs/other.trec"))
    assert raised.value.exit_code == 1
    with pytest.raises(NoCommonQuestion):
        api.compare("bm25", str(example / "runs" / "other.trec"), repo=example)


# --------------------------------------------------------------------------- partial overlap


def test_score_says_a_partial_overlap_in_every_format(run: Run) -> None:
    code, out, err = run("score", "runs/bm25.trec", "runs/partial.trec", "--wide")
    assert code == 0, err
    assert out.splitlines()[0] == LINE
    assert out.splitlines()[1].startswith("system ")
    code, out, _ = run("score", "runs/bm25.trec", "runs/partial.trec", "--format", "markdown")
    assert out.startswith(
        "Questions: 58 scored; 2 labelled questions missing from partial (counted 0, as "
        "trec\\_eval -c); 3 run questions of partial without a label (ignored).\n\n| system |"
    )
    code, out, err = run("score", "runs/bm25.trec", "runs/partial.trec", "--format", "csv")
    assert out.startswith("system,qid,")  # CSV stays a table: the line goes to stderr
    assert LINE in err
    code, out, _ = run("score", "runs/bm25.trec", "runs/partial.trec", "--format", "json")
    bm25, partial = json.loads(out)["systems"]
    assert bm25["coverage"] == {
        "scored": 58,
        "in_run": 58,
        "missing_from_run": [],
        "not_in_labels": 0,
    }
    assert partial["coverage"] == {
        "scored": 58,
        "in_run": 56,
        "missing_from_run": list(DROPPED),
        "not_in_labels": 3,
    }
    assert partial["queries"] == 58  # the missing questions are averaged over, at 0


def test_full_coverage_prints_no_line(run: Run) -> None:
    for args in (
        ("score", "runs/bm25.trec", "runs/dense.trec"),
        ("score", "runs/bm25.trec", "--format", "markdown"),
        ("compare", "runs/bm25.trec", "runs/dense.trec", "-m", "R@10"),
    ):
        code, out, err = run(*args)
        assert code == 0, err
        assert "questions: 58 scored" not in out.lower(), args


def test_compare_says_a_partial_overlap(run: Run) -> None:
    args = ("compare", "runs/bm25.trec", "runs/partial.trec", "-m", "R@10")
    code, out, err = run(*args, "--wide")
    assert code == 0, err
    assert out.splitlines()[0].startswith("labels ")
    assert out.splitlines()[1] == LINE
    code, out, _ = run(*args, "--format", "markdown")
    assert (
        "\n\nQuestions: 58 scored; 2 labelled questions missing from partial (counted 0, as "
        "trec\\_eval -c); 3 run questions of partial without a label (ignored).\n"
    ) in out
    code, out, _ = run(*args, "--format", "json")
    coverage = json.loads(out)["coverage"]
    assert list(coverage) == ["bm25", "partial"]  # baseline first
    assert coverage["partial"]["missing_from_run"] == list(DROPPED)
    assert coverage["partial"]["not_in_labels"] == 3
    assert coverage["bm25"]["in_run"] == 58


def test_check_fails_below_min_coverage_and_passes_above(run: Run) -> None:
    # measures at 10 (AP@100 reads bm25's unjudged depth: not meaningful whatever the coverage)
    args = ("check", "runs/partial.trec", "--against", "runs/bm25.trec", "-m", "R@10", "--wide")
    code, out, err = run(*args)
    assert code == 3, err
    lines = out.splitlines()
    assert lines[1] == LINE
    assert "check: not-meaningful against runs/bm25.trec" in lines
    assert (
        "  coverage: 56 of 58 labelled questions in both runs (96.6%), below --min-coverage 1: "
        "partial lacks cancel-order, coffee-weak (each counted 0, as trec_eval -c)"
    ) in lines
    code, out, err = run(*args, "--min-coverage", "0.5")
    assert code == 0, out + err
    assert lines[1] in out.splitlines()  # the line is still said
    assert "check: ok against runs/bm25.trec" in out
    code, out, _ = run(*args, "--format", "json")
    assert code == 3
    doc = json.loads(out)
    assert doc["check"]["status"] == "not-meaningful"
    assert doc["check"]["coverage"] == pytest.approx(56 / 58)
    assert doc["check"]["min_coverage"] == 1.0
    assert doc["coverage"]["partial"]["missing_from_run"] == list(DROPPED)
    code, out, _ = run(*args, "--format", "json", "--min-coverage", "0.96")
    assert code == 0 and json.loads(out)["check"]["status"] == "ok"
    code, out, _ = run(*args, "--format", "markdown")
    assert code == 3
    assert "Questions: 58 scored; 2 labelled questions missing from partial" in out


def test_check_counts_the_questions_in_both_runs(run: Run) -> None:
    """The reference may lack the questions: coverage is of the pair."""
    code, out, _ = run(
        "check",
        "runs/bm25.trec",
        "--against",
        "runs/partial.trec",
        "-m",
        "R@10",
        "--format",
        "json",
    )
    assert code == 3
    assert json.loads(out)["check"]["coverage"] == pytest.approx(56 / 58)
    code, out, _ = run("check", "runs/bm25.trec", "--against", "runs/bm25.trec", "--format", "json")
    assert code == 0 and json.loads(out)["check"]["coverage"] == 1.0


@pytest.mark.parametrize("value", ["1.5", "-0.1", "nan"])
def test_min_coverage_out_of_range_is_a_usage_error(run: Run, value: str) -> None:
    code, out, err = run(
        "check", "runs/partial.trec", "--against", "runs/bm25.trec", "--min-coverage", value
    )
    assert (code, out) == (2, "")
    assert f"error: --min-coverage must be a number from 0 to 1, not {value}" in err


def test_report_header_says_a_partial_overlap(run: Run, example: Path) -> None:
    code, _, err = run("report", "runs/bm25.trec", "runs/partial.trec", "-o", "partial.html")
    assert code == 0, err
    html = (example / "partial.html").read_text(encoding="utf-8")
    header = html[html.index("<h1>") : html.index("</dl>")]
    assert (
        "<dt>coverage</dt><dd>58 scored; 2 labelled questions missing from partial (counted 0, "
        "as trec_eval -c); 3 run questions of partial without a label (ignored)</dd>"
    ) in header
    code, _, err = run("report", "runs/bm25.trec", "-o", "full.html")
    assert code == 0, err
    assert "<dt>coverage</dt>" not in (example / "full.html").read_text(encoding="utf-8")


def test_the_ids_named_are_sanitised(run: Run, example: Path) -> None:
    """A run's question id reaches the error line through the sanitiser (the run reader
    refuses control characters; ``##[`` would be a workflow command anywhere in a CI log)."""
    (example / "runs" / "evil.trec").write_text("q##[error]x Q0 d1 1 1.0 x\n", encoding="utf-8")
    code, _, err = run("compare", "runs/bm25.trec", "runs/evil.trec")
    assert code == 1
    assert "(run: q#\\x23[error]x; labels: acme-returns," in err
    assert "##[" not in err
