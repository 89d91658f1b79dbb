"""A robust sign: a delta whose sign no labelling of the unjudged documents can flip."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labelpool.scoring.delta.question import DeltaRange
from labelpool.words import noun

# families whose value depends only on the returned documents: their delta range covers every
# labelling of the unjudged documents, so a range that excludes zero settles the sign
ROBUST_FAMILIES = frozenset({"P", "RR", "Success"})


def robust(c: Mapping[str, Any], range_key: str, p_adjusted: float, alpha: float) -> bool:
    """Whether the delta's sign holds for every labelling of the unjudged documents and the
    test clears ``alpha`` (only for :data:`ROBUST_FAMILIES`)."""
    dr: DeltaRange = c["delta_range"]
    return (
        range_key in ROBUST_FAMILIES
        and not dr.sign_can_flip
        and p_adjusted < alpha
        and c["delta"] != 0
        and (dr.low > 0) == (c["delta"] > 0)
    )


def robust_reason(c: Mapping[str, Any]) -> str:
    """Why a robust sign is robust, in words."""
    n = c["unjudged_in_range"]
    if n == 0:
        return "robust: every document of both rankings is judged"
    return f"robust: the sign holds for every labelling of the {n} unjudged {noun(n, 'document')}"
