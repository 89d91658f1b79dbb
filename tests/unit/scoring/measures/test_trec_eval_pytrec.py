"""trec_eval semantics against pytrec_eval (trec_eval 9.0.x inside), to 1e-9, per question.

Generated qrels and runs: graded labels 0-3, -1 grades (pooled, never judged), retrieved
documents outside the qrels, a question with only -1 grades, questions missing from the run,
score ties (trec_eval breaks them by doc id descending), and the variants ``-l2``, ``-M`` (the
run cut to its first N documents for pytrec_eval, which has no ``-M``) and ``-J``.

Compared: every measure pytrec_eval computes where 9.0.x and 10.0 agree (``gm_map`` and
``gm_bpref`` per question are the logarithms both sum). ``iprec_at_recall`` and ``11pt_avg``
only on questions where 10.0's ``lround(point x R)`` equals 9.0.x's ``(long)(point x R + 0.9)``
for the points read. Left out: ``runid`` and ``relstring`` (strings);
``-c`` differs (10.0 evaluates the stand-in ranking) so questions missing from the run are
compared only as absent. trec_eval 10.0's own output is checked byte for byte in
``tests/cli/test_trec_eval_golden.py``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from labelpool.model import Label
from labelpool.runs import read_run
from labelpool.scoring.trec_eval import Options, evaluate, select

SKIPPED = ("runid", "relstring")
POINTS = [i / 10 for i in range(11)]


def _collection(seed: int) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    rng = np.random.default_rng(seed)
    docs = [f"D{i:03d}" for i in range(120)]
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(14):
        qid = f"q{q:02d}"
        judged = rng.choice(docs, size=int(rng.integers(5, 60)), replace=False)
        if q == 3:
            grades = {str(d): -1 for d in judged}  # only pooled-unjudged
        else:
            grades = {str(d): int(rng.choice([-1, 0, 0, 1, 2, 3])) for d in judged}
        qrels[qid] = grades
        if q in (5, 9):
            continue  # missing from the run
        retrieved = rng.choice(docs, size=int(rng.integers(1, 90)), replace=False)
        # few distinct scores: many ties, broken by doc id
        run[qid] = {str(d): float(rng.integers(0, 6)) / 2 for d in retrieved}
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


def _write_run(path: Path, run: dict[str, dict[str, float]]) -> Path:
    lines = [f"{q} Q0 {d} 0 {s} tag\n" for q, ranking in run.items() for d, s in ranking.items()]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _same_rounding(column: str, num_rel: int) -> bool:
    """Whether 10.0 and 9.0.x turn the recall points of ``column`` into the same ranks."""
    if column.startswith("iprec_at_recall_"):
        points = [float(column.rsplit("_", 1)[1])]
    elif column == "11pt_avg":
        points = POINTS
    else:
        return True
    return all(math.floor(p * num_rel + 0.5) == math.trunc(p * num_rel + 0.9) for p in points)


def _cut(run: dict[str, dict[str, float]], depth: int) -> dict[str, dict[str, float]]:
    """The first ``depth`` documents in trec_eval's order (score desc, doc id desc)."""
    out = {}
    for q, ranking in run.items():
        ordered = sorted(ranking.items(), key=lambda kv: (-kv[1], tuple(-ord(c) for c in kv[0])))
        out[q] = dict(ordered[:depth])
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    "options",
    [Options(), Options(relevance_level=2), Options(max_depth=7), Options(judged_only=True)],
    ids=["plain", "l2", "M7", "J"],
)
def test_agrees_with_pytrec_eval(seed: int, options: Options, tmp_path: Path) -> None:
    qrels, run = _collection(seed)
    labels = _labels(qrels)
    ours = evaluate(
        read_run(_write_run(tmp_path / "run.txt", run)),
        labels,
        select(["all_trec"]),
        Options(
            relevance_level=options.relevance_level,
            complete=True,
            max_depth=options.max_depth,
            judged_only=options.judged_only,
        ),
    )
    theirs_run = run if options.max_depth is None else _cut(run, options.max_depth)
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels,
        pytrec_eval.supported_measures,
        relevance_level=options.relevance_level,
        judged_docs_only_flag=options.judged_only,
    )
    theirs = evaluator.evaluate(theirs_run)
    compared = 0
    num_rel = next(c.per_query for c in ours.columns if c.name == "num_rel")
    for col in ours.columns:
        if col.name.startswith(SKIPPED) or col.measure in ("rbp", "rbp_resid", "unj"):
            continue
        for i, qid in enumerate(ours.qids):
            if qid not in theirs or not _same_rounding(col.name, int(num_rel[i])):
                continue
            assert col.name in theirs[qid], col.name
            want = theirs[qid][col.name]
            got = float(col.per_query[i])
            assert got == pytest.approx(want, abs=1e-9, nan_ok=True), (qid, col.name)
            compared += 1
    assert compared > 500
    assert set(theirs) == {q for q in qrels if q in run}
