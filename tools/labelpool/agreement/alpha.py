"""Krippendorff's alpha, ordinal and nominal, as Krippendorff (2011) defines it and the
``krippendorff`` package computes it.

``alpha = 1 - D_o / D_e``: ``D_o`` the observed disagreement (the coincidence matrix ``o``
weighted by the metric's distances), ``D_e`` the disagreement expected by chance (the
coincidences ``e`` of the pooled values). A unit (document) with ``m >= 2`` verdicts adds
``(n_c n_k - [c = k] n_c) / (m - 1)`` to ``o[c, k]``; a unit with one verdict adds nothing.
The ordinal distance depends on the marginal counts ``n_g``:
``d(c, k) = (sum_{g=c..k} n_g - (n_c + n_k) / 2) ** 2``; the nominal one is ``[c != k]``.
Undefined (NaN) when ``D_e`` is 0: every pairable verdict is the same value.
"""

from __future__ import annotations

import numpy as np

from labelpool.agreement.blocks import Block, Finish, by_question, safe_divide

ORDINAL = "ordinal"
NOMINAL = "nominal"


def coincidences(counts: np.ndarray) -> np.ndarray:
    """(units, V, V): each unit's coincidences from its value counts ``(units, V)``."""
    counts = counts.astype(np.float64)
    m = counts.sum(axis=1)
    outer = counts[:, :, None] * counts[:, None, :]
    idx = np.arange(counts.shape[1])
    outer[:, idx, idx] -= counts
    return np.where((m >= 2)[:, None, None], safe_divide(outer, (m - 1)[:, None, None]), 0.0)


def distances(n_v: np.ndarray, metric: str) -> np.ndarray:
    """(..., V, V): the metric's distances for the marginal counts ``n_v`` ``(..., V)``."""
    size = n_v.shape[-1]
    if metric == NOMINAL:
        return np.broadcast_to(1.0 - np.eye(size), (*n_v.shape[:-1], size, size))
    cumulative = np.cumsum(n_v, axis=-1)
    idx = np.arange(size)
    lo = np.minimum(idx[:, None], idx[None, :])
    hi = np.maximum(idx[:, None], idx[None, :])
    between = cumulative[..., hi] - cumulative[..., lo] + n_v[..., lo]
    half = (n_v[..., :, None] + n_v[..., None, :]) / 2
    return np.asarray((between - half) ** 2)


def finisher(size: int, metric: str) -> Finish:
    def finish(sums: np.ndarray) -> np.ndarray:
        o = sums.reshape(*sums.shape[:-1], size, size)
        n_v = o.sum(axis=-1)
        n = n_v.sum(axis=-1)
        e = n_v[..., :, None] * n_v[..., None, :]
        idx = np.arange(size)
        e[..., idx, idx] -= n_v
        e = safe_divide(e, (n - 1)[..., None, None])
        d = distances(n_v, metric)
        observed = (o * d).sum(axis=(-2, -1))
        expected = (np.nan_to_num(e) * d).sum(axis=(-2, -1))
        ratio = safe_divide(observed, expected)
        return np.where(np.abs(expected) > 1e-12 * np.maximum(n, 1) ** 2, 1.0 - ratio, np.nan)

    return finish


def block(question: np.ndarray, counts: np.ndarray, metric: str) -> Block:
    """Alpha of the units with value counts ``counts`` (``(units, V)``), per question."""
    size = counts.shape[1]
    per_unit = coincidences(counts).reshape(counts.shape[0], size * size)
    return by_question(question, per_unit, finisher(size, metric))


def alpha(counts: np.ndarray, metric: str) -> float:
    """Alpha over every unit (one question): NaN when undefined."""
    return block(np.zeros(counts.shape[0], dtype=np.int64), counts, metric).point()
