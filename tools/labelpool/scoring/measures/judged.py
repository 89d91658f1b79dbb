"""``Judged@k``: the share of the returned top-k documents that carry a judgment.

``judged / min(k, returned)``, 0 for a question the run does not answer: ``1 -`` the
per-question unjudged rate. It differs from ir_measures' ``Judged@k`` (which breaks score ties
by doc id ascending, unlike trec_eval) and from trec_eval's ``unj@k`` (which divides by k even
when fewer documents were returned). Not a relevance measure: the scorer gives it the same
value in all three columns.
"""

from __future__ import annotations

import numpy as np

from labelpool.scoring.measures.base import ABSENT, Family
from labelpool.scoring.measures.ranked import Ranked, count, divide, within


def compute(r: Ranked, depth: int | None, relevance_level: int) -> np.ndarray:
    assert depth is not None  # Judged always has a cut-off (its own or the scorer's k)
    judged = count(r.qi[r.judged & within(r, depth)], r.nq)
    return divide(judged, np.minimum(r.returned, depth).astype(np.float64))


FAMILY = Family(
    "Judged",
    "share of the returned top-k documents that carry a judgment: "
    "judged / min(k, returned); 1 - the per-question unjudged rate",
    "not a relevance measure: the same value in all three columns",
    None,
    compute,
    optimistic=ABSENT,
    source="labelpool (1 - the unjudged rate); cf. trec_eval unj_k, ir_measures Judged@k",
)
