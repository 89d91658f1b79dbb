"""Invariants of the example label repository shipped in this checkout.

Plain Python (PyYAML, json) over ``corpus/``, ``runs/`` and ``labels/``: the files others' tests
and the README's main job run on must say what ``corpus/README.md`` and ``runs/README.md`` claim.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import re
from collections import defaultdict
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
RUNS = ROOT / "runs"
LABELS = ROOT / "labels"
SYSTEMS = ("bm25", "dense", "hybrid")
POOL = {"system": "bm25", "k": 20, "date": "2026-06-02"}
VERSION_PATTERN = re.compile(r"^(?P<family>.+)-v(?P<version>[0-9]+)$")  # config.py's default


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def corpus() -> dict[str, dict[str, str]]:
    rows = [json.loads(line) for line in (CORPUS / "corpus.jsonl").read_text("utf-8").splitlines()]
    out = {r["_id"]: r for r in rows}
    assert len(out) == len(rows), "duplicate _id in corpus.jsonl"
    return out


@cache
def questions() -> dict[str, str]:
    lines = (CORPUS / "questions.jsonl").read_text("utf-8").splitlines()
    return {q["_id"]: q["text"] for q in map(json.loads, lines)}


@cache
def truth() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for line in (CORPUS / "ground-truth.qrels").read_text("utf-8").splitlines():
        qid, zero, doc, grade = line.split(" ")
        assert zero == "0"
        assert doc not in out[qid], f"duplicate qrels row {qid} {doc}"
        out[qid][doc] = int(grade)
    return dict(out)


@cache
def labels() -> dict[str, dict[str, Any]]:
    return {p.stem: yaml.safe_load(p.read_text("utf-8")) for p in sorted(LABELS.glob("*.yaml"))}


@cache
def run(system: str) -> dict[str, list[tuple[str, float]]]:
    out: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for line in (RUNS / f"{system}.trec").read_text("utf-8").splitlines():
        qid, q0, doc, rank, score, tag = line.split(" ")
        assert q0 == "Q0" and tag == system and int(rank) == len(out[qid]) + 1
        out[qid].append((doc, float(score)))
    return dict(out)


def judged_questions() -> dict[str, dict[str, Any]]:
    return {q: lab for q, lab in labels().items() if lab["judged_ids"]}


def document(doc_id: str) -> str:
    return doc_id.split("#", 1)[0]


def supersedes() -> dict[str, list[str]]:
    data = yaml.safe_load((CORPUS / "versions.yaml").read_text("utf-8"))
    assert set(data) == {"supersedes"}
    links: dict[str, list[str]] = data["supersedes"]
    return links


def superseded_documents() -> set[str]:
    """Documents some other document supersedes: explicit links plus the -vN pattern."""
    docs = {document(d) for d in corpus()}
    out = {old for olds in supersedes().values() for old in olds}
    families: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for d in docs:
        m = VERSION_PATTERN.match(d)
        if m:
            families[m["family"]].append((int(m["version"]), d))
    for versions in families.values():
        out |= {d for _, d in sorted(versions)[:-1]}
    return out


# ----------------------------------------------------------------------------------- corpus
def test_corpus_is_a_help_centre_of_the_promised_size_and_shape() -> None:
    docs = corpus()
    assert 150 <= len(docs) <= 300
    for doc_id, row in docs.items():
        assert set(row) == {"_id", "title", "text"}
        assert re.fullmatch(r"[a-z0-9-]+#[a-z0-9-]+", doc_id), doc_id
        assert row["title"].strip() and 20 <= len(row["text"].split()) <= 120, doc_id
    for needed in ("policy-returns-v3#sec-2", "policy-returns-v2#sec-2", "faq-shipping#damaged"):
        assert needed in docs


def test_the_damaged_passage_is_copied_word_for_word() -> None:
    docs = corpus()
    original = docs["policy-returns-v3#sec-2"]["text"]
    for copy in ("faq-shipping#damaged", "handbook#returns-damaged", "export-pdf-2026#p7"):
        assert docs[copy]["text"] == original
    # last year's version looks alike but differs in its facts
    old = docs["policy-returns-v2#sec-2"]["text"]
    assert old != original and "14 days" in old and "30 days" in original


def test_three_tenants_share_one_template() -> None:
    sections = defaultdict(set)
    for doc_id in corpus():
        doc, sec = doc_id.split("#")
        if doc.startswith("tenant-"):
            sections[doc].add(sec)
    assert set(sections) == {"tenant-acme", "tenant-globex", "tenant-initech"}
    assert len({frozenset(s) for s in sections.values()}) == 1
    assert "returns" in sections["tenant-acme"]


def test_versions_yaml_links_resolve_to_corpus_documents() -> None:
    docs = {document(d) for d in corpus()}
    links = supersedes()
    assert len(links) >= 3
    for new, olds in links.items():
        assert new in docs, new
        assert isinstance(olds, list) and olds
        for old in olds:
            assert old in docs and old != new, (new, old)
    assert links["policy-returns-v3"] == ["policy-returns-v2"]
    text = (CORPUS / "versions.yaml").read_text("utf-8")
    assert "{" not in text and "[" not in text  # block style


def test_committed_corpus_is_what_make_corpus_writes(tmp_path: Path) -> None:
    # Byte for byte: corpus/make_corpus.py writes exactly the committed files from corpus/source/.
    maker = _module(CORPUS / "make_corpus.py")
    maker.write(tmp_path)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["corpus.jsonl", "ground-truth.qrels", "questions.jsonl"]
    for name in written:
        assert (tmp_path / name).read_bytes() == (CORPUS / name).read_bytes(), name


# ------------------------------------------------------------------------------ ground truth
def test_ground_truth_covers_every_question_with_corpus_documents() -> None:
    docs = corpus()
    assert set(truth()) == set(questions()) == set(labels())
    for qid, grades in truth().items():
        assert grades, qid
        for doc, grade in grades.items():
            assert doc in docs, (qid, doc)
            assert grade in (1, 2), (qid, doc, grade)


def test_ground_truth_never_calls_a_superseded_version_relevant() -> None:
    old = superseded_documents()
    assert {"policy-returns-v2", "policy-warranty-v1", "policy-privacy-2025"} <= old
    for qid, grades in truth().items():
        assert not [d for d in grades if document(d) in old], qid


def test_copies_of_a_passage_share_their_ground_truth_grade() -> None:
    by_text = defaultdict(set)
    for doc_id, row in corpus().items():
        by_text[row["text"]].add(doc_id)
    groups = [g for g in by_text.values() if len(g) > 1]
    assert groups
    for qid, grades in truth().items():
        for group in groups:
            assert len({grades.get(d, 0) for d in group}) == 1, (qid, sorted(group))


# -------------------------------------------------------------------------------------- runs
@pytest.mark.parametrize("system", SYSTEMS)
def test_runs_have_100_finite_untied_scores_per_question(system: str) -> None:
    docs = corpus()
    rows = run(system)
    assert set(rows) == set(questions())
    for qid, ranked in rows.items():
        assert len(ranked) == 100, qid
        assert len({d for d, _ in ranked}) == 100, f"{qid}: duplicate document"
        scores = [s for _, s in ranked]
        assert all(math.isfinite(s) for s in scores)
        assert all(a > b for a, b in itertools.pairwise(scores)), f"{qid}: tie or wrong order"
        assert all(d in docs for d, _ in ranked)


def test_runs_differ() -> None:
    tops = {s: {q: [d for d, _ in r[:10]] for q, r in run(s).items()} for s in SYSTEMS}
    assert tops["bm25"] != tops["dense"] != tops["hybrid"] != tops["bm25"]


# ------------------------------------------------------------------------------------ labels
def test_every_label_id_equals_its_file_stem_and_question() -> None:
    assert 30 <= len(labels()) <= 60
    for stem, lab in labels().items():
        assert lab["id"] == stem
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}", stem)
        assert lab["question"] == questions()[stem]


def test_label_lists_sorted_unique_and_relevant_within_judged() -> None:
    docs = corpus()
    for qid, lab in labels().items():
        for key in ("relevant_doc_ids", "judged_ids"):
            items = lab[key]
            assert items == sorted(set(items)), (qid, key)
        assert set(lab["relevant_doc_ids"]) <= set(lab["judged_ids"]), qid
        assert all(d in docs for d in lab["judged_ids"]), qid
        classes = lab.get("relevant_classes") or []
        assert classes == sorted(classes), qid
        for cls in classes:
            assert cls == sorted(set(cls)) and len(cls) >= 2
            assert set(cls) <= set(lab["relevant_doc_ids"]), qid
        for doc, grade in (lab.get("grades") or {}).items():
            assert doc in lab["relevant_doc_ids"] and grade >= 2, (qid, doc)


def test_labels_are_the_bm25_pooled_subset_of_the_ground_truth() -> None:
    bm25 = run("bm25")
    for qid, lab in judged_questions().items():
        assert lab["pool"] == [POOL], qid
        top20 = {d for d, _ in bm25[qid][:20]}
        assert set(lab["judged_ids"]) == top20, f"{qid}: BM25's top 20 is not fully judged"
        gt = truth()[qid]
        assert lab["relevant_doc_ids"] == sorted(d for d in top20 if gt.get(d, 0) > 0)
        assert (lab.get("grades") or {}) == {d: 2 for d in top20 if gt.get(d, 0) == 2}


def test_not_yet_judged_questions_have_no_pool() -> None:
    pending = {q: lab for q, lab in labels().items() if not lab["judged_ids"]}
    assert set(pending) == {"app-night-theme", "sunday-opening"}
    for lab in pending.values():
        assert lab["relevant_doc_ids"] == [] and "pool" not in lab


def test_the_class_example_exists_as_specified() -> None:
    lab = labels()["returns-damaged"]
    assert lab["question"] == "My parcel arrived damaged. Can I send it back?"
    classes = [set(c) for c in lab["relevant_classes"]]
    assert any({"policy-returns-v3#sec-2", "faq-shipping#damaged"} <= c for c in classes)
    assert "policy-returns-v2#sec-2" in lab["judged_ids"]
    assert "policy-returns-v2#sec-2" not in lab["relevant_doc_ids"]
    assert all("policy-returns-v2#sec-2" not in c for c in classes)
    assert lab["grades"]["policy-returns-v3#sec-2"] == 2


def test_classes_hold_copies_and_never_mix_versions() -> None:
    docs = corpus()
    old = superseded_documents()
    for qid, lab in labels().items():
        for cls in lab.get("relevant_classes") or []:
            assert len({docs[d]["text"] for d in cls}) == 1, (qid, cls)
            assert not [d for d in cls if document(d) in old], (qid, cls)


def test_dates_and_ambiguous_scalars_are_quoted_in_the_files() -> None:
    for path in sorted(LABELS.glob("*.yaml")):
        text = path.read_text("utf-8")
        lab = yaml.safe_load(text)  # YAML 1.1: an unquoted date would load as datetime.date
        for entry in lab.get("pool") or []:
            assert isinstance(entry["date"], str), path.name
        assert "date: 2026" not in text, path.name
        for line in text.splitlines():
            assert not line.startswith("\t") and line == line.rstrip(), path.name


def test_committed_labels_are_what_make_runs_writes_from_bm25_and_the_truth() -> None:
    maker = _module(RUNS / "make_runs.py")
    text_of = {d: row["text"] for d, row in corpus().items()}
    bm25 = run("bm25")
    for qid, question in questions().items():
        top = [d for d, _ in bm25[qid][: maker.POOL_DEPTH]]
        expected = maker.label_text(
            qid, question, top, truth()[qid], text_of, qid not in maker.NOT_JUDGED
        )
        assert (LABELS / f"{qid}.yaml").read_text("utf-8") == expected, qid


def test_the_seed_scenario_holds_on_recall_at_10() -> None:
    """Dense beats BM25 on the full truth, looks worse on the BM25-pooled labels."""

    def recall(system: str, relevant_of: dict[str, set[str]]) -> float:
        values = []
        for qid in judged_questions():
            rel = relevant_of[qid]
            top = {d for d, _ in run(system)[qid][:10]}
            values.append(len(rel & top) / len(rel) if rel else 0.0)
        return sum(values) / len(values)

    full = {q: {d for d, g in truth()[q].items() if g > 0} for q in judged_questions()}
    pooled = {q: set(lab["relevant_doc_ids"]) for q, lab in judged_questions().items()}
    assert recall("dense", full) > recall("bm25", full)
    assert recall("dense", pooled) < recall("bm25", pooled)

    def unjudged(system: str) -> float:
        rates = [
            sum(d not in set(lab["judged_ids"]) for d, _ in run(system)[q][:10]) / 10
            for q, lab in judged_questions().items()
        ]
        return sum(rates) / len(rates)

    assert unjudged("bm25") == 0.0
    assert unjudged("dense") > 0.15
