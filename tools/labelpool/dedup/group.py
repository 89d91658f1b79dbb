"""Pairs of near-duplicates into proposed classes, never a version pair in one class.

Pairs are joined strongest first (union-find). A union that would put two documents that
``linked(a, b)`` says are versions of one another into one class is not made, and counted;
neither is one that would join two existing classes (people wrote them apart). An existing
class (``existing``, as the label file's ``relevant_classes`` has them) starts as one group:
a group that adds documents to it is proposed as that class extended (``joins``: its index),
and a group that adds nothing to what an existing class already says is not proposed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from labelpool.dedup.pairs import Pair

Linked = Callable[[str, str], bool]


@dataclass(frozen=True)
class Proposal:
    """A proposed class: its members (sorted), the method and the lowest pair score that holds
    it together, and the index of the existing class it extends (None: a new class)."""

    members: tuple[str, ...]
    method: str
    score: float
    joins: int | None


@dataclass(frozen=True)
class Grouping:
    """The proposals, and the unions not made because they would join versions (``refused``)."""

    proposals: tuple[Proposal, ...]
    refused: int


@dataclass
class _Group:
    members: set[str]
    existing: int | None = None
    weakest: Pair | None = None  # the lowest-scoring pair that joined this group


def grouped(
    pairs: Iterable[Pair], linked: Linked, existing: Sequence[Sequence[str]] = ()
) -> Grouping:
    """The classes ``pairs`` make (see the module); deterministic for a given set of pairs."""
    of: dict[str, _Group] = {}
    for index, members in enumerate(existing):
        group = _Group(set(), index)
        for doc in members:
            if doc not in of:  # a document in two existing classes stays in the first
                group.members.add(doc)
                of[doc] = group
    refused = 0
    for pair in sorted(pairs, key=lambda p: (-p.score, p.a, p.b, p.method)):
        left = of.get(pair.a) or _Group({pair.a})
        right = of.get(pair.b) or _Group({pair.b})
        if left is right:
            continue
        if left.existing is not None and right.existing is not None:
            continue
        if any(linked(x, y) for x in left.members for y in right.members):
            refused += 1
            continue
        big, small = (left, right) if len(left.members) >= len(right.members) else (right, left)
        big.members |= small.members
        if big.existing is None:
            big.existing = small.existing
        weakest = [p for p in (big.weakest, small.weakest, pair) if p is not None]
        big.weakest = min(weakest, key=lambda p: (p.score, p.a, p.b))
        for doc in big.members:
            of[doc] = big
    proposals: list[Proposal] = []
    for group in {id(g): g for g in of.values()}.values():
        if group.weakest is None:  # an existing class nothing was added to
            continue
        proposals.append(
            Proposal(
                tuple(sorted(group.members)),
                group.weakest.method,
                group.weakest.score,
                group.existing,
            )
        )
    return Grouping(tuple(sorted(proposals, key=lambda p: p.members)), refused)


def classes(
    pairs: Iterable[Pair], linked: Linked, existing: Sequence[Sequence[str]] = ()
) -> tuple[Proposal, ...]:
    """The proposed classes of :func:`grouped`, without the count of unions refused."""
    return grouped(pairs, linked, existing).proposals
