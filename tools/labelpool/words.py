"""Counted nouns in messages: ``1 document``, ``2 documents``, never ``1 documents``."""

from __future__ import annotations

import unicodedata


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """``singular`` for one, else ``plural`` (default: ``singular`` + ``s``)."""
    return singular if n == 1 else plural or f"{singular}s"


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and its noun: ``counted(1, "question")`` is ``1 question``,
    ``counted(3, "entry", "entries")`` ``3 entries``."""
    return f"{n} {noun(n, singular, plural)}"


def one_line(text: str) -> str:
    """``text`` fit for one comment line: controls, bidi and format characters become spaces,
    runs of spaces one, NFC."""
    chars = [
        " " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") else c
        for c in text
    ]
    return unicodedata.normalize("NFC", " ".join("".join(chars).split()))
