"""``nDCG@k``: normalised DCG with the raw grades as gains (trec_eval ``ndcg_cut_k``)."""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import SCENARIO, Family
from labelpool.scoring.measures.ranked import Ranked, count, divide, within


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    assert depth is not None  # nDCG always has a cut-off (its own or the scorer's k)
    hit = within(r, depth) & (r.gain > 0)
    dcg = count(r.qi[hit], r.nq, r.gain[hit] / np.log2(r.pos[hit] + 2))
    order = np.lexsort((-r.ideal_g, r.ideal_q))
    iq = r.ideal_q[order]
    ig = r.ideal_g[order]
    ipos = np.arange(len(iq), dtype=np.int64) - np.searchsorted(iq, iq, side="left")
    top = ipos < depth
    idcg = count(iq[top], r.nq, ig[top] / np.log2(ipos[top] + 2))
    return divide(dcg, idcg)


FAMILY = Family(
    "nDCG",
    "normalised DCG with the raw grades as gains and log2(rank + 1) discount "
    "(trec_eval ndcg_cut_k); the ideal ranking has one entry per class",
    "unjudged documents in the top k get grade max(level, 1), and the ideal ranking "
    "gains as many entries of that grade (a scenario, not a bound: it can fall below "
    "raw)",
    "ndcg_cut_{k}",
    compute,
    optimistic=SCENARIO,
    source="Järvelin & Kekäläinen 2002 (TOIS 20(4)); trec_eval ndcg_cut_k",
)
