"""Jaccard similarity and containment of shingle sets: properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from labelpool.dedup.measure import containment, jaccard

sets = st.frozensets(st.integers(0, 30), max_size=20)


@given(sets, sets)
def test_jaccard_is_symmetric_and_bounded(a: frozenset[int], b: frozenset[int]) -> None:
    assert jaccard(a, b) == jaccard(b, a)
    assert 0.0 <= jaccard(a, b) <= 1.0


@given(sets.filter(bool))
def test_jaccard_is_one_on_equal_sets(a: frozenset[int]) -> None:
    assert jaccard(a, set(a)) == 1.0
    assert containment(a, a) == 1.0


@given(sets, sets)
def test_containment_is_at_least_jaccard(a: frozenset[int], b: frozenset[int]) -> None:
    assert containment(a, b) >= jaccard(a, b)
    assert containment(a, b) == containment(b, a)


def test_empty_sets() -> None:
    assert jaccard(frozenset(), frozenset()) == 0.0
    assert containment(frozenset(), frozenset({1})) == 0.0
    assert containment(frozenset({1, 2}), frozenset({1, 2, 3, 4})) == 1.0
    assert jaccard(frozenset({1, 2}), frozenset({1, 2, 3, 4})) == 0.5
