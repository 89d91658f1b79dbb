"""Gwet's AC2 (and AC1, its unweighted case), for any number of judges and missing verdicts,
from Gwet (2014), *Handbook of Inter-Rater Reliability*, 4th ed., chapter 3 (as the R package
irrCAC's ``gwet.ac1.raw`` computes it).

With ``r_ik`` the number of judges who gave unit ``i`` category ``k``, ``r_i`` their sum,
``q`` categories and weights ``w`` (``w_kk = 1``), ``r*_ik = sum_l w_kl r_il``:

* ``p_a = mean over units with r_i >= 2 of sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``;
* ``pi_k = mean over units with r_i >= 1 of r_ik / r_i``;
* ``p_e = sum(w) / (q (q - 1)) * sum_k pi_k (1 - pi_k)``;
* ``AC2 = (p_a - p_e) / (1 - p_e)``.

Unlike kappa and alpha, chance agreement ``p_e`` shrinks when one category dominates, so AC2
stays high where judges agree on mostly irrelevant documents (the "kappa paradox"); it is
undefined only with no unit of two verdicts. The categories are the grades given (as irrCAC
takes them from the data); weights here: quadratic on the grades,
``w_kl = 1 - (x_k - x_l)^2 / (x_max - x_min)^2``, or identity (AC1).
"""

from __future__ import annotations

import numpy as np

from labelpool.agreement.blocks import Block, Finish, by_question, safe_divide

QUADRATIC = "quadratic"
IDENTITY = "identity"


def weights(values: np.ndarray, weighting: str) -> np.ndarray:
    """Agreement weights between the categories ``values`` (irrCAC's ``quadratic.weights``)."""
    v = np.asarray(values, dtype=np.float64)
    if weighting == IDENTITY or v.size < 2:
        return np.eye(v.size)
    return np.asarray(1.0 - (v[:, None] - v[None, :]) ** 2 / (v.max() - v.min()) ** 2)


def per_unit(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(units, q + 3): ``[p_a of the unit, r_i >= 2, r_ik / r_i ..., r_i >= 1]``."""
    counts = counts.astype(np.float64)
    r = counts.sum(axis=1)
    weighted = counts @ w.T
    agree = (counts * (weighted - 1)).sum(axis=1)
    pairs = r * (r - 1)
    two = r >= 2
    pa = np.where(two, safe_divide(agree, pairs), 0.0)
    shares = np.where((r >= 1)[:, None], safe_divide(counts, r[:, None]), 0.0)
    return np.column_stack([pa, two, shares, r >= 1]).astype(np.float64)


def finisher(w: np.ndarray) -> Finish:
    size = w.shape[0]
    scale = w.sum() / (size * (size - 1)) if size > 1 else np.nan

    def finish(sums: np.ndarray) -> np.ndarray:
        pa = safe_divide(sums[..., 0], sums[..., 1])
        pi = safe_divide(sums[..., 2:-1], sums[..., -1:])
        pe = scale * (pi * (1 - pi)).sum(axis=-1)
        return safe_divide(pa - pe, 1 - pe)

    return finish


def block(question: np.ndarray, counts: np.ndarray, values: np.ndarray, weighting: str) -> Block:
    """AC2 with ``weighting`` (:data:`QUADRATIC` or :data:`IDENTITY`) of units with counts
    ``counts`` (``(units, q)``) of the categories ``values``, per question."""
    w = weights(values, weighting)
    return by_question(question, per_unit(counts, w), finisher(w))


def ac2(counts: np.ndarray, values: np.ndarray, weighting: str) -> float:
    return block(np.zeros(counts.shape[0], dtype=np.int64), counts, values, weighting).point()
