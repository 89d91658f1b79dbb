"""``RBP(p=0.8)``: rank-biased precision, binary relevance (Moffat & Zobel 2008, TOIS 27(1)).

``(1 - p) * sum(p ** (rank - 1))`` over the relevant documents (grade >= the relevance level; a
class counts once), down the whole ranking, ranks in trec_eval's order. p defaults to 0.8 as
in ir_measures (trec_eval's graded ``rbp`` defaults to 0.9; ``rbp_resid`` is its residual). It
equals ir_measures' ``RBP(p=...)`` (trectools) when no two scores tie (trectools averages the
weights of tied documents) and at most 1000 documents are ranked (trectools' depth).
"""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import BOUND, Family
from labelpool.scoring.measures.ranked import Ranked, count, relevant


def compute_with(r: Ranked, depth: int | None, relevance_level: int, p: float) -> np.ndarray:
    rel = relevant(r, depth, relevance_level)
    weights = (1.0 - p) * np.power(p, r.pos[rel].astype(np.float64))
    return count(r.qi[rel], r.nq, weights)


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    return compute_with(r, depth, relevance_level, 0.8)


FAMILY = Family(
    "RBP",
    "rank-biased precision, binary: (1 - p) * sum of p^(rank-1) over relevant documents "
    "(p = 0.8 unless RBP(p=...) says otherwise)",
    "unjudged documents in the top k count as relevant: RBP plus the unjudged part of its "
    "residual in the top k (a bound; the tail beyond the ranking is not added)",
    None,
    compute,
    full_depth=True,
    optimistic=BOUND,
    source="Moffat & Zobel 2008 (TOIS 27(1)); ir_measures RBP",
    compute_with=compute_with,
    parameter=("p", 0.8),
)
