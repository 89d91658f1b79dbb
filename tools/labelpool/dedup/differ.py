"""What differs between two near-duplicate texts, on one line: the words they do not share.

The costly mistake is a pair that looks alike and says different things (two storefronts from
one template, with their own names and numbers): the proposal's comment shows those words,
``"Acme" "12" / "Initech" "14"``, each side's in the order they first appear. The words are
NFKC-normalised and compared case-folded; the line is never longer than ``width``. It is
plain text from a file: the caller sanitises it before a terminal sees it.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"\w+")
ELLIPSIS = "…"
NOTHING = "(none)"


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text))


def _only(mine: list[str], theirs: list[str]) -> list[str]:
    other = {w.casefold() for w in theirs}
    out: list[str] = []
    seen: set[str] = set()
    for w in mine:
        key = w.casefold()
        if key not in other and key not in seen:
            seen.add(key)
            out.append(w)
    return out


def _fit(words: list[str], width: int) -> str:
    """The quoted words, as many as fit in ``width`` (an ellipsis when some are left out)."""
    if not words:
        return NOTHING if len(NOTHING) <= width else ""
    out = ""
    for i, w in enumerate(words):
        piece = f'"{w}"' if not out else f' "{w}"'
        more = i + 1 < len(words)
        room = width - (len(ELLIPSIS) + 1 if more else 0)
        if len(out) + len(piece) > room:
            tail = (" " if out else "") + ELLIPSIS
            return out + tail if len(out) + len(tail) <= width else out
        out += piece
    return out


def differing(a_text: str, b_text: str, width: int = 100) -> str:
    """The words of ``a_text`` not in ``b_text``, ``/``, and the other way round; ``""`` when
    both texts have the same words. At most ``width`` characters."""
    a, b = _words(a_text), _words(b_text)
    left, right = _only(a, b), _only(b, a)
    if not left and not right:
        return ""
    half = max(0, (width - 3) // 2)
    first = _fit(left, half)
    second = _fit(right, max(0, width - 3 - len(first)))
    line = f"{first} / {second}"
    return line if len(line) <= width else line[:width]
