"""``labelpool score --format trec_eval`` and trec_eval names elsewhere, through the public CLI.

The qrels trec_eval sees are the rows ``labelpool export trec`` writes: a class's members all
carry the class's grade, a document outside the labels is not in the pool (``-``), a label
nobody judged has no row.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import jsonschema
import pytest

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = {
    name: json.loads((ROOT / "schema" / f"{name}-report.schema.json").read_text())
    for name in ("score", "compare")
}

RETURNS = """\
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - faq-shipping#damaged
  - policy-returns-v3#sec-2
judged_ids:
  - faq-shipping#damaged
  - handbook#returns
  - policy-returns-v2#sec-2
  - policy-returns-v3#sec-2
grades:
  policy-returns-v3#sec-2: 2
relevant_classes:
  - - faq-shipping#damaged
    - policy-returns-v3#sec-2
pooled_unjudged_ids:
  - blog#returns
"""
HOURS = """\
id: opening-hours
question: When are you open?
relevant_doc_ids:
  - faq-hours
judged_ids:
  - faq-hours
  - handbook#hours
"""
FRESH = """\
id: not-yet
question: Nobody judged this yet.
relevant_doc_ids: []
judged_ids: []
"""
BM25 = """\
returns-damaged Q0 faq-shipping#damaged 1 3.0 bm25
returns-damaged Q0 handbook#returns 2 2.0 bm25
returns-damaged Q0 blog#returns 3 1.0 bm25
opening-hours Q0 faq-hours 1 5 bm25
opening-hours Q0 new-doc 2 4 bm25
unknown-q Q0 faq-hours 1 1 bm25
"""
DENSE = """\
returns-damaged Q0 policy-returns-v2#sec-2 1 0.9 dense
returns-damaged Q0 handbook#returns 2 0.8 dense
"""


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def labelled(repo: Path) -> Path:
    (repo / "labels" / "returns-damaged.yaml").write_text(RETURNS)
    (repo / "labels" / "opening-hours.yaml").write_text(HOURS)
    (repo / "labels" / "not-yet.yaml").write_text(FRESH)
    (repo / "runs" / "bm25.trec").write_text(BM25)
    (repo / "runs" / "dense.trec").write_text(DENSE)
    return repo


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _line(name: str, qid: str, value: str) -> str:
    return f"{name:<22}\t{qid}\t{value}\n"


def test_trec_eval_lines_per_question_and_summary(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", "bm25", "--format", "trec_eval", "--repo", str(labelled), "--per-query"]
    code, out, _ = _run(
        [*argv, "-m", "P.2", "-m", "num_rel", "-m", "relstring.3", "-m", "runid"], capsys
    )
    assert code == 0
    assert out == (
        _line("num_rel", "opening-hours", "1")
        + _line("P_2", "opening-hours", "0.5000")
        + _line("relstring_3", "opening-hours", "'1-'")
        + _line("num_rel", "returns-damaged", "2")  # both class members: the class's grade
        + _line("P_2", "returns-damaged", "0.5000")
        + _line("relstring_3", "returns-damaged", "'20.'")
        + _line("runid", "all", "bm25")
        + _line("num_rel", "all", "3")
        + _line("P_2", "all", "0.5000")
    )


def test_missing_question_needs_complete(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", "dense", "--format", "trec_eval", "--repo", str(labelled), "-m", "num_ret"]
    code, out, err = _run(argv, capsys)
    assert (code, out) == (1, "")
    assert "1 judged question(s) missing from the run (opening-hours)" in err
    code, out, _ = _run([*argv, "--complete", "--per-query"], capsys)
    assert code == 0
    assert out == (
        _line("num_ret", "opening-hours", "0")
        + _line("num_ret", "returns-damaged", "2")
        + _line("num_ret", "all", "2")
    )
    code, out, _ = _run([*argv, "--complete", "--max-depth", "1", "--judged-only"], capsys)
    assert (code, out) == (0, _line("num_ret", "all", "1"))


def test_runid_is_the_tag_of_the_last_line_also_gzipped(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = labelled / "runs" / "tagged.trec.gz"
    with gzip.open(path, "wt") as handle:
        handle.write(
            BM25.replace("bm25\nunknown-q", "bm25\n# a comment\nunknown-q")[:-5] + "last\n"
        )
    argv = ["score", str(path), "--format", "trec_eval", "--repo", str(labelled), "-m", "runid"]
    assert _run(argv, capsys)[:2] == (0, _line("runid", "all", "last"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bm25", "--complete"], "only with --format trec_eval"),
        (["bm25", "--max-depth", "5", "--judged-only"], "--max-depth, --judged-only: only with"),
        (["bm25", "dense", "--format", "trec_eval"], "exactly one run (got 2)"),
        (["bm25", "--format", "trec_eval", "-m", "nDCG@10"], "trec_eval calls it ndcg_cut.10"),
        (["bm25", "--format", "trec_eval", "-m", "P.0"], "cut-offs must be positive"),
        (["bm25", "--format", "trec_eval", "--max-depth", "-1"], "at least 0"),
        (["bm25", "-m", "gm_map"], "geometric mean"),
        (["bm25", "-m", "ndcg@10"], "case-sensitive: nDCG@10)"),
    ],
)
def test_usage_errors_exit_2(
    labelled: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(["score", *argv, "--repo", str(labelled)], capsys)
    assert (code, out) == (2, "")
    assert message in err


def test_trec_eval_names_in_score_and_compare(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        [
            "score",
            "bm25",
            "-m",
            "P.2 map RBP ERR@10 Bpref",
            "--format",
            "json",
            "--repo",
            str(labelled),
        ],
        capsys,
    )
    assert code == 0
    jsonschema.validate(json.loads(out), SCHEMAS["score"])
    measures = json.loads(out)["systems"][0]["measures"]
    assert list(measures) == ["P_2", "map", "RBP", "ERR@10", "Bpref"]
    assert measures["P_2"]["raw"] == 0.5
    argv = ["compare", "bm25", "dense", "--format", "json", "--repo", str(labelled)]
    code, out, _ = _run([*argv, "-m", "P.2 RBP ERR@10 map num_rel_ret utility"], capsys)
    assert code == 0
    report = json.loads(out)
    jsonschema.validate(report, SCHEMAS["compare"])
    methods = {c["measure"]: c["delta_range_method"] for c in report["comparisons"]}
    assert methods == {
        "P_2": "full",
        "RBP": "exact",
        "ERR@10": "bounds",
        "map": "full",
        "num_rel_ret": "full",
        "utility": "full",
    }
    for refused in ("gm_map", "gm_bpref", "num_q", "runid", "relstring"):
        code, out, err = _run([*argv, "-m", refused], capsys)
        assert (code, out) == (2, "")
        assert "only in --format trec_eval" in err


def test_stand_in_ranking_is_cleared_only_under_exact_names(
    labelled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """trec_eval zeroes a stand-in question's ``utility``, ``rbp_resid`` and ``relstring`` by
    exact name: with parameters they keep the stand-in ranking's values (one document outside
    the pool)."""
    argv = ["score", "dense", "--format", "trec_eval", "--repo", str(labelled)]
    specs = ["-m", "relstring.2", "-m", "utility.1,-1,0,0", "-m", "rbp_resid.p=0.5"]
    code, out, _ = _run([*argv, *specs, "--complete", "--per-query"], capsys)
    assert code == 0
    assert out == (
        _line("relstring_2", "opening-hours", "'-'")
        + _line("utility_1,-1,0,0", "opening-hours", "-1.0000")
        + _line("rbp_resid_p=0.5", "opening-hours", "1.0000")
        + _line("relstring_2", "returns-damaged", "'00'")
        + _line("utility_1,-1,0,0", "returns-damaged", "-2.0000")
        + _line("rbp_resid_p=0.5", "returns-damaged", "0.0000")
        + _line("utility_1,-1,0,0", "all", "-1.5000")
        + _line("rbp_resid_p=0.5", "all", "0.5000")
    )
    code, out, _ = _run(
        [*argv, "-m", "relstring", "-m", "utility", "--complete", "--per-query"], capsys
    )
    assert code == 0
    assert out.startswith(
        _line("relstring", "opening-hours", "''") + _line("utility", "opening-hours", "0.0000")
    )
