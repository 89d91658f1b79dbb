"""One pair of judges: the confusion matrix, raw agreement and Cohen's kappa, plain and with
quadratic weights, as ``sklearn.metrics.cohen_kappa_score`` computes them.

``kappa = 1 - sum(w * C) / sum(w * E)``: ``C`` the confusion matrix of the documents both judged
(rows: the first judge's grade, columns: the second's), ``E = outer(row sums, column sums) / n``
the counts expected by chance, ``w`` the weights of disagreement: ``[i != j]`` (plain),
``(i - j) ** 2`` (quadratic, on the grades themselves: scikit-learn's with ``labels=0..G``).
Undefined (NaN) when ``sum(w * E)`` is 0: both judges gave one and the same grade throughout.
At the relevance threshold the grades are first collapsed to 0 (irrelevant) and 1 (grade 1 or
more).
"""

from __future__ import annotations

import numpy as np

from labelpool.agreement.blocks import Block, Finish, by_question, safe_divide

PLAIN = "plain"
QUADRATIC = "quadratic"


def weights(values: np.ndarray, weighting: str) -> np.ndarray:
    """Disagreement weights between the grades ``values``."""
    v = np.asarray(values, dtype=np.float64)
    if weighting == QUADRATIC:
        return np.asarray((v[:, None] - v[None, :]) ** 2)
    return 1.0 - np.eye(v.size)


def collapse(confusion: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(..., V, V) -> (..., 2, 2): grade 0 against grade 1 or more."""
    high = np.asarray(values) >= 1
    rows = np.stack(
        [confusion[..., ~high, :].sum(axis=-2), confusion[..., high, :].sum(axis=-2)], axis=-2
    )
    return np.stack([rows[..., :, ~high].sum(axis=-1), rows[..., :, high].sum(axis=-1)], axis=-1)


def kappa_of(confusion: np.ndarray, weighting: str, values: np.ndarray | None = None) -> np.ndarray:
    """Kappa of confusion matrices ``(..., V, V)`` between the grades ``values`` (default
    ``0..V-1``); NaN where undefined."""
    size = confusion.shape[-1]
    w = weights(np.arange(size) if values is None else values, weighting)
    n = confusion.sum(axis=(-2, -1))
    expected = confusion.sum(axis=-1)[..., :, None] * confusion.sum(axis=-2)[..., None, :]
    expected = safe_divide(expected, n[..., None, None])
    chance = (np.nan_to_num(expected) * w).sum(axis=(-2, -1))
    observed = (confusion * w).sum(axis=(-2, -1))
    ratio = safe_divide(observed, chance)
    return np.where(chance > 1e-12 * np.maximum(n, 1), 1.0 - ratio, np.nan)


def raw_of(confusion: np.ndarray) -> np.ndarray:
    """Share of the documents both judged on which they gave the same grade (NaN: none)."""
    diagonal = np.trace(confusion, axis1=-2, axis2=-1)
    return safe_divide(diagonal, confusion.sum(axis=(-2, -1)))


def _finish(values: np.ndarray, threshold: bool, statistic: str) -> Finish:
    size = values.size

    def finish(sums: np.ndarray) -> np.ndarray:
        confusion = sums.reshape(*sums.shape[:-1], size, size)
        if threshold:
            confusion = collapse(confusion, values)
        if statistic == "raw":
            return raw_of(confusion)
        return kappa_of(confusion, statistic, None if threshold else values)

    return finish


def confusion_block(
    question: np.ndarray, a: np.ndarray, b: np.ndarray, values: np.ndarray
) -> Block:
    """The pair's confusion matrix per question, from the category indices ``a``, ``b`` (into
    the grades ``values``) of the documents both judged; its statistic is raw agreement on
    grades (see :func:`statistic`)."""
    size = values.size
    per_unit = np.zeros((a.size, size * size))
    per_unit[np.arange(a.size), a.astype(np.int64) * size + b.astype(np.int64)] = 1.0
    return by_question(question, per_unit, _finish(values, False, "raw"))


def statistic(block: Block, values: np.ndarray, name: str, threshold: bool) -> Block:
    """``name`` (``raw``, :data:`PLAIN`, :data:`QUADRATIC`) of a confusion block, on grades or
    at the relevance threshold."""
    return block.again(_finish(values, threshold, name))


def confusion(a: np.ndarray, b: np.ndarray, size: int) -> np.ndarray:
    """(size, size) int64 counts: rows ``a``'s category indices, columns ``b``'s."""
    out = np.zeros((size, size), dtype=np.int64)
    np.add.at(out, (a.astype(np.int64), b.astype(np.int64)), 1)
    return out
