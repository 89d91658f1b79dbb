"""compare: the delta range (exact by brute force), judge cost, the workflow, CLI and schema."""

from __future__ import annotations

import itertools
import random

import pytest
import pytrec_eval

from labelpool.model import Label, label_from_data
from labelpool.scoring.delta.question import delta_range, judge_cost, question_range

TREC_NAMES = {
    "P": "P_{k}",
    "Success": "success_{k}",
    "RR": "recip_rank",
    "R": "recall_{k}",
    "nDCG": "ndcg_cut_{k}",
    "AP": "map_cut_{k}",
}


def _random_case(seed: int) -> tuple[Label, list[str], list[str]]:
    rnd = random.Random(seed)
    docs = [f"d{i}" for i in range(9)]
    judged = rnd.sample(docs, rnd.randint(1, 5))
    grades = {d: rnd.choice([0, 0, 1, 2, 3]) for d in judged}
    relevant = sorted(d for d, g in grades.items() if g > 0)
    label = label_from_data(
        {
            "id": "q",
            "question": "?",
            "judged_ids": sorted(judged),
            "relevant_doc_ids": relevant,
            "grades": {d: g for d, g in grades.items() if g > 1},
        }
    )
    k = 5
    base = rnd.sample(docs, rnd.randint(1, k))
    chal = rnd.sample(docs, rnd.randint(1, k))
    return label, base, chal


def _brute_force(
    label: Label, base: list[str], chal: list[str], k: int, level: int = 1
) -> dict[str, tuple[float, float]]:
    """Min and max delta per family over every relevance of the union's unjudged docs."""
    union = sorted({d for d in base + chal if label.verdict_of(d) is None})
    qrels: dict[str, dict[str, int]] = {}
    for n, bits in enumerate(itertools.product((0, 1), repeat=len(union))):
        q: dict[str, int] = {d: g for d, g in label.gain.items()}
        q.update({d: max(level, 1) * b for d, b in zip(union, bits, strict=True)})
        qrels[f"a{n}"] = q
    measures = {m.format(k=k) for m in TREC_NAMES.values()}
    ev = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level)

    def run(ranking: list[str]) -> dict[str, dict[str, float]]:
        # descending scores; RR is @k: the run is cut at k
        one = {d: float(len(ranking) - i) for i, d in enumerate(ranking[:k])}
        return {qid: one for qid in qrels}

    rb, rc = ev.evaluate(run(base)), ev.evaluate(run(chal))
    out = {}
    for fam, name in TREC_NAMES.items():
        m = name.format(k=k)
        deltas = [rc[q][m] - rb[q][m] for q in qrels]
        out[fam] = (min(deltas), max(deltas))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_delta_range_exact_families_equal_brute_force(seed: int) -> None:
    label, base, chal = _random_case(seed)
    truth = _brute_force(label, base, chal, 5)
    for fam in ("P", "Success", "RR", "R"):
        low, high = question_range(fam, 5, label, base, chal)
        assert low == pytest.approx(truth[fam][0], abs=1e-12), fam
        assert high == pytest.approx(truth[fam][1], abs=1e-12), fam


@pytest.mark.parametrize("seed", range(60))
def test_delta_range_bound_families_contain_every_assignment(seed: int) -> None:
    label, base, chal = _random_case(seed)
    truth = _brute_force(label, base, chal, 5)
    for fam in ("nDCG", "AP"):
        low, high = question_range(fam, 5, label, base, chal)
        assert low <= truth[fam][0] + 1e-12, fam
        assert high >= truth[fam][1] - 1e-12, fam


@pytest.mark.parametrize("seed", range(20))
def test_delta_range_exact_at_relevance_level_two(seed: int) -> None:
    label, base, chal = _random_case(100 + seed)
    truth = _brute_force(label, base, chal, 5, level=2)
    for fam in ("P", "Success", "RR", "R"):
        low, high = question_range(fam, 5, label, base, chal, relevance_level=2)
        assert (low, high) == pytest.approx(truth[fam], abs=1e-12), fam


def test_shared_unjudged_doc_gets_one_relevance_for_both() -> None:
    # Both systems return the same unjudged doc first: it cannot help one and not the other.
    label = label_from_data({"id": "q", "question": "?", "judged_ids": ["j"]})
    assert question_range("RR", 5, label, ["u", "j"], ["u", "j"]) == (0.0, 0.0)
    assert question_range("P", 5, label, ["u"], ["u"]) == (0.0, 0.0)
    assert question_range("Success", 5, label, ["u"], ["u"]) == (0.0, 0.0)
    # An exclusive unjudged doc can flip the sign.
    assert question_range("P", 5, label, ["j"], ["x"]) == (0.0, 0.2)


def test_classes_count_once_in_the_range() -> None:
    label = label_from_data(
        {
            "id": "q",
            "question": "?",
            "judged_ids": ["a", "b", "n"],
            "relevant_doc_ids": ["a", "b"],
            "relevant_classes": [["a", "b"]],
        }
    )
    # challenger returns both class members: one hit, like the baseline's single member
    assert question_range("P", 2, label, ["a", "n"], ["a", "b"]) == (0.0, 0.0)
    assert question_range("R", 2, label, ["a", "n"], ["a", "b"]) == (0.0, 0.0)


