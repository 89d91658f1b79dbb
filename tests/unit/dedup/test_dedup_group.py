"""Pairs into proposed classes: strongest first, never a version pair in one class, existing
classes extended, never repeated."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.dedup.group import Proposal, classes, grouped
from labelpool.dedup.pairs import JACCARD, Pair

DOCS = [f"d{i}" for i in range(8)]


def pair(a: str, b: str, score: float = 0.9) -> Pair:
    x, y = sorted((a, b))
    return Pair(x, y, JACCARD, score)


pairs_st = st.lists(
    st.tuples(st.sampled_from(DOCS), st.sampled_from(DOCS), st.floats(0.8, 1.0)).filter(
        lambda t: t[0] != t[1]
    ),
    max_size=20,
).map(lambda ts: [pair(a, b, s) for a, b, s in ts])
links_st = st.sets(
    st.tuples(st.sampled_from(DOCS), st.sampled_from(DOCS)).map(frozenset), max_size=6
)


@settings(max_examples=300, deadline=None)
@given(pairs_st, links_st)
def test_no_class_holds_a_linked_pair(pairs: list[Pair], links: set[frozenset[str]]) -> None:
    def linked(a: str, b: str) -> bool:
        return frozenset({a, b}) in links

    got = grouped(pairs, linked)
    seen: set[str] = set()
    for proposal in got.proposals:
        assert len(proposal.members) >= 2
        assert not seen & set(proposal.members)  # classes do not overlap
        seen |= set(proposal.members)
        for a, b in itertools.combinations(proposal.members, 2):
            assert not linked(a, b)
    if not links:
        assert got.refused == 0


def test_classes_join_transitively_with_the_weakest_score() -> None:
    got = classes(
        [pair("a", "b", 0.95), pair("b", "c", 0.85), pair("x", "y", 1.0)], lambda *_: False
    )
    assert got == (
        Proposal(("a", "b", "c"), JACCARD, 0.85, None),
        Proposal(("x", "y"), JACCARD, 1.0, None),
    )


def test_a_union_that_would_join_versions_is_not_made_and_counted() -> None:
    # the faq copies both years' policy; the two years must never share a class
    def linked(a: str, b: str) -> bool:
        return {a, b} == {"policy-v1", "policy-v2"}

    got = grouped([pair("faq", "policy-v2", 1.0), pair("faq", "policy-v1", 0.9)], linked)
    assert got.proposals == (Proposal(("faq", "policy-v2"), JACCARD, 1.0, None),)
    assert got.refused == 1


def test_existing_classes_are_extended_never_repeated() -> None:
    existing = [["a", "b"], ["x", "y"]]
    # what the existing class already says is not proposed
    assert classes([pair("a", "b")], lambda *_: False, existing) == ()
    got = classes([pair("b", "c", 0.88)], lambda *_: False, existing)
    assert got == (Proposal(("a", "b", "c"), JACCARD, 0.88, 0),)
    # two existing classes are not merged
    assert classes([pair("a", "x")], lambda *_: False, existing) == ()
    # an existing member linked to the newcomer refuses the union
    got2 = grouped([pair("y", "z")], lambda a, b: {a, b} == {"x", "z"}, existing)
    assert got2.proposals == () and got2.refused == 1
