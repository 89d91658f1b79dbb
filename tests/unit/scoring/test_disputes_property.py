"""Property (issue 24): under every disputes policy, and scored with any one person's own
verdicts, each score lies inside the bounds ``score`` gives under ``bounds`` (raw: every open
dispute a miss; optimistic: every one relevant), on generated label files in the record form
and generated runs. (A machine judge's own verdicts are another labelling, not a settling of
the people's disputes: where people agree a machine that disagrees is outvoted, and
``--judge MACHINE`` reads it anyway, so it is not bounded by the people's disputes.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import PYPROJECT

from labelpool import api

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
