"""The reading of two unjudged rates side by side: is the comparison of two systems licensed?

A rate is *low* up to ``readings.high`` (default 0.10) and *high* above it.

==========  ==========  ====================================================================
baseline    challenger  reading
==========  ==========  ====================================================================
low         low         ``meaningful``, unless one rate is at least ``ratio`` (3) times the
                        other *and* they differ by at least ``min_difference`` (0.05):
                        ``uninterpretable`` (the ratio alone means nothing when one rate is 0)
low         high        ``uninterpretable`` (one system was penalised for being different)
high        low         ``uninterpretable``
high        high        ``relabel`` (neither system has been evaluated; judge first)
==========  ==========  ====================================================================
"""

from __future__ import annotations

from labelpool.config import Readings

MEANINGFUL = "meaningful"
UNINTERPRETABLE = "uninterpretable"
RELABEL = "relabel"


def is_high(rate: float, readings: Readings) -> bool:
    return rate > readings.high


def reading(baseline_rate: float, challenger_rate: float, readings: Readings) -> str:
    """``meaningful``, ``uninterpretable`` or ``relabel`` for two unjudged rates (see above)."""
    for rate in (baseline_rate, challenger_rate):
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"unjudged rate {rate!r} is not between 0 and 1")
    high_b = is_high(baseline_rate, readings)
    high_c = is_high(challenger_rate, readings)
    if high_b and high_c:
        return RELABEL
    if high_b or high_c:
        return UNINTERPRETABLE
    lo, hi = sorted((baseline_rate, challenger_rate))
    if hi >= readings.ratio * lo and hi - lo >= readings.min_difference - 1e-12:
        return UNINTERPRETABLE
    return MEANINGFUL


def why(baseline_rate: float, challenger_rate: float, readings: Readings) -> str:
    """One phrase saying why :func:`reading` said what it said."""
    r = reading(baseline_rate, challenger_rate, readings)
    if r == RELABEL:
        return f"both unjudged rates are above {readings.high:.0%}"
    if r == MEANINGFUL:
        return f"both unjudged rates are at most {readings.high:.0%} and alike"
    if is_high(challenger_rate, readings):
        return f"challenger unjudged {challenger_rate:.0%} vs {baseline_rate:.0%}"
    if is_high(baseline_rate, readings):
        return f"baseline unjudged {baseline_rate:.0%} vs {challenger_rate:.0%}"
    who = "challenger" if challenger_rate > baseline_rate else "baseline"
    other = baseline_rate if who == "challenger" else challenger_rate
    mine = max(baseline_rate, challenger_rate)
    return f"{who} unjudged {mine:.0%} vs {other:.0%} (at least {readings.ratio:g}x)"
