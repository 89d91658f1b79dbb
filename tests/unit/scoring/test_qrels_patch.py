"""The judgment arrays patched from those of another label set (issue 27) hold what a fresh
build holds: over random edits (questions changed, added, deleted, unjudged; new documents;
classes; pooled-unjudged and pending documents), the same (question, document) grades, targets
up to their ids, lifts, ideal gains and counts, also through the arrays' file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import columns
from labelpool.labelset import LabelSet
from labelpool.model import Label, label_from_data
from labelpool.scoring import patch, qrels, stored

DOCS = [f"d{i}" for i in range(12)]
BATCH = {"batch": "b", "systems": ["s"], "depth": 3, "date": "2026-01-01"}


@st.composite
def label_data(draw: st.DrawFn, qid: str) -> dict[str, Any]:
    docs = draw(st.permutations(DOCS))
    judged = sorted(docs[: draw(st.integers(0, 6))])
    relevant = [d for d in judged if draw(st.booleans())]
    data: dict[str, Any] = {
        "id": qid,
        "question": "?",
        "judged_ids": judged,
        "relevant_doc_ids": relevant,
        "grades": {d: draw(st.integers(1, 3)) for d in relevant if draw(st.booleans())},
    }
    rest = docs[6:]
    classes: list[Any] = []
    if len(relevant) >= 2 and draw(st.booleans()):
        classes.append(relevant[:2] + rest[:1])
    irrelevant = [d for d in judged if d not in relevant]
    irrelevant_class: bool = draw(st.booleans())
    if irrelevant and irrelevant_class:
        classes.append({"members": [irrelevant[0], rest[1]]})
    if classes:
        data["relevant_classes"] = classes
    if draw(st.booleans()):
        data["pooled_unjudged_ids"] = [rest[2]]
    if draw(st.booleans()):
        data["pending"] = [{**BATCH, "docs": [{"doc": rest[3]}, {"doc": rest[4]}]}]
    return data


@st.composite
def edits(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two label sets (question id -> data), the second an edit of the first."""
    names = [f"q{i}" for i in draw(st.sets(st.integers(0, 30), min_size=1, max_size=8))]
    before = {q: draw(label_data(q)) for q in names}
    after = dict(before)
    for q in names:
        what = draw(st.sampled_from(["keep", "keep", "change", "delete", "unjudged"]))
        if what == "change":
            after[q] = draw(label_data(q))
        elif what == "delete":
            del after[q]
        elif what == "unjudged":
            after[q] = {"id": q, "question": "?"}
    for i in draw(st.sets(st.integers(31, 40), max_size=3)):
        after[f"q{i}"] = draw(label_data(f"q{i}"))
        after[f"q{i}"]["judged_ids"] = sorted({*after[f"q{i}"]["judged_ids"], f"new{i}"})
    return before, after


def label_set(data: dict[str, Any]) -> LabelSet:
    labels: dict[str, Label] = {q: label_from_data(d) for q, d in data.items()}
    blobs = [hashlib.sha1(json.dumps(data[q], sort_keys=True).encode()).hexdigest() for q in data]
    table = columns.of_labels(labels.values())
    digest = hashlib.sha256("".join(blobs).encode()).hexdigest()
    return LabelSet(
        labels, {}, digest, columns=columns.Columns(table, pa.array(blobs, pa.string()))
    )


def facts(q: qrels.Qrels) -> dict[str, Any]:
    """The arrays as (question, document) facts, whatever the codes and target ids."""
    vocab = q.vocab.to_pylist()
    width = max(len(vocab), 1)
    assert q.keys.tolist() == sorted(set(q.keys.tolist()))
    rows = {}
    groups: dict[int, set[tuple[str, str]]] = {}
    for key, grade, target, lift in zip(q.keys, q.grade, q.target, q.lift, strict=True):
        qi, code = divmod(int(key), width)
        fact = (str(q.qids[qi]), vocab[code])
        rows[fact] = (int(grade), int(lift))
        if target >= 0:
            groups.setdefault(int(target), set()).add(fact)
    ideal = sorted((str(q.qids[i]), int(g)) for i, g in zip(q.ideal_q, q.ideal_g, strict=True))
    return {
        "qids": [str(x) for x in q.qids],
        "rows": rows,
        "targets": sorted(sorted(g) for g in groups.values()),
        "ideal": ideal,
        "counts": (q.pending_docs, q.not_judged, sorted(q.label_ids)),
        "open": (q.open_q.tolist(), q.open_g.tolist()),
    }


