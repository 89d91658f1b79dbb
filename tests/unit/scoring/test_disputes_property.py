"""Property (issue 24): under every disputes policy, and scored with any one person's own
verdicts, each score lies inside the bounds ``score`` gives under ``bounds`` (raw: every open
dispute a miss; optimistic: every one relevant), on generated label files in the record form
and generated runs. (A machine judge's own verdicts are another labelling, not a settling of
the people's disputes: where people agree a machine that disagrees is outvoted, and
``--judge MACHINE`` reads it anyway, so it is not bounded by the people's disputes.)"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import PYPROJECT

from labelpool import api, labelset, verdicts
from labelpool.model import JudgeVerdict, Label, qrels_rows
from labelpool.scoring import measures
from labelpool.scoring.delta.question import METHODS, delta_range
from labelpool.scoring.evaluate import score
from labelpool.scoring.measures import ranges
from labelpool.workflows.evaluate import compare as compare_workflow

JUDGES = ("Ana Lopez <ana@example.org>", "Bo Chen <bo@example.org>", "umbrela-3")
VERDICTS = ("relevant", "irrelevant", 0, 1, 2, 3)
DOCS = tuple(f"d{j}" for j in range(6))
MEASURES = ["P@3", "P@5", "Success@3"]


def grade(v: object) -> int:
    return {"relevant": 1, "irrelevant": 0}.get(v, v)  # type: ignore[call-overload, no-any-return]


# per document: [(judge index, verdict)], empty for a document nobody judged
doc_verdicts = st.lists(
    st.tuples(st.sampled_from(range(len(JUDGES))), st.sampled_from(VERDICTS)),
    max_size=3,
    unique_by=lambda t: t[0],
)
question = st.tuples(
    st.lists(doc_verdicts, min_size=len(DOCS), max_size=len(DOCS)),
    st.permutations(DOCS),
    st.permutations(DOCS),
)


def label_text(qid: str, per_doc: list[list[tuple[int, object]]]) -> str:
    """The file as the record part writes it: the lists hold the verdict that counts (for an
    open dispute the lowest), ``verdicts`` lists every document with its judges."""
    judged = [d for d, vs in zip(DOCS, per_doc, strict=True) if vs]
    counted: dict[str, int] = {}
    for d, vs in zip(DOCS, per_doc, strict=True):
        if vs:
            people = [grade(v) for j, v in vs if j < 2]
            counted[d] = min(people or [grade(v) for _, v in vs])
    relevant = [f"  - {d}" for d in judged if counted[d] > 0]
    lines = [f"id: {qid}", "question: A question?"]
    lines += ["relevant_doc_ids:", *relevant] if relevant else ["relevant_doc_ids: []"]
    lines += ["judged_ids:", *(f"  - {d}" for d in judged)] if judged else ["judged_ids: []"]
    graded = [d for d in judged if counted[d] > 1]
    lines += ["grades:", *(f"  {d}: {counted[d]}" for d in graded)] if graded else []
    if judged:
        lines.append("verdicts:")
    for d, vs in zip(DOCS, per_doc, strict=True):
        if not vs:
            continue
        lines.append(f"  {d}:")
        for j, v in vs:
            kind = ", kind: machine" if j == 2 else ""
            lines.append(f"    - {{judge: {JUDGES[j]}{kind}, verdict: {v}}}")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(question, min_size=1, max_size=4))
def test_every_policy_inside_the_bounds(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    questions: list[tuple[list[list[tuple[int, object]]], tuple[str, ...], tuple[str, ...]]],
) -> None:
    root: Path = tmp_path_factory.mktemp("repo")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(root / ".cache"))
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    runs: dict[str, list[str]] = {"a": [], "b": []}
    for i, (per_doc, order_a, order_b) in enumerate(questions):
        qid = f"q{i}"
        (root / "labels" / f"{qid}.yaml").write_text(label_text(qid, per_doc), encoding="utf-8")
        for name, order in (("a", order_a), ("b", order_b)):
            runs[name] += [f"{qid} Q0 {d} {r} {9 - r} {name}" for r, d in enumerate(order, 1)]
    if not any(vs for per_doc, _, _ in questions for vs in per_doc):
        return  # nothing judged: nothing to score
    for name, rows in runs.items():
        (root / "runs" / f"{name}.trec").write_text("\n".join(rows) + "\n", encoding="utf-8")
    repo = api.load(root)
    bounds = api.score(["a", "b"], measures=MEASURES, repo=repo, disputes="bounds")
    readings = {
        p: api.score(["a", "b"], measures=MEASURES, repo=repo, disputes=p)
        for p in ("majority", "max", "min")
    }
    judges = {
        e.judge
        for lab in repo.labels.values()
        for vs in lab.verdicts.values()
        for e in vs
        if e.judge is not None and e.kind == "person"
    }
    readings |= {j: api.score(["a", "b"], measures=MEASURES, repo=repo, judge=j) for j in judges}
    for system in ("a", "b"):
        low = bounds[system]
        for m in MEASURES:
            raw = low.per_query[m]["raw"]
            high = low.per_query[m]["optimistic"]
            for how, reading in readings.items():
                score = reading[system]
                assert list(score.qids) == list(low.qids)
                values = score.per_query[m]["raw"]
                assert np.all(raw <= values + 1e-12), (how, m, raw, values)
                assert np.all(values <= high + 1e-12), (how, m, high, values)


# --------------------------------------------------------------- every resolution, every measure

ADJUDICATOR = "Cy Park <cy@example.org>"
# every family labelpool computes, at cut-offs inside and beyond the rankings, and trec_eval
# names (whose range is the full one wherever a question holds an open dispute)
EVERY = [
    "P@3",
    "P@5",
    "R@3",
    "R@5",
    "nDCG@3",
    "nDCG@5",
    "RR",
    "RR@3",
    "AP",
    "AP@3",
    "Success@3",
    "RBP(p=0.8)",
    "ERR@3",
    "ERR@5",
    "Judged@3",
    "map",
    "ndcg_cut.3",
]
# the families whose [raw, optimistic] holds every resolution on each run: their value reads
# the returned documents only and rises with every grade; R's optimistic side is a bound too
# (an open dispute nobody returned only adds to the denominator), its raw side is not
PER_RUN = {"P", "RR", "Success", "RBP", "ERR"}
# Judged@k counts judgments, not relevance: settling a dispute judges it, so it is outside
# the claim (its range is the delta of the labels as they are)
NOT_BOUNDED = {"Judged"}


def settled(label: Label, choice: dict[str, int]) -> Label:
    """``label`` with each open dispute of ``choice`` settled at its grade by an adjudicator,
    read as scoring reads it."""
    record = dict(label.verdicts)
    for doc, g in choice.items():
        record[doc] = (*record[doc], JudgeVerdict(ADJUDICATOR, g, adjudicator=True))
    return verdicts.resolve(replace(label, verdicts=record), "bounds")


def resolutions(label: Label) -> list[dict[str, int]]:
    """Every settling of ``label``'s open disputes: each takes any of its verdicts' grades."""
    docs = sorted(verdicts.disputed(label))
    options = [sorted(set(verdicts.grades(label, d))) for d in docs]
    return [dict(zip(docs, pick, strict=True)) for pick in itertools.product(*options)]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(
        st.tuples(
            st.lists(doc_verdicts, min_size=len(DOCS), max_size=len(DOCS)),
            st.permutations(DOCS),
            st.permutations(DOCS),
            st.integers(1, len(DOCS)),
            st.integers(1, len(DOCS)),
        ),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from([1, 2]),
)
def test_every_resolution_inside_the_range(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    questions: list[tuple[list[list[tuple[int, object]]], list[str], list[str], int, int]],
    level: int,
) -> None:
    """Under ``bounds``, for every measure but Judged@k: each settling of the open disputes
    (each disputed document at any of its verdicts' grades, in the rankings or not) gives a
    per-question delta inside ``compare``'s delta range, hence a mean delta inside the mean's
    range; for :data:`PER_RUN` each run's score lies inside [raw, optimistic] of ``score``."""
    root: Path = tmp_path_factory.mktemp("repo")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(root / ".cache"))
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "labels").mkdir()
    rankings: dict[str, dict[str, list[str]]] = {"a": {}, "b": {}}
    for i, (per_doc, order_a, order_b, n_a, n_b) in enumerate(questions):
        qid = f"q{i}"
        (root / "labels" / f"{qid}.yaml").write_text(label_text(qid, per_doc), encoding="utf-8")
        rankings["a"][qid] = list(order_a)[:n_a]
        rankings["b"][qid] = list(order_b)[:n_b]
    if not any(vs for per_doc, *_ in questions for vs in per_doc):
        return  # nothing judged: nothing to score
    repo = api.load(root)
    runs = [ranges.run_of(rankings[name], name) for name in ("a", "b")]
    labels = labelset.resolved(repo.labels, "bounds")
    chosen = measures.parse(EVERY)
    if not qrels_rows(labels):
        # every judged document an open dispute: trec_eval's arithmetic refuses qrels with no
        # row ("no question has both labels and a ranking"), a limit of its own
        chosen = [m for m in chosen if m.spec is None]
    result = compare_workflow.compare(
        repo.config,
        labels,
        runs,
        measures=chosen,
        relevance_level=level,
        draws=50,
        resamples=50,
        display_paths={"a": None, "b": None},
    )
    qids = [str(q) for q in result.comparisons[0].qids]
    span = {c.measure: c.delta_range.per_question for c in result.comparisons}
    # the arrays' range is the reference's (one question at a time, from the labels)
    for m in chosen:
        if m.range_key in METHODS:
            ref = delta_range(
                m.range_key, m.depth(10), labels, qids, rankings["a"], rankings["b"], level
            )
            flat = [x for pair in span[m.name] for x in pair]
            assert [x for pair in ref.per_question for x in pair] == pytest.approx(flat), m.name
    bounds = {r.name: score(r, labels, chosen, relevance_level=level) for r in runs}
    for at, qid in enumerate(qids):
        raw = repo.labels[qid]
        for choice in resolutions(raw):
            one = {qid: settled(raw, choice)}
            values = {r.name: score(r, one, chosen, relevance_level=level) for r in runs}
            for m in chosen:
                family = m.family
                a = float(values["a"].per_query[m.name]["raw"][0])
                b = float(values["b"].per_query[m.name]["raw"][0])
                if family in NOT_BOUNDED:
                    continue
                low, high = span[m.name][at]
                assert low - 1e-9 <= b - a <= high + 1e-9, (m.name, qid, choice, low, b - a, high)
                for name, value in (("a", a), ("b", b)):
                    per = bounds[name].per_query[m.name]
                    hi = float(per["optimistic"][at])
                    lo = float(per["raw"][at])
                    if family in PER_RUN or family == "R":
                        assert value <= hi + 1e-9, (m.name, name, qid, choice, value, hi)
                    if family in PER_RUN:
                        assert lo - 1e-9 <= value, (m.name, name, qid, choice, lo, value)
