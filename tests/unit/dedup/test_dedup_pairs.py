"""Pairs of near-duplicates: ``within`` finds exactly what comparing every pair finds;
``across`` finds them with MinHash LSH; versions are counted, never paired; hostile input."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.dedup.measure import containment, jaccard
from labelpool.dedup.pairs import CONTAINMENT, JACCARD, Pair, across, within
from labelpool.dedup.text import hashed
from labelpool.errors import LabelpoolError, UsageError


def unlinked(a: str, b: str) -> bool:
    return False


VOCAB = ["a", "b", "c", "d", "e", "f", "g", "h"]
# few words, so that texts share shingles often: the interesting case for prefix filtering
doc_texts = st.lists(st.sampled_from(VOCAB), max_size=14).map(" ".join)
corpora = st.dictionaries(st.sampled_from([f"d{i}#{i % 3}" for i in range(9)]), doc_texts)
thresholds = st.sampled_from([0.3, 0.5, 0.8, 1.0])


def brute(
    texts: dict[str, str], threshold: float, contain: float | None
) -> dict[tuple[str, str], tuple[str, float]]:
    sets = {d: hashed(t) for d, t in texts.items() if hashed(t)}
    out = {}
    for a, b in itertools.combinations(sorted(sets), 2):
        j = jaccard(sets[a], sets[b])
        c = containment(sets[a], sets[b])
        if j >= threshold:
            out[(a, b)] = (JACCARD, j)
        elif contain is not None and c >= contain:
            out[(a, b)] = (CONTAINMENT, c)
    return out


@settings(max_examples=300, deadline=None)
@given(corpora, thresholds, st.one_of(st.none(), thresholds))
def test_within_finds_what_brute_force_finds(
    texts: dict[str, str], threshold: float, contain: float | None
) -> None:
    found = within(texts, threshold=threshold, containment=contain, linked=unlinked)
    got = {(p.a, p.b): (p.method, p.score) for p in found.pairs}
    want = brute(texts, threshold, contain)
    assert got.keys() == want.keys()
    for key, (method, score) in want.items():
        assert got[key][0] == method
        assert got[key][1] == pytest.approx(score)
    assert all(p.a < p.b for p in found.pairs)


def test_containment_is_found_from_the_smaller_side_whatever_the_order() -> None:
    """0.2.0-dev: a text inside a longer one listed before it was missed (each text probed only
    the texts after it, and only the smaller side's prefix is sure to meet the other)."""
    for texts in (
        {"d0#0": "a a a a a b", "d1#1": "a a a a a"},
        {"d1#1": "a a a a a b", "d0#0": "a a a a a"},
    ):
        found = within(texts, threshold=0.8, containment=0.8, linked=unlinked)
        assert [(p.a, p.b, p.method) for p in found.pairs] == [("d0#0", "d1#1", CONTAINMENT)]
        assert found.candidates == 1


def test_versions_are_counted_never_paired() -> None:
    text = "the returns policy of this year says thirty days for damaged items"
    texts = {"policy-v1#1": text, "policy-v2#1": text, "faq#1": text}
    versions = {frozenset({"policy-v1#1", "policy-v2#1"})}
    found = within(texts, linked=lambda a, b: frozenset({a, b}) in versions)
    assert [(p.a, p.b) for p in found.pairs] == [
        ("faq#1", "policy-v1#1"),
        ("faq#1", "policy-v2#1"),
    ]
    assert found.version_pairs == 1


def test_containment_finds_a_passage_copied_into_a_longer_text() -> None:
    passage = " ".join(f"w{i}" for i in range(40))
    longer = passage + " " + " ".join(f"x{i}" for i in range(40))
    texts = {"short": passage, "long": longer}
    assert within(texts, linked=unlinked).pairs == ()
    found = within(texts, containment=0.9, linked=unlinked)
    assert found.pairs == (Pair("long", "short", CONTAINMENT, 1.0),)


def test_hostile_texts_are_skipped_or_compared_never_a_traceback() -> None:
    big = " ".join(f"w{i % 30_000}" for i in range(1_600_000))  # about 10 MB
    texts = {
        "empty#1": "",
        "blank#2": " \n\t",
        "punct#3": "?!",
        "one#4": "Yes",
        "one#5": "yes.",
        "big#6": big,
        "big#7": big + " end",
        "id with # and : ,#8": "Yes",
    }
    found = within(texts, containment=0.9, linked=unlinked)
    assert dict(found.skipped) == {
        "empty#1": "no words",
        "blank#2": "no words",
        "punct#3": "no words",
    }
    pairs = {(p.a, p.b) for p in found.pairs}
    assert ("big#6", "big#7") in pairs
    assert ("one#4", "one#5") in pairs and ("id with # and : ,#8", "one#4") in pairs


def test_thresholds_out_of_range_are_usage_errors() -> None:
    for kwargs in ({"threshold": 0.0}, {"threshold": 1.5}, {"containment": -1.0}):
        with pytest.raises(UsageError):
            within({"a": "x"}, linked=unlinked, **kwargs)  # type: ignore[arg-type]
    assert issubclass(UsageError, LabelpoolError)


def _passages(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    vocab = [f"t{i}" for i in range(3000)]
    return [(f"p{i}", " ".join(rng.choices(vocab, k=60))) for i in range(n)]


def test_across_finds_near_copies_among_a_corpus_and_keeps_targets() -> None:
    rows = _passages(2000, 7)
    text = dict(rows)
    words = text["p3"].split()
    words[30] = "changed"  # one word changed in 60: Jaccard (56 - 5) / (56 + 5) = 0.84
    rows += [("copy-of-p3", " ".join(words)), ("copy-of-p9", text["p9"].upper())]
    found = across(rows, {"p3", "p9"}, linked=unlinked)
    assert [(p.a, p.b) for p in found.pairs] == [("copy-of-p3", "p3"), ("copy-of-p9", "p9")]
    assert found.pairs[0].score == pytest.approx(51 / 61)
    # a pair with no side among the targets is not looked for
    assert across(rows, {"p4"}, linked=unlinked).pairs == ()
    # a version pair is counted
    linked = across(rows, {"p3"}, linked=lambda a, b: "p3" in (a, b))
    assert linked.pairs == () and linked.version_pairs == 1


def test_across_skips_empty_texts_and_repeated_ids() -> None:
    found = across([("a", ""), ("b", "x y z"), ("b", "x y z")], {"a", "b"}, linked=unlinked)
    assert found.skipped == (("a", "no words"), ("b", "id given twice"))
