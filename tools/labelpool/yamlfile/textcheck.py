"""The guard's checks on a file's bytes and text, before any YAML is read (LP001-LP006).

Size, UTF-8, control and bidirectional characters, merge-conflict markers, directives. The
patterns are public: the reference guard of the tests (``tests/reference``) is built on them.
"""

from __future__ import annotations

import re
from pathlib import Path

from labelpool.findings import Finding

MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 32

SAFETY_RULES: dict[str, str] = {
    "LP001": "file larger than the size bound (4 MiB by default)",
    "LP002": "file is not valid UTF-8",
    "LP003": "NUL, C0 (other than tab, newline, CR), DEL or C1 (incl. NEL) control character, "
    "raw or as a double-quoted escape (`\\e`, `\\x1b`, `\\0`, `\\N`...)",
    "LP004": "bidirectional control character (U+200E/F, U+202A-202E, U+2066-2069, U+061C), "
    "raw or as a double-quoted escape (`\\u202e`...)",
    "LP005": "merge-conflict marker (<<<<<<<, =======, >>>>>>>, |||||||) at a line start",
    "LP006": "%YAML or %TAG directive (it changes how the file is read)",
    "LP007": "more than one YAML document in the file",
    "LP008": "empty file (no YAML document)",
    "LP009": "YAML anchor (&name)",
    "LP010": "YAML alias (*name)",
    "LP011": "YAML merge key (<<)",
    "LP012": "explicit YAML tag (!tag, !!type)",
    "LP013": "nesting deeper than the depth bound (32 by default)",
    "LP014": "duplicate mapping key",
    "LP015": "YAML syntax error",
}

TEXT_FINDINGS_CAP = 20  # per rule: enough to fix a file, never a flood

CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
BIDI_RE = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
CONFLICT_RE = re.compile(r"^(?:<{7}|={7}|>{7}|\|{7})(?=[ \t\r\n]|$)", re.MULTILINE)
DIRECTIVE_RE = re.compile(r"^%", re.MULTILINE)
CONTROL_OR_BIDI_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]"
)
CONFLICT_MARKERS = ("<" * 7, "=" * 7, ">" * 7, "|" * 7)

_C0_NAMES = {0: "NUL", 0x7F: "DEL", 0x85: "NEL"}
# characters a written string must carry as escapes (double quotes), never raw
ESCAPE_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u061c\u2028\u2029\ufeff]"
)


def line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def char_name(ch: str) -> str:
    code = ord(ch)
    name = _C0_NAMES.get(code, "")
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def text_findings(
    path: Path, raw: bytes, max_bytes: int = MAX_BYTES
) -> tuple[list[Finding], str | None]:
    """Checks on the bytes and the text (size, UTF-8, controls, conflict markers, directives):
    (sorted findings, the decoded text; None when it is too large or not UTF-8)."""
    where = str(path)

    def at(line: int, col: int, rule: str, message: str) -> Finding:
        return Finding(where, line, col, rule, message)

    if len(raw) > max_bytes:
        return [at(1, 1, "LP001", f"file has {len(raw)} bytes; the bound is {max_bytes}")], None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[start : exc.start].decode("utf-8", errors="replace")) + 1
        return [at(line, col, "LP002", f"invalid UTF-8 byte 0x{raw[exc.start]:02X}")], None

    found: list[Finding] = []
    head = text.split("\n", 200)[:200] if text.startswith("%") or "\n%" in text else []
    for n, line_text in enumerate(head, start=1):
        stripped = line_text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line_text.startswith("%"):
            word = line_text.split()[0]
            found.append(at(n, 1, "LP006", f"{word} directive; remove it"))
            continue
        break  # directives only come before the document
    for rule, regex, what in (
        ("LP003", CONTROL_RE, "control character"),
        ("LP004", BIDI_RE, "bidirectional control character"),
    ):
        if not CONTROL_OR_BIDI_RE.search(text):
            break  # the common case: one search for both
        for n, match in enumerate(regex.finditer(text)):
            if n >= TEXT_FINDINGS_CAP:
                break
            line, col = line_col(text, match.start())
            found.append(at(line, col, rule, f"{what} {char_name(match.group())}"))
    markers = any(m in text for m in CONFLICT_MARKERS)  # a substring test is cheaper
    for n, match in enumerate(CONFLICT_RE.finditer(text) if markers else ()):
        if n >= TEXT_FINDINGS_CAP:
            break
        line, _ = line_col(text, match.start())
        found.append(
            at(line, 1, "LP005", f"merge-conflict marker {match.group()!r}; resolve the conflict")
        )
    return sorted(found), text
