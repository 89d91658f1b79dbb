"""bias: the reduced judgment arrays masked from the full set's (a set with columns, cold and
warm: no label rebuilt) give the audit of the reference (every label rebuilt by ``without``,
the set without columns), byte for byte; grades, classes and their grade rule included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import config, labelset
from labelpool.labelset import LabelSet
from labelpool.render.bias import render_json
from labelpool.scoring.measures import parse_one
from labelpool.workflows.evaluate.bias import audit
from provenance_scenario import label_text, write_run

DOCS = [f"d{i}" for i in range(10)]
RUNS = ("A", "B", "C")  # A and B pooled, C never


@st.composite
def scenarios(draw: Any) -> dict[str, Any]:
    qids = [f"q{i}" for i in range(draw(st.integers(1, 5)))]
    runs = {
        s: {q: draw(st.permutations(DOCS))[: draw(st.integers(1, 8))] for q in qids} for s in RUNS
    }
    labels = {}
    for qid in qids:
        judged = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=8))
        relevant = [d for d in judged if draw(st.booleans())]
        grades = {d: draw(st.integers(1, 3)) for d in relevant if draw(st.booleans())}
        classes: list[list[str]] = []
        rest = list(judged)
        for _ in range(draw(st.integers(0, 2))):
            size = draw(st.integers(2, 4))
            if len(rest) >= size:
                classes.append(rest[:size])
                rest = rest[size:]
        for cls in classes:  # a graded member outside relevant (the class carries it)
            if draw(st.booleans()):
                grades.setdefault(cls[-1], draw(st.integers(1, 3)))
        pool = [(s, draw(st.integers(1, 6))) for s in ("A", "B") if draw(st.booleans())]
        labels[qid] = label_text(
            qid,
            judged,
            relevant,
            pool=pool if qid != "q0" else [("A", 3), ("B", 3)],
            grades=grades,
            classes=classes,
        )
    return {"runs": runs, "labels": labels, "measure": draw(st.sampled_from(MEASURES))}


MEASURES = ("nDCG@10", "P@5", "AP", "nDCG@3")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sc=scenarios())
def test_masked_arrays_give_the_reference_audit(
    sc: dict[str, Any], repo: Path, cache: Path
) -> None:
    for old in (*(repo / "labels").glob("*.yaml"), *(repo / "runs").glob("*")):
        old.unlink()
    for qid, text in sc["labels"].items():
        (repo / "labels" / f"{qid}.yaml").write_text(text, encoding="utf-8")
    for system, rankings in sc["runs"].items():
        write_run(repo, system, rankings)
    cfg = config.load(repo)
    measure = parse_one(sc["measure"])
    for _ in range(2):  # cold (the columns projected from the labels), then warm
        through = labelset.load(cfg)
        assert through.columns is not None
        plain = LabelSet(labels=dict(through.labels), paths=through.paths)
        expected = render_json(audit(cfg, plain, measure))
        assert render_json(audit(cfg, through, measure)) == expected