def test_mean_range_and_judge_cost_over_questions() -> None:
    labels = {
        "q1": label_from_data(
            {"id": "q1", "question": "?", "judged_ids": ["a", "b"], "relevant_doc_ids": ["a"]}
        ),
        "q2": label_from_data(
            {"id": "q2", "question": "?", "judged_ids": ["c"], "relevant_doc_ids": ["c"]}
        ),
    }
    base = {"q1": ["a", "b"], "q2": ["c", "x"]}
    chal = {"q1": ["u", "a", "v"], "q2": ["c", "x"]}
    dr = delta_range("P", 2, labels, ["q1", "q2"], base, chal)
    # q1: baseline 1 hit, challenger top2 = u, a: 1 hit + u unjudged -> [0, 0.5]; q2: [0, 0]
    assert (dr.low, dr.high) == pytest.approx((0.0, 0.25))
    assert dr.method == "exact" and dr.sign_can_flip
    cost = judge_cost(labels, ["q1", "q2"], base, chal, k=2)
    # union q1 = {a, b, u}: u unjudged; q2 = {c, x}: x unjudged
    assert (cost.documents, cost.questions) == (2, 2)
    assert cost.fraction == pytest.approx(2 / 5)


# --- the workflow and the CLI on a synthetic repository ---------------------------------------

import json  # noqa: E402
from pathlib import Path  # noqa: E402

import jsonschema  # noqa: E402

from compare_helpers import build_repo  # noqa: E402
from labelpool.cli import main  # noqa: E402

SCHEMA = Path(__file__).resolve().parents[3] / "schema" / "compare-report.schema.json"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)
    return doc


