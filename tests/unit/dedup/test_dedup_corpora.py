"""The finder on real text: the example corpus (the classes it was built with) and the PEP
supersession chains (versions that look alike and must never be proposed together)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
from collections import defaultdict
from pathlib import Path

from labelpool import corpus
from labelpool.config import DEFAULT_VERSION_PATTERN
from labelpool.dedup.group import grouped
from labelpool.dedup.pairs import across, within

ROOT = Path(__file__).resolve().parents[3]
THREE_COPIES = {
    "policy-returns-v3#sec-2",
    "faq-shipping#damaged",
    "handbook#returns-damaged",
    "export-pdf-2026#p7",
}


def example_texts() -> dict[str, str]:
    rows = (json.loads(line) for line in (ROOT / "corpus" / "corpus.jsonl").open(encoding="utf-8"))
    return {r["_id"]: r["text"] for r in rows}


def example_linked() -> corpus.Versions:
    return corpus.read_versions(ROOT / "corpus" / "versions.yaml", DEFAULT_VERSION_PATTERN, ROOT)


def built_classes() -> set[frozenset[str]]:
    """The classes the example was built with: chunks that ``corpus/make_corpus.py`` gives the
    same source text (a ``copy:`` page, a PDF page that repeats a section, the product pages'
    shared delivery tab), less those that mix versions of one document."""
    spec = importlib.util.spec_from_file_location("make_corpus", ROOT / "corpus" / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    by_text: dict[str, set[str]] = defaultdict(set)
    for doc, _, text in module.chunks():
        by_text[text].add(doc)
    return {frozenset(docs) for docs in by_text.values() if len(docs) > 1}


def test_the_example_finds_its_built_classes_and_nothing_else() -> None:
    versions = example_linked()

    def linked(a: str, b: str) -> bool:
        return versions.supersedes(a, b) or versions.supersedes(b, a)

    found = within(example_texts(), threshold=0.8, containment=0.9, linked=linked)
    pairs = {frozenset({p.a, p.b}) for p in found.pairs}
    # the passage copied three times is found: all six pairs of its four copies
    assert {frozenset(p) for p in itertools.combinations(THREE_COPIES, 2)} <= pairs
    # no tenant page is proposed with another (one template, their own names and numbers)
    assert not [p for p in pairs if all(d.startswith("tenant-") for d in p)]
    # no superseded policy with its successor: set aside and counted
    assert not [p for p in pairs if any(linked(a, b) for a, b in itertools.permutations(p, 2))]
    assert found.version_pairs >= 2  # returns v2/v3 section 1 and privacy 2025/2026 section 7
    # the proposed classes are exactly the built ones that do not mix versions
    grouping = grouped(found.pairs, linked)
    proposed = {frozenset(p.members) for p in grouping.proposals}
    built = {c for c in built_classes() if not any(linked(a, b) for a in c for b in c)}
    assert frozenset(THREE_COPIES) in proposed
    assert proposed == built


def test_across_agrees_with_within_on_the_example() -> None:
    texts = example_texts()
    unlinked = lambda a, b: False  # noqa: E731
    exact = within(texts, linked=unlinked)
    lsh = across(texts.items(), set(texts), linked=unlinked)
    assert lsh.pairs == exact.pairs


def pep_links(peps_dir: Path) -> dict[str, set[str]]:
    """``newer -> {older}`` from the PEPs' ``Superseded-By:`` / ``Replaces:`` headers."""
    links: dict[str, set[str]] = defaultdict(set)
    for line in (peps_dir / "supersession_headers.txt").read_text(encoding="utf-8").splitlines():
        fields = [f.strip() for f in line.split(";") if f.strip()]
        if not fields:
            continue
        this = fields[0]
        for field in fields[1:]:
            name, _, value = field.partition(":")
            others = {f"pep-{int(n):04d}" for n in re.findall(r"\d+", value)}
            if name.strip() == "Superseded-By":
                for other in others:
                    links[other].add(this)
            elif name.strip() == "Replaces":
                links[this] |= others
    return links


def test_pep_333_and_3333_are_never_proposed(peps_dir: Path) -> None:
    versions = corpus.versions_from_mapping({k: sorted(v) for k, v in pep_links(peps_dir).items()})

    def linked(a: str, b: str) -> bool:
        return versions.supersedes(a, b) or versions.supersedes(b, a)

    texts = {
        p.stem: p.read_text(encoding="utf-8") for p in sorted((peps_dir / "peps").glob("*.rst"))
    }
    assert {"pep-0333", "pep-3333"} <= texts.keys()
    unlinked = within(texts, linked=lambda a, b: False)
    assert ("pep-0333", "pep-3333") in {(p.a, p.b) for p in unlinked.pairs}  # they look alike
    for found in (
        within(texts, containment=0.9, linked=linked),
        across(texts.items(), set(texts), containment=0.9, linked=linked),
    ):
        assert ("pep-0333", "pep-3333") not in {(p.a, p.b) for p in found.pairs}
        assert found.version_pairs >= 1
        for p in found.pairs:
            assert not linked(p.a, p.b)
        # a class holding one version never takes in the other
        for proposal in grouped(found.pairs, linked).proposals:
            assert not {"pep-0333", "pep-3333"} <= set(proposal.members)
