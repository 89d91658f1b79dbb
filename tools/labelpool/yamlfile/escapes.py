"""An escape is the character it stands for: LP003 and LP004 on what double-quoted scalars
parse to, at the position of each escape's backslash.

The raw text check (:mod:`.textcheck`) refuses a raw control or bidirectional character; a
double-quoted scalar can write the same character as an escape (``"\\e[31m"``, ``"\\x1b"``,
``"\\u202e"``, ``"\\0"``, ``"\\N"``...), which only the parsed value shows. Only double-quoted
scalars hold escapes, so a text without a backslash is never looked at here (the caller's
one substring test), and a scalar only when its value holds such a character (one regular
expression search): the escapes are then read again from the source to say where each is.
"""

from __future__ import annotations

import re
from typing import Any

from labelpool.findings import Finding
from labelpool.yamlfile.textcheck import (
    BIDI_RE,
    CONTROL_OR_BIDI_RE,
    CONTROL_RE,
    TEXT_FINDINGS_CAP,
    char_name,
    line_col,
)

# YAML's one-character escapes (1.1 and 1.2 alike) -> the character they stand for
_SIMPLE = {
    "0": "\x00",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_BREAKS = "\r\n\x85\u2028\u2029"  # a backslash before a line break joins the lines
_RULES = (
    ("LP003", CONTROL_RE, "control character"),
    ("LP004", BIDI_RE, "bidirectional control character"),
)


def suspect(value: str) -> bool:
    """Whether a double-quoted scalar's value holds a character LP003 or LP004 refuses."""
    return CONTROL_OR_BIDI_RE.search(value) is not None


# the node properties before a scalar's opening quote (libyaml's event starts at them), with
# the spaces, line breaks and comments that may separate them
_PROPERTIES_RE = re.compile(r"(?:[&!][^\s]*(?:[ \t\r\n]|#[^\n]*)*)*")


def escapes(source: str) -> list[tuple[int, str, str]]:
    """(index of the backslash, the escape as written, the character) of each escape in the
    source ``source`` of a double-quoted scalar (from its opening quote); an escaped line
    break, which stands for no character, is left out."""
    out: list[tuple[int, str, str]] = []
    i = source.find("\\", 1)
    while i >= 0:
        code = source[i + 1 : i + 2]
        width = _HEX.get(code, 0)
        if width:
            end = i + 2 + width
            digits = source[i + 2 : end]
            if len(digits) == width and all(c in _HEX_DIGITS for c in digits):
                code_point = int(digits, 16)
                if code_point <= 0x10FFFF:  # else the parser refused it already
                    out.append((i, source[i:end], chr(code_point)))
        elif code in _SIMPLE:
            out.append((i, source[i : i + 2], _SIMPLE[code]))
            end = i + 2
        else:
            end = i + 2 if code and code in _BREAKS else i + 1
        i = source.find("\\", end)
    return out


def findings(where: str, text: str, event: Any, counts: dict[str, int], out: list[Finding]) -> None:
    """Append to ``out`` the LP003 and LP004 findings of the double-quoted scalar ``event``
    of ``text`` (its value holds such a character: :func:`suspect`), one per escape at its
    backslash, at most ``TEXT_FINDINGS_CAP`` per rule in a file (``counts`` keeps the tally).
    """
    bom = 1 if text.startswith("\ufeff") else 0  # libyaml's marks do not count it
    start = event.start_mark.index + bom
    source = text[start : event.end_mark.index + bom]
    skip = _PROPERTIES_RE.match(source)  # an anchor or a tag: the event starts there
    if skip is not None and skip.end():
        start += skip.end()
        source = source[skip.end() :]
    found = escapes(source) if source.startswith('"') else []
    if not any(suspect(ch) for _, _, ch in found):  # never seen: cite the scalar itself
        match = CONTROL_OR_BIDI_RE.search(event.value)
        found = [(0, "an escape", match.group())] if match else []
        start = min(start, len(text))
    for index, written, ch in found:
        for rule, regex, what in _RULES:
            n = counts.get(rule, 0)
            if n < TEXT_FINDINGS_CAP and regex.match(ch):
                counts[rule] = n + 1
                line, col = line_col(text, start + index)
                message = f"{what} {char_name(ch)}, written as {written}"
                out.append(Finding(where, line, col, rule, message))
