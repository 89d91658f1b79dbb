"""Text as the near-duplicate finder compares it: normalised, cut into words, into shingles.

``normalise``: Unicode NFKC, case folded, whitespace collapsed (idempotent). ``words``: the
runs of word characters of the normalised text (punctuation is not a word, so a reflowed or
re-punctuated copy has the same words). ``shingles``: the word ``n``-grams (default 5); a text
of fewer than ``n`` words has one shingle of all its words, an empty text none. ``hashed``: the
same shingles as 64-bit integers (stable across processes), what the finder keeps: one hash per
distinct word, then a vectorised combination of ``n`` neighbours, so a 10 MB text costs about a
second and no string per shingle.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from hashlib import blake2b

import numpy as np
import numpy.typing as npt

SHINGLE = 5  # words per shingle
_WORD = re.compile(r"\w+")
# one odd 64-bit multiplier per position in a shingle (order matters: "a b" is not "b a")
_MULTIPLIERS = tuple(
    int.from_bytes(blake2b(f"shingle position {i}".encode(), digest_size=8).digest()) | 1
    for i in range(64)
)


def normalise(text: str) -> str:
    """NFKC, case folded (and NFKC again: folding can undo it), whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return " ".join(folded.split())


def words(text: str) -> list[str]:
    """The words of the normalised text, in order."""
    return _WORD.findall(normalise(text))


def shingles(text: str, n: int = SHINGLE) -> frozenset[str]:
    """The word ``n``-grams of the normalised text, each its words joined by one space."""
    ws = words(text)
    if len(ws) < n:
        return frozenset({" ".join(ws)}) if ws else frozenset()
    return frozenset(" ".join(ws[i : i + n]) for i in range(len(ws) - n + 1))


@lru_cache(maxsize=1 << 18)
def _word_hash(word: str) -> int:
    return int.from_bytes(blake2b(word.encode("utf-8", "surrogatepass"), digest_size=8).digest())


def hashed_array(text: str, n: int = SHINGLE) -> npt.NDArray[np.uint64]:
    """The shingles of ``text`` as sorted distinct 64-bit integers (empty text: empty array)."""
    if not 1 <= n <= len(_MULTIPLIERS):
        raise ValueError(f"shingle size must be 1 to {len(_MULTIPLIERS)}, not {n}")
    ws = words(text)
    h = np.fromiter((_word_hash(w) for w in ws), dtype=np.uint64, count=len(ws))
    if len(ws) < n:  # one shingle of all its words (none when there are none)
        n = len(ws)
        if n == 0:
            return h
    width = len(ws) - n + 1
    combined = np.zeros(width, dtype=np.uint64)
    for i in range(n):  # uint64 arithmetic wraps around: a hash modulo 2**64
        combined += h[i : i + width] * np.uint64(_MULTIPLIERS[i])
    combined ^= combined >> np.uint64(29)
    return np.unique(combined)


def hashed(text: str, n: int = SHINGLE) -> frozenset[int]:
    """:func:`shingles` as 64-bit integers: one for each shingle (collisions aside)."""
    return frozenset(hashed_array(text, n).tolist())
