"""LP041: line breaks git and YAML count differently (a lone CR, U+2028, U+2029).

git, ``git blame`` and GitHub's diffs count lines by LF alone; libyaml (YAML 1.1) also breaks
lines at a CR not followed by LF and at U+2028 / U+2029, ruamel (YAML 1.2) at a lone CR.
Such a character shifts blame lines against the YAML and can hide a live key from a reviewer
(``question: text<U+2028>grades: {doc: 3}`` is one line in the diff, two keys to PyYAML).
Positions count lines as git does (by LF). U+0085 (NEL) is LP003's, a C1 control.

``labelpool fmt`` replaces them by a space inside a scalar (:func:`fix`), and also where the
rest of their git line is blank (an empty line to YAML). Anywhere else (between a value and
a key, in a comment) what was meant cannot be known: the file is left for a person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labelpool.findings import Finding
from labelpool.yamlfile.nodes import Node, ViewError, compose_root
from labelpool.yamlfile.textcheck import TEXT_FINDINGS_CAP, line_col

RULE = "LP041"
BREAK_RE = re.compile("\r(?!\n)|[\u2028\u2029]")
_RAW = (b"\r", "\u2028".encode(), "\u2029".encode())
_NAMES = {
    "\r": "lone CR (U+000D)",
    "\u2028": "LINE SEPARATOR (U+2028)",
    "\u2029": "PARAGRAPH SEPARATOR (U+2029)",
}
_BLANK = " \t\r\u2028\u2029"


def may_hold(raw: bytes) -> bool:
    """Whether ``raw`` may hold one of them (a cheap byte test before decoding)."""
    return any(b in raw for b in _RAW)


def _message(ch: str) -> str:
    return (
        f"{_NAMES[ch]}: YAML reads a line break here, git does not (blame lines shift, a key "
        "can hide in one diff line); use a newline or a space (`labelpool fmt` replaces it "
        "inside a value)"
    )


def check_text(text: str) -> list[Finding]:
    """One finding per character (at most ``TEXT_FINDINGS_CAP``), path left empty."""
    out: list[Finding] = []
    for match in BREAK_RE.finditer(text):
        if len(out) >= TEXT_FINDINGS_CAP:
            break
        line, col = line_col(text, match.start())
        out.append(Finding("", line, col, RULE, _message(match.group())))
    return out


def check(raw: bytes) -> list[Finding]:
    """Findings on a file's bytes (none when they are not UTF-8: LP002 says so)."""
    if not may_hold(raw):
        return []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return []
    return check_text(text)


@dataclass(frozen=True)
class Fixed:
    """``text`` with every fixable character replaced by a space; ``left``: the others."""

    text: str
    replaced: int
    left: tuple[Finding, ...]


def _scalar_spans(text: str) -> list[tuple[int, int]] | None:
    """[start, end) character spans of every scalar of the YAML ``text`` (None: unreadable)."""
    try:
        root = compose_root(text.encode("utf-8"))
    except ViewError:
        return None
    spans: list[tuple[int, int]] = []
    todo: list[Node] = [root]
    while todo:  # iterative: nesting depth is bounded elsewhere, but never trust it here
        node = todo.pop()
        value = node.value
        if isinstance(value, str):
            spans.append((node.start_mark.index, node.end_mark.index))
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, tuple):
                    todo.extend(item)
                else:
                    todo.append(item)
    spans.sort()
    return spans


def _inside(spans: list[tuple[int, int]], index: int) -> bool:
    lo, hi = 0, len(spans)
    while lo < hi:  # the last span starting at or before index
        mid = (lo + hi) // 2
        if spans[mid][0] <= index:
            lo = mid + 1
        else:
            hi = mid
    return lo > 0 and spans[lo - 1][0] <= index < spans[lo - 1][1]


def _blank_after(text: str, index: int) -> bool:
    """The rest of the git line after ``index`` is blank (to YAML an empty line)."""
    end = text.find("\n", index)
    return not text[index + 1 : len(text) if end < 0 else end].strip(_BLANK)


def fix(text: str) -> Fixed:
    """Each lone CR, U+2028 and U+2029 inside a scalar, or with only blanks after it on its
    git line, replaced by a space; every other character is kept and reported in ``left``."""
    matches = list(BREAK_RE.finditer(text))
    if not matches:
        return Fixed(text, 0, ())
    spans = _scalar_spans(text)
    chars = list(text)
    left: list[Finding] = []
    replaced = 0
    for match in matches:
        at = match.start()
        if (spans is not None and _inside(spans, at)) or _blank_after(text, at):
            chars[at] = " "
            replaced += 1
        else:
            line, col = line_col(text, at)
            left.append(
                Finding(
                    "",
                    line,
                    col,
                    RULE,
                    f"{_NAMES[match.group()]} between YAML tokens: fmt cannot tell whether a "
                    "line break or a space was meant; replace it by hand",
                )
            )
    return Fixed("".join(chars), replaced, tuple(left))
