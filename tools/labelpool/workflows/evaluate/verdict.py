"""``compare``'s verdict of one comparison in words (:func:`verdict_of`), and what to judge
to settle it (:func:`to_judge`: the ``pool --depth`` batch, and ``pool --adjudicate`` where
open disputes are among the documents under ``disputes = "bounds"``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from labelpool.readings import MEANINGFUL, RELABEL, UNINTERPRETABLE
from labelpool.scoring.delta.question import DeltaRange, JudgeCost
from labelpool.words import counted
from labelpool.workflows.evaluate.robust import robust_reason

ADJUDICATE = "labelpool pool --adjudicate"


def to_judge(cost: JudgeCost, pool_command: str, adjudicate: str | None) -> str:
    """What to judge, and the commands that make the batches: ``N documents over M
    questions (pool ...)``; where some are open disputes (under ``bounds``), how many and the
    command that settles them (``pool --depth`` leaves them out: they are judged)."""
    head = f"{counted(cost.documents, 'document')} over {counted(cost.questions, 'question')}"
    if adjudicate is None or not cost.disputed:
        return f"{head} ({pool_command})"
    if cost.disputed == cost.documents:
        return f"{head}, every one an open dispute ({adjudicate})"
    return f"{head} ({pool_command}; {cost.disputed} of them open disputes: {adjudicate})"


def verdict_of(
    c: Mapping[str, Any], p_adjusted: float, alpha: float, robust_sign: bool = False
) -> tuple[str, str]:
    measure = c["measure"]
    cost: JudgeCost = c["judge_cost"]
    judge = f"judge {to_judge(cost, c['pool_command'], c.get('adjudicate_command'))}"
    lo, hi = c["ci95"]
    delta = c["delta"]
    stat = f"{delta:+.3f} {measure}, p = {p_text(p_adjusted)}, 95% CI [{lo:.3f}, {hi:.3f}]"
    if robust_sign and c["reading"] != MEANINGFUL:
        code = "improvement" if delta > 0 else "regression"
        return (f"{code} ({c['reading']}): {stat}; {robust_reason(c)}", code)
    if c["reading"] == RELABEL:
        return (
            f"relabel: unjudged {c['challenger_unjudged']:.0%} (challenger) and "
            f"{c['baseline_unjudged']:.0%} (baseline) at {c['cutoff']}; {judge}",
            "relabel",
        )
    if c["reading"] == UNINTERPRETABLE:
        return (f"uninterpretable: {c['reading_why']}; {judge}", "uninterpretable")
    if p_adjusted < alpha and delta != 0:
        code = "improvement" if delta > 0 else "regression"
        text = f"{code}: {stat}" + (f"; {robust_reason(c)}" if robust_sign else "")
        dr: DeltaRange = c["delta_range"]
        if dr.sign_can_flip:
            text += (
                f" (but the sign can still flip: delta ranges [{dr.low:.3f}, {dr.high:.3f}] "
                f"over the unjudged documents; {judge})"
            )
        return (text, code)
    mde = c["mde"]
    floor = f"; detectable effect {mde:.3f}" if not math.isnan(mde) else ""
    return (f"no-difference: {stat}{floor}", "no-difference")


def p_text(p: float) -> str:
    return f"{p:.3g}" if p >= 0.001 else f"{p:.1e}"
