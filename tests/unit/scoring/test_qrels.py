"""The judgment arrays, built over every document at once, say what each label says one at a
time (``Label.gain``, ``Label.class_of``, ``Label.unjudged_marked``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from labelpool.model import Label, label_from_data
from labelpool.scoring.qrels import UNJUDGED, build, scored_qids


def _labels(seed: int) -> dict[str, Label]:
    rnd = random.Random(seed)
    docs = [f"d{i}" for i in range(15)]
    out = {}
    for q in range(rnd.randint(1, 12)):
        judged = sorted(rnd.sample(docs, rnd.randint(0, 9)))
        rel = sorted(d for d in judged if rnd.random() < 0.4)
        data: dict[str, Any] = {
            "id": f"q{q}",
            "question": "?",
            "judged_ids": judged,
            "relevant_doc_ids": rel,
            "grades": {d: rnd.choice([2, 3]) for d in rel if rnd.random() < 0.4},
        }
        rest = [d for d in docs if d not in judged]
        classes: list[Any] = []
        if len(rel) >= 2 and rnd.random() < 0.4:
            classes.append(rel[:2] + rest[:1])
        irrelevant = [d for d in judged if d not in rel]
        if irrelevant and len(rest) >= 3 and rnd.random() < 0.3:
            # a class of a judged-irrelevant document: its members share grade 0
            classes.append({"members": [irrelevant[0], rest[1]]})
        if len(rest) >= 5 and rnd.random() < 0.4:
            # a proposal waiting for review: scoring ignores it
            proposal = {"method": "shingle-jaccard", "score": 0.9}
            classes.append({"members": [rest[3], rest[4]], "proposed": proposal})
        if classes:
            data["relevant_classes"] = classes
        if rest and rnd.random() < 0.3:
            data["pooled_unjudged_ids"] = rnd.sample(rest, 1)
        if rest and rnd.random() < 0.2:
            batch = {"batch": "b", "systems": ["s"], "depth": 3, "date": "2026-01-01"}
            data["pending"] = [{**batch, "docs": [{"doc": rest[-1]}]}]
        out[f"q{q}"] = label_from_data(data)
    return out


@pytest.mark.parametrize("seed", range(150))
def test_arrays_say_what_each_label_says(seed: int) -> None:
    labels = _labels(seed)
    qids = scored_qids(labels)
    q = build(labels, qids)
    vocab = q.vocab.to_pylist()
    width = max(len(vocab), 1)
    assert q.keys.tolist() == sorted(q.keys.tolist())
    for i, qid in enumerate(qids):
        lab = labels[qid]
        rows = [
            (vocab[int(k) % width], int(g), int(t))
            for k, g, t in zip(q.keys, q.grade, q.target, strict=True)
            if int(k) // width == i
        ]
        marked = lab.unjudged_marked
        assert {d for d, g, _ in rows if g == UNJUDGED} == set(marked)
        gain = {d: g for d, g in lab.gain.items() if d not in marked}
        assert {d: g for d, g, _ in rows if g != UNJUDGED} == gain
        # one target per class (or relevant document), shared by exactly its members
        groups: dict[int, set[str]] = {}
        for d, g, t in rows:
            assert (t >= 0) == (g > 0 and g != UNJUDGED)
            if t >= 0:
                groups.setdefault(t, set()).add(d)
        want: dict[str, set[str]] = {}
        for d, g in gain.items():
            if g > 0:
                want.setdefault(lab.class_of.get(d, d), set()).add(d)
        assert sorted(map(sorted, groups.values())) == sorted(map(sorted, want.values()))
        ideal = sorted(int(g) for qi, g in zip(q.ideal_q, q.ideal_g, strict=True) if qi == i)
        assert ideal == sorted(gain[min(members)] for members in want.values())
    assert q.pending_docs == sum(len(labels[x].pending_ids) for x in qids)


def test_a_proposal_is_never_scored_and_an_irrelevant_class_is_grade_0() -> None:
    data: dict[str, Any] = {
        "id": "q",
        "question": "?",
        "judged_ids": ["a", "b"],
        "relevant_doc_ids": ["a"],
        "relevant_classes": [
            {"members": ["b", "c"]},
            {"members": ["a", "d"], "proposed": {"method": "shingle-jaccard", "score": 0.86}},
        ],
    }
    lab = label_from_data(data)
    assert lab.relevant_classes == (("b", "c"),)
    assert [(p.members, p.method, p.score) for p in lab.proposed_classes] == [
        (("a", "d"), "shingle-jaccard", 0.86)
    ]
    assert dict(lab.gain) == {"a": 1, "b": 0, "c": 0}
    assert lab.verdict_of("d") is None
