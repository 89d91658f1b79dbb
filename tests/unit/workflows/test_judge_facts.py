"""workflows.judge_facts: a document's text (corpus, else the batch comment, else "not in the
corpus") and its version facts, on the shipped example and on a pattern-only repository."""

from __future__ import annotations

import json
from pathlib import Path

from labelpool import config
from labelpool.batch import NOT_IN_CORPUS
from labelpool.workflows.judge.facts import BATCH, CORPUS, NONE, NOT_IN_CORPUS_TEXT, Facts

ROOT = Path(__file__).resolve().parents[3]


def test_the_example_corpus_and_versions() -> None:
    facts = Facts(config.load(ROOT))
    text = facts.text("policy-returns-v3#sec-2", "ignored")
    assert text.source == CORPUS and text.title and "damaged" in text.text.lower()
    assert facts.text("nowhere#1", "from the batch") == facts.text("nowhere#1", "from the batch")
    assert facts.text("nowhere#1", "from the batch").source == BATCH
    assert facts.text("nowhere#1", NOT_IN_CORPUS).source == NONE
    none = facts.text("nowhere#1", None)
    assert (none.source, none.text) == (NONE, NOT_IN_CORPUS_TEXT)
    v3 = facts.versions_of("policy-returns-v3#sec-2")
    assert v3.supersedes == ("policy-returns-v2",) and v3.superseded_by == ()
    v2 = facts.versions_of("policy-returns-v2#sec-1")
    assert v2.supersedes == () and v2.superseded_by == ("policy-returns-v3",)
    privacy = facts.versions_of("policy-privacy-2025#sec-1")
    assert privacy.superseded_by == ("policy-privacy-2026",)
    assert facts.versions_of("faq-shipping#damaged") == facts.versions_of("guide-app#scan")


def test_chains_by_the_version_pattern(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.labelpool]\nformat = 1\ncorpus = "corpus.jsonl"\n', encoding="utf-8"
    )
    with open(tmp_path / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for doc in ("pep-v1#a", "pep-v2#a", "pep-v3#a", "other-v1#a"):
            fh.write(json.dumps({"_id": doc, "text": doc}) + "\n")
    facts = Facts(config.load(tmp_path), ["pep-v4#x"])
    assert facts.versions_of("pep-v2#a").supersedes == ("pep-v1",)
    assert facts.versions_of("pep-v2#a").superseded_by == ("pep-v3", "pep-v4")
    assert facts.versions_of("pep-v4#x").supersedes == ("pep-v1", "pep-v2", "pep-v3")
    assert facts.versions_of("other-v1#a").superseded_by == ()
