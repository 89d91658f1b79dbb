"""Agreement with trec_eval (through pytrec_eval-terrier) on CAsT 2021 and on generated data.

Without classes every measure equals trec_eval's to 1e-9; the judged-only column equals
trec_eval ``-J`` (``judged_docs_only_flag``); ``RR@k`` equals ``recip_rank`` on the run cut
to its top k in trec_eval order. Judged questions the run lacks score 0 (trec_eval ``-c``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import ir_measures
import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool.model import Label, label_from_data
from labelpool.runs import read_run
from labelpool.scoring import SystemScore, score
from labelpool.scoring.measures import parse

MEASURES = parse(["P@10 P@5 R@10 R@100 nDCG@10 nDCG@3 RR AP AP@100 Success@10 Success@1"])
TOL = 1e-9

Qrels = dict[str, dict[str, int]]
RunDict = dict[str, dict[str, float]]


def labels_from_qrels(qrels: Qrels) -> dict[str, Label]:
    out = {}
    for q, docs in qrels.items():
        out[q] = label_from_data(
            {
                "id": q,
                "question": q,
                "relevant_doc_ids": sorted(d for d, g in docs.items() if g > 0),
                "judged_ids": sorted(d for d, g in docs.items() if g >= 0),
                "grades": {d: g for d, g in docs.items() if g > 1},
                "pooled_unjudged_ids": sorted(d for d, g in docs.items() if g < 0),
            }
        )
    return out


def write_run(path: Path, run: RunDict, shuffle_seed: int = 0) -> Path:
    lines = [
        f"{q} Q0 {d} {i + 1} {s!r} sys\n"
        for q, docs in run.items()
        for i, (d, s) in enumerate(docs.items())
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def check(
    ours: SystemScore,
    qrels: Qrels,
    run: RunDict,
    relevance_level: int,
    judged_only: bool = False,
) -> int:
    """Compare every measure with pytrec_eval; returns the number of values compared."""
    names = {m.trec_eval for m in MEASURES if m.trec_eval}
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, names, relevance_level=relevance_level, judged_docs_only_flag=judged_only
    )
    theirs = evaluator.evaluate(run)
    side = "judged_only" if judged_only else "raw"
    index = {str(q): i for i, q in enumerate(ours.qids)}
    compared = 0
    for m in MEASURES:
        assert m.trec_eval is not None
        values = ours.per_query[m.name][side]
        for q, i in index.items():
            if q in theirs:
                expected = theirs[q][m.trec_eval]
                assert values[i] == pytest.approx(expected, abs=TOL), (m.name, q, side)
                compared += 1
            elif q not in run:
                assert values[i] == 0.0, (m.name, q, "missing from run scores 0")
    return compared


def rr_at_k_check(ours: SystemScore, qrels: Qrels, run_path: Path, k: int, level: int) -> None:
    run = read_run(run_path)
    cut = {
        q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in run.top(k).items()
    }
    cut = {q: v for q, v in cut.items() if v}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}, relevance_level=level).evaluate(
        cut
    )
    values = ours.per_query[f"RR@{k}"]["raw"]
    for i, q in enumerate(ours.qids):
        expected = theirs[q]["recip_rank"] if q in theirs else 0.0
        assert values[i] == pytest.approx(expected, abs=TOL), (q, k)


def cast_qrels(cast_dir: Path) -> Qrels:
    qrels: Qrels = {}
    for line in (cast_dir / "trec-cast-qrels-docs.2021.qrel").read_text().splitlines():
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    return qrels


def read_run_dict(path: Path) -> RunDict:
    out: RunDict = {}
    for line in path.read_text().splitlines():
        q, _, d, _, s, _ = line.split()
        out.setdefault(q, {})[d] = float(s)
    return out


CAST_RUNS = [
    "org_convdr.run",
    "org_convdr_bert.run",
    "org_manual_ance.run",
    "org_manual_ance_bert.run",
    "org_manual_bm25.run",
]


@pytest.mark.parametrize("name", CAST_RUNS)
@pytest.mark.parametrize("level", [1, 2])
def test_cast_2021_agrees_with_trec_eval(cast_dir: Path, name: str, level: int) -> None:
    qrels = cast_qrels(cast_dir)
    labels = labels_from_qrels(qrels)
    path = cast_dir / "baselines" / "document_runs" / name
    run = read_run_dict(path)
    ours = score(read_run(path), labels, [*MEASURES, *parse(["RR@10"])], relevance_level=level)
    assert len(ours.qids) == 158
    assert ours.skipped["not_in_labels"] == len(set(run) - set(qrels))
    assert check(ours, qrels, run, level) > 158 * len(MEASURES) - 1
    assert check(ours, qrels, run, level, judged_only=True) > 0
    rr_at_k_check(ours, qrels, path, 10, level)


def test_cast_2021_judged_at_10_in_published_range(cast_dir: Path) -> None:
    qrels = cast_qrels(cast_dir)
    labels = labels_from_qrels(qrels)
    for name in CAST_RUNS:
        ours = score(
            read_run(cast_dir / "baselines" / "document_runs" / name), labels, parse(["Judged@10"])
        )
        assert 0.69 <= ours.means["Judged@10"].raw <= 0.87
        assert ours.unjudged_rate == pytest.approx(1 - ours.means["Judged@10"].raw, abs=0.02)


# ---------------------------------------------------------------- generated data

DOCS = [f"d{i}" for i in range(14)]


@st.composite
def collections(draw: st.DrawFn) -> tuple[Qrels, RunDict, int]:
    nq = draw(st.integers(1, 6))
    qrels: Qrels = {}
    run: RunDict = {}
    for i in range(nq):
        q = f"q{i}"
        judged = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=9))
        # grades: -1 pooled-unjudged, 0 irrelevant, 1..3 relevant; some questions have none
        grades = draw(st.lists(st.integers(-1, 3), min_size=len(judged), max_size=len(judged)))
        if any(g >= 0 for g in grades):
            qrels[q] = dict(zip(judged, grades, strict=True))
        if draw(st.booleans()) or not run:
            ranked = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=14))
            # few distinct scores: many ties
            scores = draw(
                st.lists(
                    st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0]),
                    min_size=len(ranked),
                    max_size=len(ranked),
                )
            )
            run[q] = dict(zip(ranked, scores, strict=True))
    if not qrels:
        qrels["q0"] = {"d0": 1}
    run.setdefault("extra", {"d0": 1.0})  # a question the labels do not know
    return qrels, run, draw(st.integers(1, 3))


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=collections())
def test_generated_runs_agree_with_trec_eval(
    tmp_path: Path, data: tuple[Qrels, RunDict, int]
) -> None:
    qrels, run, level = data
    path = write_run(tmp_path / "gen.trec", run)
    labels: Mapping[str, Label] = labels_from_qrels(qrels)
    ours = score(read_run(path), labels, [*MEASURES, *parse(["RR@3"])], relevance_level=level)
    judged_q = {q for q, docs in qrels.items() if any(g >= 0 for g in docs.values())}
    assert set(ours.qids) == judged_q
    # pytrec_eval sees only the questions we average over
    sub = {q: qrels[q] for q in judged_q}
    check(ours, sub, {q: v for q, v in run.items() if q in judged_q}, level)
    check(ours, sub, {q: v for q, v in run.items() if q in judged_q}, level, judged_only=True)
    rr_at_k_check(ours, sub, path, 3, level)
    assert ours.skipped["missing_from_run"] == len(judged_q - set(run))
    assert ours.skipped["not_in_labels"] == len(set(run) - set(qrels))


# ---------------------------------------------------------------- Judged@k and ir_measures


def test_judged_at_k_matches_ir_measures_on_cast(cast_dir: Path) -> None:
    qrels_path = cast_dir / "trec-cast-qrels-docs.2021.qrel"
    labels = labels_from_qrels(cast_qrels(cast_dir))
    wanted = [ir_measures.Judged @ 10, ir_measures.Judged @ 100]
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    for name in CAST_RUNS:
        path = cast_dir / "baselines" / "document_runs" / name
        ours = score(read_run(path), labels, parse(["Judged@10", "Judged@100"]))
        index = {str(q): i for i, q in enumerate(ours.qids)}
        run = list(ir_measures.read_trec_run(str(path)))
        for m in ir_measures.iter_calc(wanted, qrels, run):
            if m.query_id in index:
                value = ours.per_query[str(m.measure)]["raw"][index[m.query_id]]
                assert value == pytest.approx(m.value, abs=TOL), (name, m)


def test_judged_at_k_ties_follow_trec_eval_not_ir_measures(tmp_path: Path) -> None:
    """ir_measures breaks a score tie by doc id ascending; trec_eval (and we) descending."""
    labels = labels_from_qrels({"q": {"a": 1}})
    path = tmp_path / "tie.trec"
    path.write_text("q Q0 a 1 1.0 s\nq Q0 b 2 1.0 s\n")
    ours = score(read_run(path), labels, parse(["Judged@1"]))
    assert read_run(path).ranking("q") == ["b", "a"]
    assert ours.per_query["Judged@1"]["raw"].tolist() == [0.0]  # b first: unjudged
    theirs = ir_measures.calc_aggregate(
        [ir_measures.Judged @ 1],
        list(ir_measures.read_trec_qrels(_qrels_file(tmp_path, "q 0 a 1\n"))),
        list(ir_measures.read_trec_run(str(path))),
    )
    assert theirs[ir_measures.Judged @ 1] == 1.0  # a first


def _qrels_file(folder: Path, text: str) -> str:
    path = folder / "qrels.txt"
    path.write_text(text)
    return str(path)
