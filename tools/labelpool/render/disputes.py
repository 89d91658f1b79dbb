"""The one footnote of the disputed rate (``score``, ``compare``, ``check``, the report):
:func:`note` ``(k, policy) -> str``, shown once, only where the labels hold open disputes."""

from __future__ import annotations

POLICY_WORDS = {
    "majority": "their most frequent grade (a tie: the lowest)",
    "max": "their highest grade",
    "min": "their lowest grade",
}


def note(k: int | str, policy: str) -> str:
    """What ``disputed@k`` is, and how the scores counted an open dispute under ``policy``."""
    head = f"disputed@{k}: the share of the top {k} that judges dispute (no adjudicator yet)"
    if policy == "bounds":
        return (
            f"{head}; under disputes = bounds each is unjudged (in unjudged@{k} too); "
            "labelpool pool --adjudicate makes the batch that settles them"
        )
    return f"{head}; under disputes = {policy} each counts with {POLICY_WORDS[policy]}"
