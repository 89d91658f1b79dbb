"""What scoring reads of each label, served from the label index's columns (issue 27).

A warm read builds no label; the judgment arrays built from the index's columns hold the
same judgments as those built from the labels themselves (every id list, grades, classes,
pooled-unjudged and pending documents); a set whose labels hold a record of judges is read
through its labels.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import config, labelset
from labelpool.scoring import qrels

DOCS = [f"d{i}" for i in range(8)]


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True)


def text(qid: str, spec: dict[str, Any]) -> str:
    out = [f"id: {qid}", f"question: Where is {qid}?"]
    for key in ("relevant_doc_ids", "judged_ids", "pooled_unjudged_ids"):
        if spec.get(key) or key != "pooled_unjudged_ids":
            out += [f"{key}: [{', '.join(spec.get(key, ()))}]"]
    if spec.get("grades"):
        out += ["grades:", *(f"  {d}: {g}" for d, g in spec["grades"].items())]
    if spec.get("classes"):
        out += ["relevant_classes:", *(f"  - [{', '.join(c)}]" for c in spec["classes"])]
    if spec.get("pending"):
        out += [
            "pending:",
            "  - batch: 2026-01-01-bm25@5",
            "    systems: [bm25]",
            "    depth: 5",
            "    date: '2026-01-01'",
            "    docs:",
            *(f"      - {{doc: {d}, verdict: null}}" for d in spec["pending"]),
        ]
    return "\n".join(out) + "\n"


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    """A label validate accepts: relevant and graded documents judged, classes of judged
    documents apart from pooled-unjudged and pending ones."""
    docs = draw(st.permutations(DOCS))
    judged = docs[: draw(st.integers(0, 5))]
    relevant = [d for d in judged if draw(st.booleans())]
    grades = {d: draw(st.integers(1, 3)) for d in relevant if draw(st.booleans())}
    classes = [judged[:2]] if len(judged) >= 2 and draw(st.booleans()) else []
    rest = docs[5:]
    pooled = [d for d in rest if draw(st.booleans())]
    pending = [d for d in rest if d not in pooled and draw(st.booleans())]
    return {
        "relevant_doc_ids": relevant,
        "judged_ids": judged,
        "grades": grades,
        "classes": classes,
        "pooled_unjudged_ids": pooled,
        "pending": pending,
    }


def judgments(q: qrels.Qrels) -> dict[str, Any]:
    """The arrays as (question, document) facts, whatever the dictionary's order."""
    vocab = q.vocab.to_pylist()
    width = max(len(vocab), 1)
    facts = {}
    for key, grade, target, lift in zip(q.keys, q.grade, q.target, q.lift, strict=True):
        qi, code = divmod(int(key), width)
        facts[(str(q.qids[qi]), vocab[code])] = (int(grade), int(target) >= 0, int(lift))
    same_target = {
        (str(q.qids[int(k) // width]), vocab[int(k) % width]): int(t)
        for k, t in zip(q.keys, q.target, strict=True)
        if t >= 0
    }
    groups: dict[int, set[tuple[str, str]]] = {}
    for fact, t in same_target.items():
        groups.setdefault(t, set()).add(fact)
    ideal = sorted((str(q.qids[i]), int(g)) for i, g in zip(q.ideal_q, q.ideal_g, strict=True))
    return {
        "qids": [str(x) for x in q.qids],
        "facts": facts,
        "targets": sorted(sorted(g) for g in groups.values()),
        "ideal": ideal,
        "pending": q.pending_docs,
        "not_judged": q.not_judged,
        "label_ids": q.label_ids,
    }


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(labels=st.lists(specs(), min_size=1, max_size=6))
def test_columns_give_the_labels_judgments(
    labels: list[dict[str, Any]], repo: Path, cache: Path
) -> None:
    for old in (repo / "labels").glob("*.yaml"):
        old.unlink()
    for i, spec in enumerate(labels):
        (repo / "labels" / f"q{i}.yaml").write_text(text(f"q{i}", spec))
    cfg = config.load(repo)
    for _ in range(2):  # cold (the columns projected), then warm (served by the index)
        through = labelset.load(cfg)
        assert through.columns is not None
        plain = dict(through.labels)  # the labels built from their data, no columns
        assert judgments(qrels.build(through, qrels.scored_qids(through))) == judgments(
            qrels.build(plain, qrels.scored_qids(plain))
        )
        fresh = labelset.load(cfg, use_cache=False)
        assert fresh.columns is None and dict(fresh.labels) == plain


def test_a_warm_read_builds_no_label(repo: Path, cache: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    for i in range(5):
        spec = {"judged_ids": [f"d{i}"], "relevant_doc_ids": [f"d{i}"]}
        (repo / "labels" / f"q{i}.yaml").write_text(text(f"q{i}", spec))
    git(repo, "add", "-A")
    cfg = config.load(repo)
    labelset.load(cfg)
    warm = labelset.load(cfg)
    assert "0 built" in repr(warm.labels)
    assert labelset.scored(cfg, warm) is warm  # no record of judges: nothing resolved
    assert list(qrels.scored_qids(warm)) == [f"q{i}" for i in range(5)]
    assert "0 built" in repr(warm.labels)
    assert warm["q3"].judged_ids == ("d3",)  # built when used
    assert "1 built" in repr(warm.labels)
    assert np.array_equal(qrels.qrels_for(warm).ideal_g, np.ones(5, dtype=np.int64))


def test_a_record_of_judges_is_read_through_the_labels(repo: Path, cache: Path) -> None:
    (repo / "labels" / "q0.yaml").write_text(
        text("q0", {"judged_ids": ["d1"], "relevant_doc_ids": ["d1"]})
        + "judge: bot\njudge_kind: machine\n"
    )
    cfg = config.load(repo)
    labelset.load(cfg)
    warm = labelset.load(cfg)
    assert warm.columns is not None and warm.columns.resolves
    assert labelset.scored(cfg, warm).columns is None
