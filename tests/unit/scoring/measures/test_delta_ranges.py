"""``compare``'s delta range for RBP (exact), ERR (bounds) and trec_eval names (full), against
every relevance of the unjudged documents: each unjudged document of either ranking is set
irrelevant or relevant at grade max(level, 1) in turn, both systems are scored, and the
delta of every assignment must lie in the range (RBP: its ends are reached)."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import numpy as np
import pytest

from labelpool.model import Label
from labelpool.runs import read_run
from labelpool.scoring import score
from labelpool.scoring.measures import parse
from labelpool.scoring.measures.ranges import question_ranges

DOCS = [f"d{i}" for i in range(12)]


def _case(seed: int) -> tuple[Label, list[str], list[str]]:
    rng = np.random.default_rng(seed)
    # -2: not in the labels at all, -1: pooled, never judged; seeds from 12: all judged
    state = rng.choice([-2, -1, 0, 1, 2] if seed < 12 else [0, 1, 2], size=len(DOCS))
    grades = {d: int(s) for d, s in zip(DOCS, state, strict=True) if s >= 0}
    label = Label(
        id="q",
        question="q",
        relevant_doc_ids=tuple(d for d, g in grades.items() if g >= 1),
        judged_ids=tuple(grades),
        grades={d: g for d, g in grades.items() if g >= 2},
        pooled_unjudged_ids=tuple(d for d, s in zip(DOCS, state, strict=True) if s == -1),
    )
    base = [str(d) for d in rng.choice(DOCS, size=int(rng.integers(1, 8)), replace=False)]
    chal = [str(d) for d in rng.choice(DOCS, size=int(rng.integers(1, 8)), replace=False)]
    return label, base, chal


def _with(label: Label, relevant: set[str], irrelevant: set[str]) -> Label:
    grades = dict(label.gain) | {d: 1 for d in relevant} | {d: 0 for d in irrelevant}
    return Label(
        id=label.id,
        question=label.question,
        relevant_doc_ids=tuple(d for d, g in grades.items() if g >= 1),
        judged_ids=tuple(grades),
        grades={d: g for d, g in grades.items() if g >= 2},
    )


def _delta(name: str, label: Label, base: list[str], chal: list[str], folder: Path) -> float:
    values = []
    for system, docs in (("b", base), ("c", chal)):
        path = folder / f"{system}.txt"
        path.write_text(
            "".join(f"q Q0 {d} 0 {len(docs) - i} {system}\n" for i, d in enumerate(docs))
        )
        measure = parse([name])[0]
        result = score(read_run(path), {"q": label}, [measure], k=5)
        values.append(float(result.per_query[measure.name]["raw"][0]))
    return values[1] - values[0]


@pytest.mark.parametrize(
    ("name", "key", "exact"),
    [
        ("RBP(p=0.7)", "RBP:0.7", True),
        ("ERR@5", "ERR", False),
        ("map", "trec_eval:map", False),
        ("P.5", "trec_eval:P.5", False),
    ],
)
def test_every_relevance_of_the_unjudged_lies_in_the_range(
    name: str, key: str, exact: bool
) -> None:
    checked = exact_checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(16):
            label, base, chal = _case(seed)
            cut = 5 if name in ("ERR@5", "P.5") else None
            b, c = base[:cut], chal[:cut]
            ((low, high),) = question_ranges(key, {"q": label}, ["q"], {"q": b}, {"q": c}, 1)
            unjudged = sorted({d for d in (*b, *c) if label.verdict_of(d) is None})
            if len(unjudged) > 6:
                continue
            deltas = []
            for bits in itertools.product((False, True), repeat=len(unjudged)):
                relevant = {d for d, on in zip(unjudged, bits, strict=True) if on}
                assigned = _with(label, relevant, set(unjudged) - relevant)
                deltas.append(_delta(name, assigned, base, chal, Path(tmp)))
            assert low - 1e-12 <= min(deltas) and max(deltas) <= high + 1e-12, seed
            if exact:
                assert min(deltas) == pytest.approx(low) and max(deltas) == pytest.approx(high)
            if not unjudged:
                assert low == pytest.approx(deltas[0]) and high == pytest.approx(deltas[0])
                exact_checked += 1
            checked += 1
    assert checked >= 8 and exact_checked >= 4
