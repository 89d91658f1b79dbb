"""How alike two shingle sets are: Jaccard similarity and containment."""

from __future__ import annotations

from collections.abc import Set
from typing import Any


def jaccard(a: Set[Any], b: Set[Any]) -> float:
    """|a ∩ b| / |a ∪ b|; 0.0 when both are empty (nothing to compare)."""
    if not a and not b:
        return 0.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


def containment(a: Set[Any], b: Set[Any]) -> float:
    """|a ∩ b| / |the smaller|: 1.0 when one is copied whole into the other; 0.0 if one is
    empty. Never below :func:`jaccard`."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))
