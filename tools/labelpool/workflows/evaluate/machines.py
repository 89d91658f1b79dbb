"""What machine verdicts do to a comparison: the reading without them.

:func:`without_machines` ``(with_, without) -> tuple[str, ...]`` names each comparison whose
verdict (``verdict_code``: improvement, regression, no-difference, uninterpretable, relabel)
differs between the comparison as made (machine verdicts counting) and the same comparison
made on persons' verdicts only (``--judges people``). ``compare`` says it after its tables,
so that a winner that only a machine's verdicts make is never read as the people's.
"""

from __future__ import annotations

from labelpool.workflows.evaluate.compare import CompareResult

__all__ = ["changed", "without_machines"]


def changed(with_: CompareResult, without: CompareResult) -> tuple[str, ...]:
    """One line per (pair, measure) whose verdict code differs between ``with_`` and
    ``without`` (matched by baseline, challenger and measure)."""
    other = {(c.baseline, c.challenger, c.measure): c for c in without.comparisons}
    out = []
    for c in with_.comparisons:
        o = other.get((c.baseline, c.challenger, c.measure))
        if o is None or o.verdict_code == c.verdict_code:
            continue
        out.append(
            f"{c.measure} {c.challenger} vs {c.baseline}: {c.verdict_code} with the machine "
            f"verdicts, {o.verdict_code} on people's verdicts alone (--judges people)"
        )
    return tuple(out)


def without_machines(with_: CompareResult, without: CompareResult | None) -> tuple[str, ...]:
    """:func:`changed`; ``without`` None: the runs cannot be compared on persons' verdicts
    (no question they share is judged by a person)."""
    if without is None:
        return (
            "on people's verdicts alone (--judges people) the runs cannot be compared: no "
            "question they share is judged by a person",
        )
    return changed(with_, without)
