"""Kendall's tau-b between two rankings, as ``scipy.stats.kendalltau`` defines it (variant b).

``tau_b = (concordant - discordant) / sqrt((n0 - ties_x) * (n0 - ties_y))`` over the
``n0 = n (n - 1) / 2`` pairs, ``ties_x`` the pairs tied in ``x`` (whether or not tied in
``y``); NaN when the denominator is 0 (fewer than two items, or one list constant).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def tau_b(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError("tau_b: two lists of the same length")
    n = xs.size
    upper = np.triu_indices(n, k=1)
    dx = np.sign(xs[:, None] - xs[None, :])[upper]
    dy = np.sign(ys[:, None] - ys[None, :])[upper]
    pairs = n * (n - 1) // 2
    untied_x = pairs - int(np.count_nonzero(dx == 0))
    untied_y = pairs - int(np.count_nonzero(dy == 0))
    if untied_x == 0 or untied_y == 0:
        return math.nan
    return float((dx * dy).sum() / math.sqrt(untied_x * untied_y))
