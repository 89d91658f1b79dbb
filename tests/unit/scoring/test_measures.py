"""Measures: names, classes (the seed's example), bounds, the unjudged rate, shuffling."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool.model import Label, label_from_data
from labelpool.runs import read_run
from labelpool.scoring import score, scored_qids, unjudged_at
from labelpool.scoring.measures import DEFAULT, MeasureError, parse

SEED = label_from_data(
    {
        "id": "returns-damaged",
        "question": "My parcel arrived damaged. Can I send it back?",
        "relevant_doc_ids": ["faq-shipping#damaged", "policy-returns-v3#sec-2"],
        "judged_ids": [
            "faq-shipping#damaged",
            "handbook#returns",
            "policy-returns-v2#sec-2",
            "policy-returns-v3#sec-2",
        ],
        "grades": {"policy-returns-v3#sec-2": 2},
        "relevant_classes": [["faq-shipping#damaged", "policy-returns-v3#sec-2"]],
        "pool": [{"system": "bm25", "k": 20, "date": "2026-06-02"}],
    }
)


def run_file(tmp_path: Path, name: str, rows: dict[str, list[str]]) -> Path:
    """A run ranking each question's docs in the given order (scores descending)."""
    path = tmp_path / name
    lines = [
        f"{q} Q0 {d} {i + 1} {len(docs) - i} {name}\n"
        for q, docs in rows.items()
        for i, d in enumerate(docs)
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def one(tmp_path: Path, docs: list[str], measures: str, **kw: int) -> dict[str, float]:
    path = run_file(tmp_path, "s.trec", {"returns-damaged": docs})
    result = score(read_run(path), {"returns-damaged": SEED}, parse([measures]), **kw)
    return {name: m.raw for name, m in result.means.items()}


# ---------------------------------------------------------------- names


def test_parse_names_lists_and_defaults() -> None:
    ms = parse(["P@10, nDCG@5", "RR AP@100", "P@10", "Judged@20", "Success@1"])
    assert [m.name for m in ms] == ["P@10", "nDCG@5", "RR", "AP@100", "Judged@20", "Success@1"]
    assert [m.trec_eval for m in ms] == [
        "P_10",
        "ndcg_cut_5",
        "recip_rank",
        "map_cut_100",
        None,
        "success_1",
    ]
    assert [m.name for m in parse(DEFAULT)] == list(DEFAULT)
    assert parse(["AP"])[0].depth(10) is None  # whole ranking, as trec_eval map
    assert parse(["R"])[0].depth(7) == 7  # the scorer's k (a bare "P" is trec_eval's P)
    assert all(m.doc for m in parse(DEFAULT))


@pytest.mark.parametrize("bad", ["MAP@10", "nDCG@x", "P@0", "", "Recall@10"])
def test_unknown_measure_lists_known_ones(bad: str) -> None:
    with pytest.raises(MeasureError) as info:
        parse([bad])
    assert isinstance(info.value, ValueError)
    assert "nDCG@k" in str(info.value) or "at least 1" in str(info.value)


# ---------------------------------------------------------------- classes


def test_seed_class_example_scores_the_hit(tmp_path: Path) -> None:
    got = one(tmp_path, ["faq-shipping#damaged", "handbook#returns"], "R@10 P@1 nDCG@10 RR")
    assert got == {"R@10": 1.0, "P@1": 1.0, "nDCG@10": 1.0, "RR": 1.0}
    # the superseded version is judged irrelevant and outside the class: no hit
    got = one(tmp_path, ["policy-returns-v2#sec-2", "handbook#returns"], "R@10 P@1 nDCG@10 RR")
    assert got == {"R@10": 0.0, "P@1": 0.0, "nDCG@10": 0.0, "RR": 0.0}


def test_class_earned_once(tmp_path: Path) -> None:
    docs = ["policy-returns-v3#sec-2", "faq-shipping#damaged"]
    got = one(tmp_path, docs, "P@2 R@10 nDCG@10 AP")
    # the second member is not a second hit: one target, grade 2, at rank 1
    assert got == {"P@2": 0.5, "R@10": 1.0, "nDCG@10": 1.0, "AP": 1.0}
    got = one(tmp_path, ["handbook#returns", *docs], "nDCG@10 AP")
    assert got["AP"] == 0.5
    assert got["nDCG@10"] == pytest.approx(1 / np.log2(3))


def test_class_grade_is_the_members_highest(tmp_path: Path) -> None:
    # faq's own grade is 1; through the class it earns policy-v3's 2: with a grade-2
    # relevance level it still counts
    got = one(tmp_path, ["faq-shipping#damaged"], "R@10", relevance_level=2)
    assert got == {"R@10": 1.0}


# ---------------------------------------------------------------- bounds


def test_optimistic_bound_recall_and_precision(tmp_path: Path) -> None:
    label = label_from_data(
        {
            "id": "q",
            "question": "?",
            "relevant_doc_ids": ["r1", "r2", "r3"],
            "judged_ids": ["n1", "r1", "r2", "r3"],
            "pooled_unjudged_ids": ["p1"],
            "pool": [{"system": "bm25", "k": 5, "date": "2026-06-02"}],
        }
    )
    # top 5: r1 (a=1), u1 u2 unjudged, n1 irrelevant, p1 pooled-unjudged: u = 3
    path = run_file(tmp_path, "s.trec", {"q": ["r1", "u1", "n1", "u2", "p1", "r2"]})
    result = score(read_run(path), {"q": label}, parse(["R@5 P@5 Success@5 RR@5 AP@5"]), k=5)
    m = result.means
    assert m["R@5"].raw == pytest.approx(1 / 3)
    assert m["R@5"].optimistic == pytest.approx((1 + 3) / (3 + 3))
    assert m["P@5"].raw == pytest.approx(1 / 5)
    assert m["P@5"].optimistic == pytest.approx(4 / 5)
    # judged-only: r1 n1 r2 -> P@5 = 2/5, R@5 = 2/3
    assert m["P@5"].judged_only == pytest.approx(2 / 5)
    assert m["R@5"].judged_only == pytest.approx(2 / 3)
    assert m["RR@5"].optimistic == 1.0
    # AP@5 optimistic: relevant at ranks 1,2,4,5 of R + u = 6 targets
    assert m["AP@5"].optimistic == pytest.approx((1 + 1 + 3 / 4 + 4 / 5) / 6)
    assert result.unjudged_rate == pytest.approx(3 / 5)
    assert result.unjudged.tolist() == [pytest.approx(3 / 5)]


# ---------------------------------------------------------------- questions


def test_missing_not_judged_unknown_and_pending(tmp_path: Path) -> None:
    judged = label_from_data(
        {
            "id": "a",
            "question": "?",
            "relevant_doc_ids": ["x"],
            "judged_ids": ["x", "y"],
            "pool": [{"system": "s", "k": 5, "date": "2026-06-02"}],
            "pending": [
                {
                    "batch": "b",
                    "systems": ["t"],
                    "depth": 5,
                    "date": "2026-06-03",
                    "docs": [{"doc": "z", "verdict": None}, {"doc": "y", "verdict": None}],
                }
            ],
        }
    )
    missing = label_from_data(
        {"id": "b", "question": "?", "relevant_doc_ids": ["x"], "judged_ids": ["x"]}
    )
    fresh = label_from_data({"id": "c", "question": "?", "judged_ids": []})
    labels: dict[str, Label] = {"a": judged, "b": missing, "c": fresh}
    path = run_file(tmp_path, "s.trec", {"a": ["x", "y", "z"], "c": ["x"], "zz": ["x"]})
    result = score(read_run(path), labels, parse(["P@1", "R@10"]), k=3)
    assert list(result.qids) == ["a", "b"]
    assert result.skipped == {
        "not_in_labels": 1,
        "not_judged": 1,
        "missing_from_run": 1,
        "pending_docs": 2,
    }
    assert result.per_query["P@1"]["raw"].tolist() == [1.0, 0.0]
    assert result.means["R@10"].raw == 0.5
    # y is judged but pending again: unjudged, as is z
    assert result.unjudged.tolist() == [pytest.approx(2 / 3), 0.0]
    assert result.unjudged_rate == pytest.approx(2 / 3)
    assert any("pending" in w for w in result.warnings)


def test_all_equal_scores_warn(tmp_path: Path) -> None:
    path = tmp_path / "t.trec"
    path.write_text("returns-damaged Q0 a 1 1 s\nreturns-damaged Q0 b 2 1 s\n")
    result = score(read_run(path), {"returns-damaged": SEED}, parse(["P@1"]))
    assert any("all-equal scores" in w for w in result.warnings)


def test_two_systems_align_question_by_question(tmp_path: Path) -> None:
    labels = {
        q: label_from_data(
            {"id": q, "question": "?", "relevant_doc_ids": ["x"], "judged_ids": ["x"]}
        )
        for q in ("b", "a", "c")
    }
    one_ = score(
        read_run(run_file(tmp_path, "1.trec", {"c": ["x"], "a": ["y"]})), labels, parse(["P@1"])
    )
    two = score(read_run(run_file(tmp_path, "2.trec", {"b": ["x"]})), labels, parse(["P@1"]))
    assert list(one_.qids) == list(two.qids) == ["a", "b", "c"] == list(scored_qids(labels))
    assert one_.per_query["P@1"]["raw"].tolist() == [0.0, 0.0, 1.0]
    assert two.per_query["P@1"]["raw"].tolist() == [0.0, 1.0, 0.0]


# ---------------------------------------------------------------- unjudged rate


def direct_unjudged(
    rankings: dict[str, list[str]], labels: dict[str, Label], qids: list[str], k: int
) -> tuple[list[float], float]:
    """The seed's definition, written plainly: 1 - judged/seen over what was returned."""
    per = []
    judged_total = seen_total = 0
    for q in qids:
        top = rankings.get(q, [])[:k]
        lab = labels[q]
        judged = sum(1 for d in top if d in lab.judged and d not in lab.unjudged_marked)
        per.append(1 - judged / len(top) if top else 0.0)
        judged_total += judged
        seen_total += len(top)
    return per, (1 - judged_total / seen_total if seen_total else 0.0)


DOCS = [f"d{i}" for i in range(12)]


@st.composite
def labelled_runs(draw: st.DrawFn) -> tuple[dict[str, Label], dict[str, list[str]], int]:
    labels: dict[str, Label] = {}
    rankings: dict[str, list[str]] = {}
    for i in range(draw(st.integers(1, 5))):
        q = f"q{i}"
        judged = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=8))
        relevant = [d for d in judged if draw(st.booleans())]
        unjudged = [d for d in DOCS if d not in judged and draw(st.integers(0, 4)) == 0]
        classes = [relevant[:2]] if len(relevant) >= 2 and draw(st.booleans()) else []
        labels[q] = label_from_data(
            {
                "id": q,
                "question": "?",
                "relevant_doc_ids": relevant,
                "judged_ids": judged,
                "grades": {d: draw(st.integers(1, 3)) for d in relevant},
                "relevant_classes": classes,
                "pooled_unjudged_ids": unjudged,
            }
        )
        if draw(st.booleans()):
            rankings[q] = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=12))
            if not rankings[q]:
                del rankings[q]
    rankings["unknown"] = ["d1"]
    return labels, rankings, draw(st.integers(1, 12))


SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SETTINGS
@given(data=labelled_runs())
def test_unjudged_rate_equals_direct_definition(
    tmp_path: Path, data: tuple[dict[str, Label], dict[str, list[str]], int]
) -> None:
    labels, rankings, k = data
    run = read_run(run_file(tmp_path, "r.trec", rankings))
    qids = [str(q) for q in scored_qids(labels)]
    per, rate = direct_unjudged(rankings, labels, qids, k)
    result = score(run, labels, parse(["Judged@" + str(k)]), k=k)
    assert result.unjudged.tolist() == pytest.approx(per, abs=1e-12)
    assert result.unjudged_rate == pytest.approx(rate, abs=1e-12)
    # any cut-off, any question order
    backwards = qids[::-1]
    per_b, rate_b = unjudged_at(run, labels, backwards, k + 1)
    want_b, want_rate_b = direct_unjudged(rankings, labels, backwards, k + 1)
    assert per_b.tolist() == pytest.approx(want_b, abs=1e-12)
    assert rate_b == pytest.approx(want_rate_b, abs=1e-12)
    # Judged@k is one minus the per-question rate where something was returned
    judged = result.per_query[f"Judged@{k}"]["raw"]
    returned = np.array([q in rankings for q in qids], dtype=bool)
    assert judged[returned] == pytest.approx(1 - result.unjudged[returned])


