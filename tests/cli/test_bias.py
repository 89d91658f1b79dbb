"""``labelpool bias``: leave-one-system-out pool bias, on hand-made repos and on CAsT 2021."""

from __future__ import annotations

import json
import math
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from labelpool.cli import main
from labelpool.model import label_from_data
from labelpool.workflows.evaluate.bias import (
    competition_ranks,
    kendall_tau_b,
    unique_contributions,
    without,
)
from provenance_scenario import (
    commit_all,
    git,
    git_init,
    read_qrels,
    trec_top,
    write_label,
    write_run,
)

# --------------------------------------------------------------------------- Kendall's tau-b


@given(
    st.integers(min_value=2, max_value=12).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 4).map(lambda v: v / 4), min_size=n, max_size=n),
            st.lists(st.integers(0, 4).map(lambda v: v / 4), min_size=n, max_size=n),
        )
    )
)
@settings(max_examples=300, deadline=None)
def test_tau_b_equals_scipy_with_ties(xy: tuple[list[float], list[float]]) -> None:
    x, y = xy
    ours = kendall_tau_b(x, y)
    with warnings.catch_warnings():  # scipy warns on constant input (NaN, as ours)
        warnings.simplefilter("ignore")
        theirs = kendalltau(x, y).statistic
    if math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_tau_b_by_hand() -> None:
    assert kendall_tau_b([1, 2, 3], [10, 20, 30]) == 1
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1
    # One discordant pair of three: (2 - 1) / 3.
    assert kendall_tau_b([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    # Ties: x = (.75, .5, .75), y = (.25, .5, .25): two discordant, one pair tied in both.
    assert kendall_tau_b([0.75, 0.5, 0.75], [0.25, 0.5, 0.25]) == pytest.approx(-1)
    assert math.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau_b([1], [1]))


def test_competition_ranks_share_the_better_rank() -> None:
    assert competition_ranks({"a": 0.75, "b": 0.5, "c": 0.75}) == {"a": 1, "b": 3, "c": 1}


# --------------------------------------------------------------------------- reduction


def test_without_removes_every_trace_and_keeps_a_class_relevant() -> None:
    label = label_from_data(
        {
            "id": "q",
            "question": "?",
            "relevant_doc_ids": ["pol-v3#2", "x"],
            "judged_ids": ["faq#1", "pol-v3#2", "x", "y"],
            "grades": {"pol-v3#2": 3, "x": 2},
            "relevant_classes": [["faq#1", "pol-v3#2"]],
            "pool": [{"system": "a", "k": 5, "date": "2026-06-02"}],
        }
    )
    reduced = without(label, {"pol-v3#2", "y"})
    assert reduced.judged == {"faq#1", "x"}
    assert "pol-v3#2" not in reduced.grades
    assert reduced.relevant_classes == (("faq#1",),)
    # faq#1 was relevant through its class (grade 3); it stays so at the class's grade.
    assert reduced.gain == {"faq#1": 3, "x": 2}
    assert without(label, ()) is label


def test_unique_contributions_respect_each_systems_own_depth() -> None:
    label = label_from_data(
        {
            "id": "q",
            "question": "?",
            "relevant_doc_ids": ["d1", "d2"],
            "judged_ids": ["d1", "d2", "d3"],
        }
    )
    pooled = {"q": {"A": ["d1", "d2", "u"], "B": ["d2"]}}
    # u is unjudged: never a contribution; d2 is shared; d3 is judged but pooled by nobody.
    assert unique_contributions({"q": label}, pooled) == {"A": {"q": frozenset({"d1"})}}


# --------------------------------------------------------------------------- a hand-made repo
#
# q1: pool A@3, B@2.  judged a1 (rel), a2, x1 (irrelevant), b1 (rel).
#     A: a1 a2 x1   B: b1 a2 x2   C: a1 b1 c1     (C is not pooled)
#     A's own: a1, x1 (a2 is in B's top 2).   B's own: b1.
# q2: pool A@1, B@1.  judged d1, d2 (rel), d3 (irrelevant; no system pooled it).
#     A: d1 d2      B: d2 x3      C: d3 d1
#     A's own: d1 (d2 is in A's top 2 but A was pooled at 1).   B's own: d2.
#
# P@2, full:        A (.5 + 1)/2 = .75   B (.5 + .5)/2 = .5   C (1 + .5)/2 = .75
# without A's own:  A (0 + .5)/2 = .25   B .5                 C (.5 + 0)/2 = .25
# without B's own:  A (.5 + .5)/2 = .5   B (0 + 0)/2 = 0      C (.5 + .5)/2 = .5
# unjudged rate at 2 (every system returns 2 per question: 4 documents):
#   full A 0, B 1/4 (x3), C 0; without A: A 2/4, B 1/4, C 2/4; without B: A 1/4, B 3/4, C 1/4.
# Ranks full A 1, C 1, B 3; without A: B 1, A 2, C 2; without B: A 1, C 1, B 3.
# tau-b without A: pairs AB discordant, AC tied in both, BC discordant: -2/sqrt(2*2) = -1.
# tau-b without B: AB concordant, AC tied in both, BC concordant: +1.


def hand_repo(repo: Path) -> Path:
    write_run(repo, "A", {"q1": ["a1", "a2", "x1"], "q2": ["d1", "d2"]})
    write_run(repo, "B", {"q1": ["b1", "a2", "x2"], "q2": ["d2", "x3"]})
    write_run(repo, "C", {"q1": ["a1", "b1", "c1"], "q2": ["d3", "d1"]})
    write_label(
        repo,
        "q1",
        judged=["a1", "a2", "b1", "x1"],
        relevant=["a1", "b1"],
        pool=[("A", 3), ("B", 2)],
    )
    write_label(
        repo, "q2", judged=["d1", "d2", "d3"], relevant=["d1", "d2"], pool=[("A", 1), ("B", 1)]
    )
    return repo


def run_json(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> Any:
    capsys.readouterr()
    code = main(["bias", "--repo", str(repo), "--format", "json", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_hand_made_numbers(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, hand_repo(repo), "-m", "P@2", "--k", "2")
    # The documented, stable shape.
    assert list(data) == [
        "measure",
        "k",
        "relevance_level",
        "unattributed_questions",
        "systems",
        "leave_one_out",
    ]
    assert list(data["systems"][0]) == ["system", "run", "pooled", "score", "rank", "unjudged_rate"]
    assert list(data["leave_one_out"][0]) == [
        "system",
        "removed_judgments",
        "removed_relevant",
        "questions",
        "score",
        "reduced_score",
        "delta",
        "rank",
        "reduced_rank",
        "rank_change",
        "kendall_tau",
        "systems",
    ]
    assert list(data["leave_one_out"][0]["systems"][0]) == [
        "system",
        "score",
        "reduced_score",
        "delta",
        "rank",
        "reduced_rank",
        "rank_change",
        "unjudged_rate",
        "reduced_unjudged_rate",
    ]
    assert data["measure"] == "P@2"
    assert data["k"] == 2
    assert data["unattributed_questions"] == 0
    systems = {s["system"]: s for s in data["systems"]}
    assert [s["system"] for s in data["systems"]] == ["A", "C", "B"]
    assert {s: (v["score"], v["rank"], v["pooled"]) for s, v in systems.items()} == {
        "A": (0.75, 1, True),
        "B": (0.5, 3, True),
        "C": (0.75, 1, False),
    }
    assert systems["A"]["run"] == "runs/A.trec"
    assert {s: v["unjudged_rate"] for s, v in systems.items()} == {"A": 0, "B": 0.25, "C": 0}

    loo = {lo["system"]: lo for lo in data["leave_one_out"]}
    assert list(loo) == ["A", "B"]
    a, b = loo["A"], loo["B"]
    assert (a["removed_judgments"], a["removed_relevant"], a["questions"]) == (3, 2, 2)
    assert (b["removed_judgments"], b["removed_relevant"], b["questions"]) == (2, 2, 2)
    assert (a["score"], a["reduced_score"], a["delta"]) == (0.75, 0.25, -0.5)
    assert (a["rank"], a["reduced_rank"], a["rank_change"]) == (1, 2, -1)
    assert a["kendall_tau"] == pytest.approx(-1)
    assert (b["score"], b["reduced_score"], b["delta"]) == (0.5, 0, -0.5)
    assert (b["rank"], b["reduced_rank"], b["rank_change"]) == (3, 3, 0)
    assert b["kendall_tau"] == pytest.approx(1)

    def rows(lo: dict[str, Any]) -> dict[str, tuple[float, int, float]]:
        return {
            r["system"]: (r["reduced_score"], r["reduced_rank"], r["reduced_unjudged_rate"])
            for r in lo["systems"]
        }

    assert rows(a) == {"A": (0.25, 2, 0.5), "B": (0.5, 1, 0.25), "C": (0.25, 2, 0.5)}
    assert rows(b) == {"A": (0.5, 1, 0.25), "B": (0, 3, 0.75), "C": (0.5, 1, 0.25)}


def test_text_and_markdown_show_the_same_numbers(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand_repo(repo)
    for fmt in ("text", "markdown"):
        capsys.readouterr()
        assert main(["bias", "--repo", str(repo), "-m", "P@2", "--k", "2", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "pooled: A, B; not pooled: C" in " ".join(out.split())  # text: wrapped
        assert "0.7500" in out and "0.2500" in out and "-0.5000" in out
        assert "1 -> 2 (-1)" in out  # A's rank without its own judgments
        assert "-1.0000" in out and "1.0000" in out  # the two taus
        assert "without A's own judgments" in out.replace("Without", "without")
    assert out.count("| A (left out) |") == 1 and "|:--|--:|" in out


def test_unknown_origin_questions_are_kept_whole(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand_repo(repo)
    write_run(repo, "A", {"q1": ["a1", "a2", "x1"], "q2": ["d1", "d2"], "q3": ["e1"]})
    write_label(repo, "q3", judged=["e1"], relevant=["e1"], pool=[("A", 1), ("unknown", None)])
    data = run_json(capsys, repo, "-m", "P@2", "--k", "2")
    assert data["unattributed_questions"] == 1
    loo = {lo["system"]: lo for lo in data["leave_one_out"]}
    assert loo["A"]["removed_judgments"] == 3  # e1 stays: its origin is unknown


def test_contributions_come_from_the_run_as_pooled(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git_init(repo)
    hand_repo(repo)
    commit_all(repo, "runs")
    blob = git(repo, "hash-object", "runs/B.trec")
    write_label(
        repo,
        "q1",
        judged=["a1", "a2", "b1", "x1"],
        relevant=["a1", "b1"],
        pool=[("A", 3), ("B", 2, blob)],
    )
    # B changed after pooling: its current top 2 of q1 no longer holds a2.
    write_run(repo, "B", {"q1": ["b1", "x2", "a2"], "q2": ["d2", "x3"]})
    commit_all(repo, "B retrained")
    data = run_json(capsys, repo, "-m", "P@2", "--k", "2")
    loo = {lo["system"]: lo for lo in data["leave_one_out"]}
    assert loo["A"]["removed_judgments"] == 3  # a2 still counts as shared, from the blob


def test_refuses_when_a_pooled_system_has_no_run(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand_repo(repo)
    write_label(repo, "q3", judged=["e"], relevant=["e"], pool=[("splade", 10), ("zeta", 5)])
    capsys.readouterr()
    assert main(["bias", "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "no run in runs/ for: splade, zeta" in err
    assert "Traceback" not in err


def test_refuses_with_a_single_pooled_system(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_run(repo, "bm25", {"q1": ["a", "b"]})
    write_run(repo, "dense", {"q1": ["b", "c"]})
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"], pool=[("bm25", 2)])
    capsys.readouterr()
    assert main(["bias", "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "needs at least two pooled systems with committed runs; pooled here: bm25" in err


def test_usage_errors_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand_repo(repo)
    assert main(["bias", "--repo", str(repo), "--format", "csv"]) == 2
    assert main(["bias", "--repo", str(repo), "-m", "nDCG@ten"]) == 2
    err = capsys.readouterr().err
    assert "--format must be one of text, json, markdown" in err
    assert "Traceback" not in err


def test_shipped_example_explains_why_it_cannot_run(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[2]
    labels = list((root / "labels").glob("*.yaml"))
    assert labels and any((root / "runs").glob("*.trec")), "the shipped example is missing"
    capsys.readouterr()
    assert main(["bias", "--repo", str(root)]) == 1
    err = capsys.readouterr().err
    assert "needs at least two pooled systems with committed runs; pooled here: bm25" in err


def test_shipped_example_after_pooling_the_challenger(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's loop: pool dense beside bm25, merge (oracle), then audit both."""
    import shutil

    monkeypatch.setenv("COLUMNS", "80")

    root = Path(__file__).resolve().parents[2]
    qrels = root / "corpus" / "ground-truth.qrels"
    assert any((root / "labels").glob("*.yaml")) and qrels.is_file(), "the example is missing"
    for name in ("labels", "runs", "corpus"):
        shutil.copytree(root / name, tmp_path / name)
    shutil.copy(root / "pyproject.toml", tmp_path / "pyproject.toml")
    git_init(tmp_path)
    commit_all(tmp_path, "example")
    repo = str(tmp_path)
    assert main(["pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "20", "--repo", repo]) == 0
    assert (
        main(["merge", "--oracle", str(qrels), "--oracle-missing", "irrelevant", "--repo", repo])
        == 0
    )
    data = run_json(capsys, tmp_path, "-m", "nDCG@10")
    pooled = {s["system"] for s in data["systems"] if s["pooled"]}
    assert pooled == {"bm25", "dense"}
    loo = {lo["system"]: lo for lo in data["leave_one_out"]}
    for lo in loo.values():
        assert lo["removed_judgments"] > 0
        assert lo["questions"] > 0
    # The challenger loses most when its own judgments go: the incumbent-only labels
    # under-rate it (the seed's scenario).
    assert loo["dense"]["delta"] < loo["bm25"]["delta"]
    assert loo["dense"]["delta"] < 0
    # the text fits 80 columns (the width of a pipe), its tables continuing below
    capsys.readouterr()
    assert main(["bias", "--repo", repo, "-m", "nDCG@10"]) == 0
    text = capsys.readouterr().out
    assert "without dense's own judgments" in text and "Kendall" in text
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert all(line == line.rstrip() for line in text.splitlines())


# --------------------------------------------------------------------------- CAsT 2021

POOLED = ("org_manual_bm25", "org_manual_ance", "org_convdr")
OTHERS = ("org_manual_ance_bert", "org_convdr_bert")


def test_cast2021_against_pytrec_eval_on_reduced_qrels(
    repo: Path, cast_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pytrec_eval

    qrels = read_qrels(cast_dir / "trec-cast-qrels-docs.2021.qrel")
    run_dir = cast_dir / "baselines" / "document_runs"
    tops = {}
    for name in POOLED + OTHERS:
        (repo / "runs" / f"{name}.run").write_bytes((run_dir / f"{name}.run").read_bytes())
        tops[name] = trec_top(run_dir / f"{name}.run", 10)
    # Judgments: the real qrels restricted to the union of the pooled systems' top 10s.
    judged: dict[str, dict[str, int]] = {}
    for qid, docs in qrels.items():
        union = {d for s in POOLED for d in tops[s].get(qid, [])}
        kept = {d: g for d, g in docs.items() if d in union}
        judged[qid] = kept
        write_label(
            repo,
            qid,
            judged=kept,
            relevant=[d for d, g in kept.items() if g > 0],
            grades={d: g for d, g in kept.items() if g > 1},
            pool=[(s, 10) for s in POOLED] if kept else [],
        )
    data = run_json(capsys, repo, "-m", "nDCG@10")

    runs = {}
    for name in POOLED + OTHERS:
        run: dict[str, dict[str, float]] = defaultdict(dict)
        for line in (run_dir / f"{name}.run").read_text().splitlines():
            qid, _, d, _, score, *_ = line.split()
            run[qid][d] = float(score)
        runs[name] = run

    def mean_ndcg(q: dict[str, dict[str, int]], name: str) -> float:
        q = {qid: docs for qid, docs in q.items() if docs}
        ev = pytrec_eval.RelevanceEvaluator(q, {"ndcg_cut.10"})
        res = ev.evaluate({qid: r for qid, r in runs[name].items() if qid in q})
        return sum(res.get(qid, {}).get("ndcg_cut_10", 0.0) for qid in q) / len(q)

    full = {s["system"]: s["score"] for s in data["systems"]}
    for name in POOLED + OTHERS:
        assert full[name] == pytest.approx(mean_ndcg(judged, name), abs=1e-9)
    assert sorted(s["system"] for s in data["systems"] if s["pooled"]) == sorted(POOLED)

    for lo in data["leave_one_out"]:
        out = lo["system"]
        others = [s for s in POOLED if s != out]
        reduced = {
            qid: {
                d: g
                for d, g in docs.items()
                if d not in tops[out].get(qid, []) or any(d in tops[o].get(qid, []) for o in others)
            }
            for qid, docs in judged.items()
        }
        removed = sum(len(judged[q]) - len(reduced[q]) for q in judged)
        assert lo["removed_judgments"] == removed > 0
        expected = {name: mean_ndcg(reduced, name) for name in POOLED + OTHERS}
        got = {r["system"]: r["reduced_score"] for r in lo["systems"]}
        assert got == pytest.approx(expected, abs=1e-9)
        names = sorted(expected)
        tau = kendalltau([full[n] for n in names], [expected[n] for n in names]).statistic
        assert lo["kendall_tau"] == pytest.approx(tau, abs=1e-12)
        assert lo["reduced_score"] < lo["score"]  # leaving the pool costs a system