@pytest.fixture
def always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patch, "SHARE", 10.0)  # whatever changed
    monkeypatch.setattr(patch, "STALE", 1.0)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pair=edits())
def test_patched_arrays_hold_what_a_fresh_build_holds(
    pair: tuple[dict[str, Any], dict[str, Any]], always: None
) -> None:
    before, after = (label_set(d) for d in pair)
    old = qrels.build(before, qrels.scored_qids(before))
    assert before.columns is not None and after.columns is not None
    assert before.columns.blobs is not None and after.columns.blobs is not None
    old_blobs = before.columns.blobs.take(pa.array(before.columns.scored_rows))
    patched = patch.patched(old, old_blobs, after.columns)
    assert patched is not None
    fresh = qrels.build(after, qrels.scored_qids(after))
    assert facts(patched) == facts(fresh)
    # patched again from the patched arrays (a chain of edits), and back
    again = patch.patched(
        patched, after.columns.blobs.take(pa.array(after.columns.scored_rows)), before.columns
    )
    assert again is not None and facts(again) == facts(old)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pair=edits())
def test_prepare_patches_through_the_file(
    pair: tuple[dict[str, Any], dict[str, Any]],
    tmp_path_factory: pytest.TempPathFactory,
    always: None,
) -> None:
    file = tmp_path_factory.mktemp("arrays") / "arrays.bin"
    before, after = (label_set(d) for d in pair)
    stored.prepare(before, file)
    loaded = stored.load(file)
    assert loaded is not None and loaded.digest == before.digest
    assert facts(loaded.qrels) == facts(qrels.build(before, qrels.scored_qids(before)))
    stored.prepare(after, file)  # patched from the file's arrays, then written
    fresh = qrels.build(after, qrels.scored_qids(after))
    assert facts(qrels.qrels_for(after)) == facts(fresh)
    again = stored.load(file)
    assert again is not None and again.digest == after.digest
    assert facts(again.qrels) == facts(fresh)


def test_too_many_changes_build_afresh(tmp_path: Path) -> None:
    data = {
        f"q{i}": {"id": f"q{i}", "question": "?", "judged_ids": ["a"], "relevant_doc_ids": ["a"]}
        for i in range(40)
    }
    before = label_set(data)
    old = qrels.build(before, qrels.scored_qids(before))
    assert before.columns is not None and before.columns.blobs is not None
    one = dict(data, q3={**data["q3"], "judged_ids": ["a", "b"]})
    after = label_set(one)
    assert after.columns is not None
    assert (
        patch.patched(
            old, before.columns.blobs.take(pa.array(before.columns.scored_rows)), after.columns
        )
        is not None
    )
    many = label_set({q: {**d, "judged_ids": ["a", "c"]} for q, d in data.items()})
    assert many.columns is not None
    assert (
        patch.patched(
            old, before.columns.blobs.take(pa.array(before.columns.scored_rows)), many.columns
        )
        is None
    )


@pytest.mark.parametrize("damage", ["flipped", "torn", "empty", "version"])
def test_a_damaged_arrays_file_is_rebuilt(
    tmp_path: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {
        f"q{i}": {
            "id": f"q{i}",
            "question": "?",
            "judged_ids": ["a", f"d{i}"],
            "relevant_doc_ids": ["a"],
        }
        for i in range(5)
    }
    labels = label_set(data)
    file = tmp_path / "arrays.bin"
    stored.prepare(labels, file)
    assert stored.load(file) is not None
    raw = bytearray(file.read_bytes())
    if damage == "flipped":
        raw[len(raw) - 9] ^= 0x5A
    elif damage == "torn":
        raw = raw[: len(raw) // 2]
    elif damage == "empty":
        raw = bytearray()
    file.write_bytes(bytes(raw))
    if damage == "version":
        monkeypatch.setattr(stored, "__version__", "0.0.0-other")
    assert stored.load(file) is None
    again = label_set(data)  # another object: not held in memory
    stored.prepare(again, file)
    assert facts(qrels.qrels_for(again)) == facts(qrels.build(again, qrels.scored_qids(again)))
