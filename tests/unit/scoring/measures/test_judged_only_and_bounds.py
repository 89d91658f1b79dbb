"""Property tests over random labels and runs (hypothesis):

* the judged-only column (Sakai 2007's condensed list; trec_eval ``-J``) equals the raw score of
  the condensed run, the run with every document that has no judgment removed;
* every measure whose optimistic column is a bound never lies above it, on any question.

Labels have grades 0-3, pooled-unjudged documents, sometimes a class of two relevant documents;
runs have ties and leave questions out.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from labelpool.model import Label
from labelpool.runs import read_run
from labelpool.scoring import score
from labelpool.scoring.measures import parse
from labelpool.scoring.measures.base import BOUND

MEASURES = parse(
    [
        "P@3 R@5 nDCG@5 RR AP Success@3 RBP(p=0.5) ERR@5 Bpref infAP",
        "map P.3 ndcg_cut.5 recip_rank Rprec recall.5 success.3 ndcg rbp set_F relative_P.5",
        "map_cut.5 binG G Rndcg ndcg_rel Rprec_mult.1 iprec_at_recall..5 11pt_avg num_rel_ret",
        "utility set_P set_recall set_map set_relative_P",
    ]
)
DOCS = [f"d{i}" for i in range(14)]


@st.composite
def collections(draw: st.DrawFn) -> tuple[dict[str, Label], dict[str, list[tuple[str, int]]]]:
    labels: dict[str, Label] = {}
    run: dict[str, list[tuple[str, int]]] = {}
    for q in range(draw(st.integers(1, 4))):
        qid = f"q{q}"
        state = draw(st.lists(st.sampled_from([None, -1, 0, 1, 2, 3]), min_size=14, max_size=14))
        grades = {d: s for d, s in zip(DOCS, state, strict=True) if s is not None}
        relevant = tuple(d for d, g in grades.items() if g >= 1)
        classes = ((relevant[0], relevant[1]),) if len(relevant) > 1 and draw(st.booleans()) else ()
        labels[qid] = Label(
            id=qid,
            question=qid,
            relevant_doc_ids=relevant,
            relevant_classes=classes,
            judged_ids=tuple(d for d, g in grades.items() if g >= 0),
            grades={d: g for d, g in grades.items() if g >= 2},
            pooled_unjudged_ids=tuple(d for d, g in grades.items() if g < 0),
        )
        if draw(st.booleans()) or q == 0:
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
            run[qid] = [(d, draw(st.integers(0, 3))) for d in docs]
    return labels, run


def _write(folder: Path, name: str, run: dict[str, list[tuple[str, int]]]) -> Path:
    path = folder / name
    path.write_text(
        "".join(f"{q} Q0 {d} 0 {s} tag\n" for q, rows in run.items() for d, s in rows),
        encoding="utf-8",
    )
    return path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections())
def test_judged_only_is_the_condensed_run(
    data: tuple[dict[str, Label], dict[str, list[tuple[str, int]]]],
) -> None:
    labels, run = data
    assume(any(label.is_judged for label in labels.values()))
    condensed = {
        q: [(d, s) for d, s in rows if labels[q].verdict_of(d) is not None]
        for q, rows in run.items()
    }
    condensed = {q: rows for q, rows in condensed.items() if rows}
    assume(condensed)
    with tempfile.TemporaryDirectory() as tmp:
        full = score(read_run(_write(Path(tmp), "full.txt", run)), labels, MEASURES, k=5)
        only = score(read_run(_write(Path(tmp), "only.txt", condensed)), labels, MEASURES, k=5)
    for m in MEASURES:
        got = full.per_query[m.name]["judged_only"]
        want = only.per_query[m.name]["raw"]
        assert np.allclose(got, want, atol=1e-12), m.name


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections())
def test_bounds_are_bounds(
    data: tuple[dict[str, Label], dict[str, list[tuple[str, int]]]],
) -> None:
    labels, run = data
    assume(any(label.is_judged for label in labels.values()))
    bounded = [m for m in MEASURES if m.optimistic == BOUND]
    assert len(bounded) >= 10
    with tempfile.TemporaryDirectory() as tmp:
        result = score(read_run(_write(Path(tmp), "run.txt", run)), labels, bounded, k=5)
    for m in bounded:
        raw = result.per_query[m.name]["raw"]
        high = result.per_query[m.name]["optimistic"]
        assert np.all(raw <= high + 1e-12), m.name
