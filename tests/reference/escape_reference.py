"""The guard with escapes (issue 29): the reference guard (``guard_reference``, the guard as it
was), then LP003 and LP004 for every escape of a double-quoted scalar that stands for such
a character, at its backslash, at most 20 per rule, after the event findings.

Written apart from ``labelpool.yamlfile.escapes``: an escape is decoded by PyYAML itself (a
one-escape document), the characters are told by ``unicodedata`` and the bidi list of the
rule's doc, positions are counted on the text by hand.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import yaml

from labelpool.findings import Finding
from labelpool.yamlfile.textcheck import MAX_BYTES, MAX_DEPTH, text_findings
from reference.guard_reference import reference_guard

CAP = 20
BIDI = {0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x061C}
_LENGTHS = {"x": 4, "u": 6, "U": 10}
# every character LP003 or LP004 refuses (raw, or written as an escape)
REFUSED = "".join(
    chr(c) for c in [*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), *BIDI]
)


def rule_of(ch: str) -> tuple[str, str] | None:
    """(rule, what) of a character LP003 or LP004 refuses, else None."""
    if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r":
        return "LP003", "control character"
    if ord(ch) in BIDI:
        return "LP004", "bidirectional control character"
    return None


def _name(ch: str) -> str:
    names = {0: " (NUL)", 0x7F: " (DEL)", 0x85: " (NEL)"}
    return f"U+{ord(ch):04X}{names.get(ord(ch), '')}"


def _position(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def escape_findings(where: str, text: str, max_depth: int = MAX_DEPTH) -> list[Finding]:
    out: list[Finding] = []
    counts: dict[str, int] = {}
    shift = 1 if text.startswith("\ufeff") else 0
    parser = yaml.CSafeLoader(text)
    depth = 0
    try:
        while True:
            event = parser.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    break
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.ScalarEvent) and event.style == '"':
                start = event.start_mark.index + shift
                source = text[start : event.end_mark.index + shift]
                i = 1
                while i < len(source) - 1:
                    if source[i] != "\\":
                        i += 1
                        continue
                    written = source[i : i + _LENGTHS.get(source[i + 1], 2)]
                    i += len(written)
                    if written[1] in "\r\n\x85\u2028\u2029":
                        continue  # an escaped line break
                    value = yaml.safe_load(f'"{written}"')
                    found = rule_of(value) if len(value) == 1 else None
                    if found is None or counts.get(found[0], 0) >= CAP:
                        continue
                    counts[found[0]] = counts.get(found[0], 0) + 1
                    line, col = _position(text, start + i - len(written))
                    message = f"{found[1]} {_name(value)}, written as {written}"
                    out.append(Finding(where, line, col, found[0], message))
            elif isinstance(event, yaml.StreamEndEvent):
                break
    except (yaml.YAMLError, RecursionError):
        pass
    finally:
        parser.dispose()
    return out


def guard_with_escapes(
    path: Path, raw: bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> list[Finding]:
    """The reference guard's findings, then the escapes' (when the text checks passed)."""
    found = reference_guard(path, raw, max_bytes=max_bytes, max_depth=max_depth)
    if text_findings(path, raw, max_bytes)[0]:
        return found
    return found + escape_findings(str(path), raw.decode("utf-8"), max_depth)


def any_escape(value: Any) -> bool:
    """Whether a plain value holds a character LP003 or LP004 refuses (keys too)."""
    if isinstance(value, dict):
        return any(any_escape(k) or any_escape(v) for k, v in value.items())
    if isinstance(value, list):
        return any(any_escape(v) for v in value)
    return isinstance(value, str) and any(rule_of(c) for c in value)
