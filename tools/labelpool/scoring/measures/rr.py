"""``RR`` / ``RR@k``: reciprocal rank of the first relevant document (trec_eval ``recip_rank``)."""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import BOUND, Family
from labelpool.scoring.measures.ranked import Ranked, relevant


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    rel = relevant(r, depth, relevance_level)
    out = np.zeros(r.nq, dtype=np.float64)
    first_q, first = np.unique(r.qi[rel], return_index=True)
    out[first_q] = 1.0 / (r.pos[rel][first] + 1)
    return out


FAMILY = Family(
    "RR",
    "reciprocal rank of the first relevant document (trec_eval recip_rank; @k: on the "
    "ranking cut to its top k)",
    "an unjudged document in the top k counts as relevant (RR can only rise)",
    None,
    compute,
    "recip_rank",
    full_depth=True,
    optimistic=BOUND,
    source="trec_eval recip_rank",
)
