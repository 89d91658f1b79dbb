"""``AP`` / ``AP@k``: average precision over all relevant targets (trec_eval ``map``,
``map_cut_k``)."""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import SCENARIO, Family
from labelpool.scoring.measures.ranked import Ranked, count, divide, relevant, relevant_targets


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    rel = relevant(r, depth, relevance_level)
    q = r.qi[rel]
    pos = r.pos[rel]
    nth = np.arange(len(q), dtype=np.int64) - np.searchsorted(q, q, side="left") + 1
    return divide(count(q, r.nq, nth / (pos + 1)), relevant_targets(r, relevance_level))


FAMILY = Family(
    "AP",
    "average precision over all relevant targets (trec_eval map; @k: map_cut_k, "
    "divided by all relevant targets)",
    "unjudged documents in the top k (the scorer's k for AP without @k) count as "
    "relevant, and as many relevant targets join the denominator (a scenario, not a "
    "bound: it can fall below raw)",
    "map_cut_{k}",
    compute,
    "map",
    full_depth=True,
    optimistic=SCENARIO,
    source="trec_eval map; Buckley & Voorhees 2005",
)
