"""A model's reply read onto a judge's scale, and several samples made one grade.

Never a guess: a reply that does not say one grade of the scale plainly is "can't judge",
with the reason (the raw reply is the caller's to keep).

* ``number`` (the default rule): the first integer in the reply, which must be a grade of the
  scale. ``2``, ``2.``, ``Grade: 2`` read as 2; ``2.5``, ``7`` (on a 0-3 scale), ``two``, an
  empty reply cannot be read.
* a mapping of words to grades: the whole reply, case, surrounding space, quotes and a final
  ``.``/``!`` aside, is one of the words (``Relevant.`` is ``relevant``; ``not relevant`` is
  only what the mapping says it is).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

# an integer that is not part of a decimal number (2.5) or of a longer word (v2, 2x)
_INTEGER = re.compile(r"(?<![\w.])-?[0-9]+(?![\w]|\.[0-9])")
_TRIM = " \t\r\n\"'`*.!"
MAX_SHOWN = 40  # characters of a reply quoted in an error


def read(
    reply: str, grades: Sequence[int], words: Sequence[tuple[str, int]] = ()
) -> tuple[int | None, str | None]:
    """(grade, None) when ``reply`` names one grade of ``grades`` (by the word mapping
    ``words`` when given, else by the number rule), else (None, why)."""
    if not reply.strip():
        return None, "can't judge: an empty reply"
    if words:
        said = reply.strip(_TRIM).casefold()
        for word, grade in words:
            if said == word.casefold():
                return grade, None
        return None, f"can't judge: the reply {_shown(reply)} is none of the answer's words"
    found = _INTEGER.search(reply)
    if found is None:
        return None, f"can't judge: no number in the reply {_shown(reply)}"
    value = int(found.group())
    if value not in grades:
        scale = ", ".join(map(str, grades))
        return None, f"can't judge: {value} is not a grade of the scale ({scale})"
    return value, None


def combine(samples: Sequence[int], how: str) -> int:
    """One grade of several readable samples: ``majority`` (the most frequent; a tie goes to
    the lower grade) or ``mean`` (rounded, half down: the lower grade again)."""
    if not samples:
        raise ValueError("no sample to combine")
    if how == "mean":
        total, n = sum(samples), len(samples)
        # round half down without floats: the largest integer g with g <= mean, plus one
        # when the remainder is over a half
        low, rest = divmod(total, n)
        return low + 1 if 2 * rest > n else low
    counts = Counter(samples)
    best = max(counts.values())
    return min(g for g, c in counts.items() if c == best)


def _shown(reply: str) -> str:
    text = " ".join(reply.split())
    return repr(text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "...")
