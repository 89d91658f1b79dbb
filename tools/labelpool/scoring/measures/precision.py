"""``P@k``: precision at k (trec_eval ``P_k``)."""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import BOUND, Family
from labelpool.scoring.measures.ranked import Ranked, count, relevant


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    assert depth is not None  # P always has a cut-off (its own or the scorer's k)
    return count(r.qi[relevant(r, depth, relevance_level)], r.nq) / depth


FAMILY = Family(
    "P",
    "precision: relevant documents in the top k, divided by k (trec_eval P_k)",
    "unjudged documents in the top k count as relevant: (a + u) / k",
    "P_{k}",
    compute,
    optimistic=BOUND,
    source="trec_eval P_k; Buckley & Voorhees 2005",
)
