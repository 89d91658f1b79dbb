"""``ERR@k``, ``RBP(p=...)`` and ``Judged@k`` against ir_measures, where their definitions meet.

* ``ERR@k``: ir_measures' gdeval provider (gdeval.pl: grades 0-4, ties by doc id descending as
  trec_eval, values printed with 5 decimals): equal to 1e-5 on graded labels with -1 grades
  and ties. gdeval needs perl (an OS facility) and numeric question ids.
* ``RBP(p)``: ir_measures' ``RBP(p=...)`` (trectools provider) sums the raw grades (labelpool's
  RBP is binary, as Moffat & Zobel's), averages the weights of tied documents and stops at rank
  1000: equal on binary grades when no scores tie and at most 1000 documents are ranked.
* ``Judged@k``: ir_measures breaks ties by doc id ascending (trec_eval: descending), counts a
  qrels row with a negative grade as judged (labelpool: pooled, never judged) and divides by
  min(k, returned) as labelpool: equal when no scores tie and no grade is negative.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import ir_measures
import numpy as np
import pytest
from ir_measures import ERR, RBP, Judged, Qrel, ScoredDoc
from tests.conftest import skip_unless

from labelpool.model import Label
from labelpool.runs import read_run
from labelpool.scoring import score
from labelpool.scoring.measures import parse


def _collection(
    seed: int, ties: bool, grades: tuple[int, ...]
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    rng = np.random.default_rng(seed)
    docs = [f"D{i:03d}" for i in range(200)]
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(1, 13):
        qid = str(100 + q)
        judged = rng.choice(docs, size=int(rng.integers(5, 70)), replace=False)
        qrels[qid] = {str(d): int(rng.choice(grades)) for d in judged}
        retrieved = rng.choice(docs, size=int(rng.integers(1, 120)), replace=False)
        if ties:
            run[qid] = {str(d): float(rng.integers(0, 8)) for d in retrieved}
        else:
            scores = rng.permutation(len(retrieved)).astype(float)
            run[qid] = {str(d): float(s) for d, s in zip(retrieved, scores, strict=True)}
    return qrels, run


def _labels(qrels: dict[str, dict[str, int]]) -> dict[str, Label]:
    return {
        q: Label(
            id=q,
            question=q,
            relevant_doc_ids=tuple(d for d, g in rows.items() if g >= 1),
            judged_ids=tuple(d for d, g in rows.items() if g >= 0),
            grades={d: g for d, g in rows.items() if g >= 2},
            pooled_unjudged_ids=tuple(d for d, g in rows.items() if g < 0),
        )
        for q, rows in qrels.items()
    }


def _ours(
    tmp_path: Path, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], name: str
) -> dict[str, float]:
    path = tmp_path / "run.txt"
    path.write_text(
        "".join(f"{q} Q0 {d} 0 {s} tag\n" for q, r in run.items() for d, s in r.items()),
        encoding="utf-8",
    )
    result = score(read_run(path), _labels(qrels), parse([name]))
    values = result.per_query[parse([name])[0].name]["raw"]
    return {str(q): float(v) for q, v in zip(result.qids, values, strict=True)}


def _theirs(
    measure: Any,
    provider: str,
    qrels: dict[str, dict[str, int]],
    run: dict[str, dict[str, float]],
) -> dict[str, float]:
    rows = [Qrel(q, d, g) for q, r in qrels.items() for d, g in r.items()]
    ranked = [ScoredDoc(q, d, s) for q, r in run.items() for d, s in r.items()]
    evaluator = ir_measures.providers.registry[provider].evaluator([measure], rows)
    return {m.query_id: float(m.value) for m in evaluator.iter_calc(ranked)}


@pytest.mark.parametrize("seed", [1, 2])
def test_err_equals_ir_measures_gdeval(seed: int, tmp_path: Path) -> None:
    skip_unless(shutil.which("perl"), "perl (ir_measures' gdeval provider runs gdeval.pl)", "os")
    qrels, run = _collection(seed, ties=True, grades=(-1, 0, 0, 1, 2, 3, 4))
    for k in (5, 20):
        ours = _ours(tmp_path, qrels, run, f"ERR@{k}")
        theirs = _theirs(ERR @ k, "gdeval", qrels, run)
        assert set(theirs) == set(ours)
        for q, value in theirs.items():
            assert ours[q] == pytest.approx(value, abs=1e-5), (q, k)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("p", [0.5, 0.8])
def test_rbp_equals_ir_measures_trectools_without_ties(seed: int, p: float, tmp_path: Path) -> None:
    qrels, run = _collection(seed, ties=False, grades=(-1, 0, 0, 1))
    ours = _ours(tmp_path, qrels, run, f"RBP(p={p})")
    theirs = _theirs(RBP(p=p), "trectools", qrels, run)
    for q, value in theirs.items():
        assert ours[q] == pytest.approx(value, abs=1e-9), q
    assert len(theirs) == len(run)


@pytest.mark.parametrize("seed", [1, 2])
def test_judged_equals_ir_measures_without_ties(seed: int, tmp_path: Path) -> None:
    qrels, run = _collection(seed, ties=False, grades=(0, 0, 1, 2))
    for k in (5, 10, 50):
        ours = _ours(tmp_path, qrels, run, f"Judged@{k}")
        theirs = _theirs(Judged @ k, "judged", qrels, run)
        for q, value in theirs.items():
            assert ours[q] == pytest.approx(value, abs=1e-9), (q, k)
