"""Questions the averages treat apart, in words (every format but JSON, which lists them all).

* questions whose labels hold no relevant document: averaged in, every measure scores 0 on
  them for every system;
* questions nobody judged (no judgment, or only unjudged, ``-1``, grades): left out of every
  average, ``skipped: not judged``.

Pure Python: the score and compare renderers of every format use it.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_NAMED = 8  # question ids named in text; JSON names them all


def named(ids: Sequence[str], limit: int = MAX_NAMED) -> str:
    """Up to ``limit`` ids, then how many more (``--format json`` lists them all)."""
    shown = ", ".join(ids[:limit])
    more = len(ids) - limit
    return shown + (f" and {more} more (--format json lists all)" if more > 0 else "")


def question_notes(no_relevant: Sequence[str], not_judged: Sequence[str]) -> list[str]:
    """One line each for the questions with no relevant document and the skipped ones."""
    out = []
    if no_relevant:
        out.append(
            f"no relevant document ({len(no_relevant)}; averaged in, 0 for every system): "
            f"{named(no_relevant)}"
        )
    if not_judged:
        out.append(f"skipped: not judged ({len(not_judged)}): {named(not_judged)}")
    return out
