"""compare: the delta range (exact by brute force), judge cost, the workflow, CLI and schema."""

from __future__ import annotations

import itertools
import random

import pytest
import pytrec_eval

from labelpool.delta_range import delta_range, judge_cost, question_range
from labelpool.model import Label, label_from_data

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
    dr = delta_range("P@2", labels, ["q1", "q2"], base, chal)
    # q1: baseline 1 hit, challenger top2 = u, a: 1 hit + u unjudged -> [0, 0.5]; q2: [0, 0]
    assert (dr.low, dr.high) == pytest.approx((0.0, 0.25))
    assert dr.method == "exact" and dr.sign_can_flip
    cost = judge_cost(labels, ["q1", "q2"], base, chal, k=2)
    # union q1 = {a, b, u}: u unjudged; q2 = {c, x}: x unjudged
    assert (cost.documents, cost.questions) == (2, 2)
    assert cost.fraction == pytest.approx(2 / 5)
