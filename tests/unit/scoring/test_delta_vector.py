"""The delta range and judging cost over all questions at once equal the per-question
reference (:func:`labelpool.scoring.delta.question.delta_range`, itself held to brute force)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from labelpool.model import Label, label_from_data
from labelpool.runs import Run, read_run
from labelpool.scoring.delta import arrays as delta_vector
from labelpool.scoring.delta.question import METHODS, delta_range, judge_cost
from labelpool.scoring.join import top_rows
from labelpool.scoring.qrels import qrels_for


def _labels(rnd: random.Random, nq: int) -> dict[str, Label]:
    docs = [f"d{i}" for i in range(12)]
    out = {}
    for q in range(nq):
        judged = sorted(rnd.sample(docs, rnd.randint(1, 8)))
        grades = {d: rnd.choice([0, 0, 1, 1, 2, 3]) for d in judged}
        relevant = sorted(d for d, g in grades.items() if g > 0)
        data: dict[str, object] = {
            "id": f"q{q}",
            "question": "?",
            "judged_ids": judged,
            "relevant_doc_ids": relevant,
            "grades": {d: g for d, g in grades.items() if g > 1},
        }
        if len(relevant) >= 2 and rnd.random() < 0.3:
            data["relevant_classes"] = [relevant[:2]]
        rest = [d for d in docs if d not in judged]
        if rest and rnd.random() < 0.3:
            data["pooled_unjudged_ids"] = sorted(rnd.sample(rest, 1))
        out[f"q{q}"] = label_from_data(data)
    return out


def _run(rnd: random.Random, path: Path, nq: int) -> Run:
    lines = []
    for q in range(nq + 1):  # one question the labels lack
        if rnd.random() < 0.15:
            continue  # a question the run lacks
        docs = rnd.sample([f"d{i}" for i in range(16)], rnd.randint(1, 9))
        for i, d in enumerate(docs):
            lines.append(f"q{q} Q0 {d} {i + 1} {rnd.choice([1, 2, 3, 4, 5])} s\n")
    if not lines:
        lines.append("q0 Q0 d1 1 1 s\n")
    path.write_text("".join(lines))
    return read_run(path)


@pytest.mark.parametrize("seed", range(40))
def test_vectorised_equals_per_question(tmp_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    nq = rnd.randint(1, 8)
    labels = _labels(rnd, nq)
    base, chal = _run(rnd, tmp_path / "b.trec", nq), _run(rnd, tmp_path / "c.trec", nq)
    qrels = qrels_for(labels)
    qids = [str(q) for q in qrels.qids]
    ideal = (qrels.ideal_q, qrels.ideal_g)
    for depth in (None, 1, 3, 5, 20):
        tb, tc = top_rows(base, qrels, depth, qrels.qids), top_rows(chal, qrels, depth, qrels.qids)
        lb = base.top(depth) if depth else {q: base.ranking(q) for q in qids}
        lc = chal.top(depth) if depth else {q: chal.ranking(q) for q in qids}
        for family in METHODS:
            for level in (1, 2):
                want = delta_range(family, depth, labels, qids, lb, lc, level)
                got = delta_vector.ranges(family, depth, tb, tc, ideal, level)
                assert got.method == want.method
                flat_got = [x for pair in got.per_question for x in pair]
                flat_want = [x for pair in want.per_question for x in pair]
                assert flat_got == flat_want, (family, depth, level)  # to the last bit
                assert (got.low, got.high) == (want.low, want.high)
        if depth:
            want_cost = judge_cost(labels, qids, lb, lc, depth)
            assert delta_vector.cost(tb, tc) == want_cost
            # the documents matched by id strings, not the runs' integer codes: the same
            by_id = replace(tb, codes=None, ids=tb.docs), replace(tc, codes=None, ids=tc.docs)
            assert delta_vector.cost(*by_id) == want_cost
