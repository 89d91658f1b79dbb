"""``Success@k``: 1 when a relevant document is in the top k (trec_eval ``success_k``)."""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import BOUND, Family
from labelpool.scoring.measures.ranked import Ranked, count, relevant


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    return (count(r.qi[relevant(r, depth, relevance_level)], r.nq) > 0).astype(np.float64)


FAMILY = Family(
    "Success",
    "1 when a relevant document is in the top k, else 0 (trec_eval success_k)",
    "1 when the top k holds a relevant or an unjudged document",
    "success_{k}",
    compute,
    optimistic=BOUND,
    source="trec_eval success_k",
)