@SETTINGS
@given(data=labelled_runs(), seed=st.integers(0, 2**16))
def test_shuffled_lines_change_nothing(
    tmp_path: Path, data: tuple[dict[str, Label], dict[str, list[str]], int], seed: int
) -> None:
    labels, rankings, k = data
    path = run_file(tmp_path, "a.trec", rankings)
    # ties too: give every other document the same score
    lines = [
        " ".join([*p[:4], str(int(p[4]) // 2), *p[5:]]) + "\n"
        for p in (line.split() for line in path.read_text().splitlines())
    ]
    path.write_text("".join(lines))
    random.Random(seed).shuffle(lines)
    shuffled = tmp_path / "b.trec"
    shuffled.write_text("".join(lines))
    measures = parse((*DEFAULT, "AP", "RR", "Judged@5"))
    a = score(read_run(path), labels, measures, k=k)
    b = score(read_run(shuffled), labels, measures, k=k)
    assert a.unjudged.tolist() == b.unjudged.tolist()
    assert a.unjudged_rate == b.unjudged_rate
    for name, sides in a.per_query.items():
        for side, values in sides.items():
            assert values.tolist() == b.per_query[name][side].tolist(), (name, side)


@SETTINGS
@given(data=labelled_runs())
def test_optimistic_at_least_raw(
    tmp_path: Path, data: tuple[dict[str, Label], dict[str, list[str]], int]
) -> None:
    """For P, R, Success and RR the all-relevant scenario is an upper bound of raw."""
    labels, rankings, k = data
    run = read_run(run_file(tmp_path, "r.trec", rankings))
    result = score(run, labels, parse(["P@5 R@5 Success@5 RR@5 RR"]), k=k)
    for name, sides in result.per_query.items():
        assert (sides["optimistic"] >= sides["raw"] - 1e-12).all(), name


def test_optimistic_ap_and_ndcg_are_scenarios_not_bounds(tmp_path: Path) -> None:
    """Each unjudged document also joins the ideal, so AP and nDCG can fall below raw."""
    label = label_from_data(
        {"id": "q", "question": "?", "relevant_doc_ids": ["r"], "judged_ids": ["n", "r"]}
    )
    path = run_file(tmp_path, "s.trec", {"q": ["r", "n", "u"]})
    result = score(read_run(path), {"q": label}, parse(["AP@5 nDCG@5"]), k=5)
    assert result.means["AP@5"].raw == 1.0
    assert result.means["AP@5"].optimistic == pytest.approx((1 + 2 / 3) / 2)
    assert result.means["nDCG@5"].raw == 1.0
    ideal = 1 + 1 / np.log2(3)
    assert result.means["nDCG@5"].optimistic == pytest.approx((1 + 1 / np.log2(4)) / ideal)