def test_pooled_system_vs_outsider_is_uninterpretable_with_cost(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_repo(repo)
    doc = _json(
        capsys,
        [
            "compare",
            "bm25",
            "dense",
            "-m",
            "R@10",
            "-m",
            "P@10",
            "--format",
            "json",
            "--repo",
            str(repo),
        ],
    )
    assert doc["built_by"] == ["bm25"] and doc["k"] == 10 and doc["seed"] == 0
    for c in doc["comparisons"]:
        assert (c["baseline"], c["challenger"]) == ("bm25", "dense")
        assert c["baseline_unjudged"] == 0.0
        assert c["challenger_unjudged"] == pytest.approx(0.9)
        assert c["reading"] == "uninterpretable" and c["verdict_code"] == "uninterpretable"
        # 9 unjudged docs per question, all exclusive to dense
        assert c["judge_cost"] == {
            "documents": 270,
            "questions": 30,
            "fraction": pytest.approx(270 / 570),
        }
        assert c["pooled"] == {"bm25": 30, "dense": 0}
        assert c["verdict"].startswith("uninterpretable: challenger unjudged 90% vs 0%; judge 270")
        assert "labelpool pool runs/bm25.trec runs/dense.trec --depth 10" in c["verdict"]
        assert c["sign_can_flip"] is True
    p10 = doc["comparisons"][1]
    # dense: 1 relevant of 10 (0.1); optimistic: all 10; judged-only (trec_eval -J): the
    # condensed list holds 1 document, still divided by 10
    assert p10["challenger_score"]["raw"] == pytest.approx(0.1)
    assert p10["challenger_score"]["optimistic"] == pytest.approx(1.0)
    assert p10["challenger_score"]["judged_only"] == pytest.approx(0.1)


def test_meaningful_improvement_names_direction(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_repo(repo)
    doc = _json(
        capsys,
        [
            "compare",
            "degraded",
            "bm25",
            "-m",
            "nDCG@10 RR@10 R@10",
            "--format",
            "json",
            "--repo",
            str(repo),
        ],
    )
    by = {c["measure"]: c for c in doc["comparisons"]}
    for m in ("nDCG@10", "RR@10"):
        c = by[m]
        assert c["reading"] == "meaningful"
        assert c["delta"] > 0 and c["p_adjusted"] < 0.05 and c["ci95"][0] > 0
        assert c["verdict_code"] == "improvement"
        assert c["verdict"].startswith(f"improvement: +{c['delta']:.3f} {m}, p = ")
        assert c["wins"] == 30 and c["losses"] == 0
        assert c["sign_can_flip"] is False  # everything both returned is judged
        assert c["delta_range"] == pytest.approx([c["delta"], c["delta"]], abs=1e-12)
        assert c["test_method"] == "monte-carlo"  # 30 questions
        assert len(c["most_changed"]) == 3
    # same ten documents: R@10 cannot change: no direction is named
    r = by["R@10"]
    assert r["delta"] == 0 and r["verdict_code"] == "no-difference" and r["ties"] == 30
    # Holm: three comparisons in the call
    ps = sorted(c["p_value"] for c in doc["comparisons"])
    assert max(c["p_adjusted"] for c in doc["comparisons"]) >= ps[-1]
    assert min(c["p_adjusted"] for c in doc["comparisons"]) == pytest.approx(min(3 * ps[0], 1))


def test_baseline_option_compares_every_other_run(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_repo(repo)
    doc = _json(
        capsys,
        [
            "compare",
            str(repo / "runs/dense.trec"),  # not the example's runs/ of the working folder
            str(repo / "runs/degraded.trec"),
            str(repo / "runs/bm25.trec"),
            "--baseline",
            "bm25",
            "-m",
            "P@10",
            "--format",
            "json",
            "--repo",
            str(repo),
        ],
    )
    pairs = [(c["baseline"], c["challenger"]) for c in doc["comparisons"]]
    assert pairs == [("bm25", "dense"), ("bm25", "degraded")]


def test_same_seed_same_report(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build_repo(repo)
    argv = ["compare", "degraded", "bm25", "-m", "nDCG@10", "--format", "json", "--repo", str(repo)]
    a = _json(capsys, argv)
    b = _json(capsys, argv)
    c = _json(capsys, [*argv, "--seed", "7"])
    assert a == b
    assert a["comparisons"][0]["ci95"] != c["comparisons"][0]["ci95"]


def test_markdown_and_text_outputs(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build_repo(repo)
    assert (
        main(
            ["compare", "bm25", "dense", "-m", "R@10", "--format", "markdown", "--repo", str(repo)]
        )
        == 0
    )
    md = capsys.readouterr().out
    assert md.startswith("## labelpool compare")
    assert "**dense vs bm25, R@10**: uninterpretable: challenger unjudged 90% vs 0%" in md
    assert "| dense | bm25 | R@10 |" in md
    assert main(["compare", "bm25", "dense", "-m", "R@10", "--repo", str(repo)]) == 0
    text = capsys.readouterr().out
    assert "verdict: uninterpretable on 1 of 1 measure (R@10: challenger unjudged 90% vs" in text


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compare", "bm25"], "two runs"),
        (["compare", "bm25", "dense", "degraded"], "--baseline"),
        (["compare", "bm25", "nosuch"], "no such run"),
        (["compare", "bm25", "dense", "-m", "Bogus@3"], "unknown measure"),
        (["compare", "bm25", "dense", "--k", "0"], "--k"),
        (["compare", "bm25", "dense", "--baseline", "other"], "no such run"),
    ],
)
def test_usage_errors_exit_2_without_traceback(
    repo: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    build_repo(repo)
    assert main([*argv, "--repo", str(repo)]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_bad_run_file_names_file_and_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build_repo(repo)
    bad = repo / "runs" / "bad.trec"
    bad.write_text("q01 Q0 q01-d0 1 1.0 bad\nq01 Q0 q01-d1 2 oops bad\n", encoding="utf-8")
    assert main(["compare", "bm25", "runs/bad.trec", "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "bad.trec:2" in err and "Traceback" not in err


def test_shipped_example_shows_the_seed_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    """The example repository in this checkout: the pooled bm25 against the dense challenger."""
    root = Path(__file__).resolve().parents[3]
    assert (root / "runs" / "bm25.trec").is_file() and (root / "runs" / "dense.trec").is_file()
    doc = _json(
        capsys, ["compare", "bm25", "dense", "-m", "R@10", "--format", "json", "--repo", str(root)]
    )
    assert doc["built_by"] == ["bm25"]
    (c,) = doc["comparisons"]
    assert c["baseline_unjudged"] <= 0.10 < c["challenger_unjudged"]
    assert c["reading"] == "uninterpretable" and c["verdict_code"] == "uninterpretable"
    assert c["judge_cost"]["documents"] > 0 and c["judge_cost"]["questions"] > 0
    assert (
        "judge " in c["verdict"] and "labelpool pool runs/bm25.trec runs/dense.trec" in c["verdict"]
    )
    assert c["pooled"]["bm25"] == c["questions"] and c["pooled"]["dense"] == 0


def test_judged_measure_range_is_the_delta_itself() -> None:
    label = label_from_data({"id": "q", "question": "?", "judged_ids": ["a", "b"]})
    # baseline: 2 of 2 judged (1.0); challenger: 1 of 3 judged
    assert question_range("Judged", 10, label, ["a", "b"], ["a", "u", "v"]) == pytest.approx(
        (1 / 3 - 1.0, 1 / 3 - 1.0)
    )
    assert question_range("Judged", 10, label, [], []) == (0.0, 0.0)


def test_both_rates_high_reads_relabel(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from compare_helpers import dense, write_run

    build_repo(repo)
    write_run(repo / "runs" / "dense2.trec", lambda i: dense(i)[::-1], "dense2")
    doc = _json(
        capsys,
        ["compare", "dense", "dense2", "-m", "RR@10", "--format", "json", "--repo", str(repo)],
    )
    (c,) = doc["comparisons"]
    assert c["reading"] == "relabel" and c["verdict_code"] == "relabel"
    assert c["verdict"].startswith("relabel: unjudged 90% (challenger) and 90% (baseline)")
    # the shared unjudged documents count once: nine per question
    assert c["judge_cost"]["documents"] == 270
