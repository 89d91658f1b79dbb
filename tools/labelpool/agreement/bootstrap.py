"""95% percentile bootstrap intervals, resampling questions (seeded).

A replicate draws as many questions as there are, with replacement; a statistic of the replicate
is its block's ``finish`` of ``W @ values`` (``W``: how often each question was drawn), computed
for a chunk of replicates at once. Every block sees the same replicates (one draw per chunk), so
the intervals of one report are computed on the same resamples. The interval is the 2.5th and
97.5th percentiles of the replicates where the statistic is defined (numpy's linear
interpolation); None when no replicate defines it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from labelpool.agreement.blocks import Block

CHUNK_ELEMENTS = 1 << 22  # replicates x questions drawn at once (32 MiB of float64)
LEVEL = 0.95


def draws(rng: np.random.Generator, replicates: int, questions: int) -> np.ndarray:
    """(replicates, questions) float64: how often each question is drawn in each replicate."""
    picked = rng.integers(0, questions, size=(replicates, questions))
    offsets = (np.arange(replicates, dtype=np.int64) * questions)[:, None]
    counts = np.bincount((picked + offsets).ravel(), minlength=replicates * questions)
    return counts.reshape(replicates, questions).astype(np.float64)


def replicates_of(
    blocks: Sequence[Block], questions: int, replicates: int, seed: int
) -> list[np.ndarray]:
    """Each block's statistic in each replicate: ``(replicates,)`` arrays, NaN where undefined."""
    out: list[list[np.ndarray]] = [[] for _ in blocks]
    if questions == 0 or replicates == 0:
        return [np.full(replicates, np.nan) for _ in blocks]
    rng = np.random.default_rng(seed)
    step = max(1, CHUNK_ELEMENTS // questions)
    for start in range(0, replicates, step):
        weights = draws(rng, min(step, replicates - start), questions)
        sums: dict[int, np.ndarray] = {}  # blocks sharing their sums share the product
        for i, block in enumerate(blocks):
            key = id(block.values)
            if key not in sums:
                sums[key] = weights[:, block.rows] @ block.values
            out[i].append(block.finish(sums[key]))
    return [np.concatenate(parts) for parts in out]


def interval(values: np.ndarray) -> tuple[float, float] | None:
    """The central :data:`LEVEL` percentile interval of the defined replicates."""
    defined = values[~np.isnan(values)]
    if defined.size == 0:
        return None
    tail = 100 * (1 - LEVEL) / 2
    low, high = np.percentile(defined, [tail, 100 - tail])
    return float(low), float(high)
