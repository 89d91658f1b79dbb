"""``ERR@k``: expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan 2009, CIKM), as
ir_measures computes it (its gdeval provider).

A document of grade g stops the user with probability ``R = (2**g - 1) / 2**4`` (gdeval's
maximum grade 4; higher grades count as 4), and ``ERR@k = sum over ranks r <= k of
R_r / r * prod(1 - R_i, i < r)``. A class's grade counts once (its later members stop nobody),
unjudged documents have R = 0, and the relevance level does not apply (graded, as nDCG).
"""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import BOUND, Family
from labelpool.scoring.measures.ranked import Ranked, count, within

MAX_GRADE = 4  # gdeval.pl's $MAX_JUDGMENT


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    assert depth is not None  # ERR always has a cut-off (its own or the scorer's k)
    rows = within(r, depth)
    qi, pos = r.qi[rows], r.pos[rows]
    grade = np.clip(r.gain[rows], 0, MAX_GRADE).astype(np.float64)
    stop = (np.power(2.0, grade) - 1.0) / 2.0**MAX_GRADE
    # prod(1 - R) of the rows above each row of the same question: exclusive running product
    keep = np.log1p(-np.minimum(stop, 1.0 - 1e-300))
    running = np.cumsum(keep)
    starts = np.searchsorted(qi, qi, side="left")
    before = running - keep - np.where(starts > 0, running[np.maximum(starts - 1, 0)], 0.0)
    return count(qi, r.nq, stop / (pos + 1.0) * np.exp(before))


FAMILY = Family(
    "ERR",
    "expected reciprocal rank at k: R = (2^g - 1) / 16 per grade g, "
    "sum of R_r / r * prod(1 - R_i, i < r)",
    "unjudged documents in the top k get grade max(level, 1) (ERR rises with every grade: a bound)",
    None,
    compute,
    optimistic=BOUND,
    source="Chapelle et al. 2009 (CIKM); ir_measures ERR@k (gdeval)",
)
