"""Pairs of near-duplicate documents: within one question (exact) and across a corpus (LSH).

:func:`within` compares every pair among the texts given, exactly: it keeps each text's
shingles once (as integers, :func:`labelpool.dedup.text.hashed_array`), indexes them, and
probes the index with a prefix of each text's shingles, rarest first (prefix filtering: a pair
whose Jaccard similarity is at least ``t`` shares one of the first ``|x| - ceil(t |x|) + 1``
shingles of either side, whatever their order; a pair whose containment is at least ``c``, of
the smaller side only), so that it finds every pair at or above the thresholds that comparing
all pairs finds, without comparing pairs that share nothing rare.

:func:`across` finds candidates among all texts of a corpus with MinHash locality-sensitive
hashing (``datasketch``, the ``dedup`` extra), keeps those with a side in ``targets``, and
verifies each by the exact measure (with ``containment``, at a lower LSH threshold: a text
copied whole into one twice its length has Jaccard similarity 0.5). A pair that
``linked(a, b)`` says are versions of one another is never a :class:`Pair`: it is counted in
``version_pairs``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from labelpool.dedup.text import SHINGLE, hashed_array
from labelpool.errors import UsageError

JACCARD, CONTAINMENT = "shingle-jaccard", "shingle-containment"
_EPS = 1e-9  # a prefix one shingle longer than needed is harmless; one shorter loses pairs
Linked = Callable[[str, str], bool]
Shingles = npt.NDArray[np.uint64]


@dataclass(frozen=True)
class Pair:
    """Two near-duplicate documents (``a < b``), how they were found and how alike they are."""

    a: str
    b: str
    method: str  # "shingle-jaccard" | "shingle-containment"
    score: float


@dataclass(frozen=True)
class Found:
    """What a search found: the pairs (sorted by ``a``, ``b``), the pairs at or above the
    threshold set aside because they are versions of one another, the documents not compared
    (``(doc, reason)``: no words, an id given twice), and the candidates verified."""

    pairs: tuple[Pair, ...]
    version_pairs: int
    skipped: tuple[tuple[str, str], ...]
    candidates: int = 0


def _check(threshold: float, containment: float | None) -> None:
    for name, value in (("threshold", threshold), ("containment", containment)):
        if value is not None and not (0.0 < value <= 1.0):
            raise UsageError(f"{name} must be above 0 and at most 1, not {value}")


def judge_pair(
    a: str, b: str, x: Shingles, y: Shingles, threshold: float, containment: float | None
) -> Pair | None:
    """The pair if its shingles ``x``, ``y`` (sorted, distinct) reach a threshold, else None:
    Jaccard first, containment (the smaller side's share) second."""
    if len(x) == 0 or len(y) == 0:
        return None
    common = len(np.intersect1d(x, y, assume_unique=True))
    first, second = (a, b) if a < b else (b, a)
    jac = common / (len(x) + len(y) - common)
    if jac >= threshold:
        return Pair(first, second, JACCARD, jac)
    if containment is not None:
        con = common / min(len(x), len(y))
        if con >= containment:
            return Pair(first, second, CONTAINMENT, con)
    return None


def _shingled(
    texts: Iterable[tuple[str, str]], n: int
) -> tuple[list[str], list[Shingles], list[tuple[str, str]]]:
    ids: list[str] = []
    sets: list[Shingles] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()
    for doc, text in texts:
        if doc in seen:
            skipped.append((doc, "id given twice"))
            continue
        seen.add(doc)
        s = hashed_array(text, n)
        if len(s) == 0:
            skipped.append((doc, "no words"))
            continue
        ids.append(doc)
        sets.append(s)
    return ids, sets, skipped


def within(
    texts: Mapping[str, str],
    *,
    threshold: float = 0.8,
    containment: float | None = None,
    linked: Linked,
    n: int = SHINGLE,
) -> Found:
    """Every pair of ``texts`` (doc id -> text) with Jaccard similarity >= ``threshold`` or,
    when given, containment >= ``containment``; exact (prefix filtering, see the module)."""
    _check(threshold, containment)
    ids, sets, skipped = _shingled(texts.items(), n)
    frequency: Counter[int] = Counter()
    for s in sets:
        frequency.update(s.tolist())
    bound = min(threshold, containment) if containment is not None else threshold
    postings: dict[int, list[int]] = {}
    for i, s in enumerate(sets):
        for h in s.tolist():
            postings.setdefault(h, []).append(i)
    pairs: list[Pair] = []
    versions = 0
    candidates = 0
    # Jaccard: either side's prefix finds the pair, so each text probes for later ones only.
    # Containment: only the smaller side's prefix is sure to (the larger may hold many
    # shingles the smaller lacks), so each probes for every other, once a pair ("seen").
    both_ways = containment is not None
    seen: set[tuple[int, int]] = set()
    for i, s in enumerate(sets):
        rare_first = sorted(s.tolist(), key=lambda h: (frequency[h], h))
        keep = len(rare_first) - max(1, math.ceil(bound * len(rare_first) - _EPS)) + 1
        others: set[int] = set()
        for h in rare_first[:keep]:
            others.update(j for j in postings[h] if j > i or (both_ways and j < i))
        for j in sorted(others):
            if both_ways:
                key = (i, j) if i < j else (j, i)
                if key in seen:
                    continue
                seen.add(key)
            candidates += 1
            pair = judge_pair(ids[i], ids[j], s, sets[j], threshold, containment)
            if pair is None:
                continue
            if linked(pair.a, pair.b):
                versions += 1
            else:
                pairs.append(pair)
    return Found(_sorted(pairs), versions, tuple(skipped), candidates)


def _sorted(pairs: list[Pair]) -> tuple[Pair, ...]:
    return tuple(sorted(pairs, key=lambda p: (p.a, p.b)))


def _datasketch() -> Any:
    try:
        import datasketch
    except ImportError:
        raise UsageError(
            "corpus-wide near-duplicates need datasketch: pip install 'labelpool[dedup]'"
        ) from None
    return datasketch


def _identity(value: int) -> int:
    return value


_BAND_MULTIPLIERS = np.array(
    [(0x9E3779B97F4A7C15 * (2 * i + 1)) & 0xFFFFFFFFFFFFFFFF for i in range(256)], dtype=np.uint64
)


def _banded(signatures: npt.NDArray[Any], bands: int, rows: int) -> npt.NDArray[np.int64]:
    """Candidate pairs ``i * N + j`` (``i < j``): documents whose signatures agree on every
    row of at least one band (one 64-bit hash a band; a collision only adds a candidate that
    the exact measure then refuses)."""
    count = len(signatures)
    found: list[npt.NDArray[np.int64]] = []
    for band in range(bands):
        cols = signatures[:, band * rows : (band + 1) * rows].astype(np.uint64)
        h = (cols * _BAND_MULTIPLIERS[: cols.shape[1]]).sum(axis=1, dtype=np.uint64)
        h ^= h >> np.uint64(31)
        order = np.argsort(h, kind="stable")
        ordered = h[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        sizes = np.diff(np.r_[starts, count])
        for start, size in zip(starts[sizes > 1].tolist(), sizes[sizes > 1].tolist(), strict=True):
            members = np.sort(order[start : start + size]).astype(np.int64)
            i, j = np.triu_indices(size, 1)
            found.append(members[i] * count + members[j])
    if not found:
        return np.empty(0, dtype=np.int64)
    return np.unique(np.concatenate(found))


def across(
    texts: Iterable[tuple[str, str]],
    targets: Collection[str],
    *,
    threshold: float = 0.8,
    containment: float | None = None,
    lsh_threshold: float = 0.7,
    containment_lsh_threshold: float = 0.5,
    num_perm: int = 128,
    weights: tuple[float, float] = (0.3, 0.7),
    seed: int = 1,
    linked: Linked,
    n: int = SHINGLE,
) -> Found:
    """Pairs among ``texts`` ((doc id, text), read once) with a side in ``targets``: MinHash
    LSH candidates (``lsh_threshold``, ``num_perm`` permutations, false positive / negative
    ``weights``: datasketch's MinHash signatures and its choice of bands and rows), each
    verified exactly (Jaccard >= ``threshold`` or containment >= ``containment``). A pair is
    proposed only as often as LSH finds it: at Jaccard 0.8 with the defaults, at least 95% of
    the time; with ``containment``, the LSH threshold is ``containment_lsh_threshold`` (if
    lower), so that a text copied whole into another up to about twice its length is a
    candidate (its Jaccard similarity: the length ratio). The bands are hashed and sorted as
    arrays (not datasketch's index of Python sets: a third of the memory at 100,000 texts)."""
    _check(threshold, containment)
    _check(lsh_threshold, None)
    _check(containment_lsh_threshold, None)
    if containment is not None:
        lsh_threshold = min(lsh_threshold, containment_lsh_threshold)
    ds = _datasketch()
    params = ds.MinHashLSH(threshold=lsh_threshold, num_perm=num_perm, weights=weights)
    blank = ds.MinHash(num_perm=num_perm, seed=seed, hashfunc=_identity)
    ids, sets, skipped = _shingled(texts, n)
    signatures: list[npt.NDArray[Any]] = []
    for s in sets:
        sketch = blank.copy()
        sketch.update_batch((s & np.uint64(0xFFFFFFFF)).tolist())
        signatures.append(sketch.hashvalues)
    count = len(ids)
    wanted = set(targets)
    is_target = np.fromiter((d in wanted for d in ids), dtype=bool, count=count)
    candidates = (
        _banded(np.vstack(signatures), params.b, params.r)
        if count > 1
        else np.empty(0, dtype=np.int64)
    )
    del signatures
    left, right = np.divmod(candidates, count) if count else (candidates, candidates)
    keep = is_target[left] | is_target[right] if count else np.empty(0, dtype=bool)
    pairs: list[Pair] = []
    versions = 0
    for i, j in zip(left[keep].tolist(), right[keep].tolist(), strict=True):
        pair = judge_pair(ids[i], ids[j], sets[i], sets[j], threshold, containment)
        if pair is None:
            continue
        if linked(pair.a, pair.b):
            versions += 1
        else:
            pairs.append(pair)
    return Found(_sorted(pairs), versions, tuple(skipped), int(keep.sum()) if count else 0)
