"""``R@k``: recall at k over relevance targets, a class counting once (trec_eval ``recall_k``)."""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import BOUND, Family
from labelpool.scoring.measures.ranked import Ranked, count, divide, relevant, relevant_targets


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    hits = count(r.qi[relevant(r, depth, relevance_level)], r.nq)
    return divide(hits, relevant_targets(r, relevance_level))


FAMILY = Family(
    "R",
    "recall: relevant targets (classes count once) in the top k / all relevant targets",
    "(a + u) / (R + u): u unjudged documents in the top k join both sides",
    "recall_{k}",
    compute,
    optimistic=BOUND,
    source="trec_eval recall_k",
)
