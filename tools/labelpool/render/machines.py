"""The one footnote of the machine-judged rate (``score``, ``compare``, ``check``, the
report): :func:`note` ``(k, judges) -> str``, shown once, only where machine verdicts count."""

from __future__ import annotations


def note(k: int | str, judges: str = "all") -> str:
    """What ``machine@k`` is, under the judges counted (``all`` or ``machines``)."""
    head = f"machine@{k}: the share of the top {k} judged only by a machine"
    if judges == "machines":
        return f"{head} (--judges machines: only machines' verdicts count)"
    return (
        f"{head} (a person's verdict outranks a machine's); --judges people counts those "
        "documents unjudged"
    )
