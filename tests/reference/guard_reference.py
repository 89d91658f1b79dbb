"""The safety guard as it was before the one-pass reader (``yamlfile.scan_events``): the oracle
the one-pass tests compare against. A verbatim copy of ``yamlio.guard`` and its event pass
at commit 4e65856 (only names changed); do not edit it to make a test pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from labelpool.findings import Finding
from labelpool.yamlfile.textcheck import (
    BIDI_RE,
    CONFLICT_RE,
    CONTROL_RE,
    DIRECTIVE_RE,
    MAX_BYTES,
    MAX_DEPTH,
    TEXT_FINDINGS_CAP,
    char_name,
    line_col,
)


def reference_guard(
    path: Path, raw: bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> list[Finding]:
    """Safety findings for the bytes ``raw`` of the file ``path`` (empty list: safe to load)."""
    where = str(path)

    def at(line: int, col: int, rule: str, message: str) -> Finding:
        return Finding(where, line, col, rule, message)

    if len(raw) > max_bytes:
        return [at(1, 1, "LP001", f"file has {len(raw)} bytes; the bound is {max_bytes}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[start : exc.start].decode("utf-8", errors="replace")) + 1
        return [at(line, col, "LP002", f"invalid UTF-8 byte 0x{raw[exc.start]:02X}")]

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
        for n, match in enumerate(regex.finditer(text)):
            if n >= TEXT_FINDINGS_CAP:
                break
            line, col = line_col(text, match.start())
            found.append(at(line, col, rule, f"{what} {char_name(match.group())}"))
    for n, match in enumerate(CONFLICT_RE.finditer(text)):
        if n >= TEXT_FINDINGS_CAP:
            break
        line, _ = line_col(text, match.start())
        found.append(
            at(line, 1, "LP005", f"merge-conflict marker {match.group()!r}; resolve the conflict")
        )
    if found:
        return sorted(found)
    return _reference_events(where, text, max_depth)


_SCALAR = yaml.ScalarEvent
_MAP_START = yaml.MappingStartEvent
_SEQ_START = yaml.SequenceStartEvent
_MAP_END = yaml.MappingEndEvent
_SEQ_END = yaml.SequenceEndEvent
_ALIAS = yaml.AliasEvent
_DOC_START = yaml.DocumentStartEvent
_STREAM_END = yaml.StreamEndEvent


def _reference_events(where: str, text: str, max_depth: int) -> list[Finding]:
    """Event-stream checks (libyaml): nothing is composed or constructed."""
    found: list[Finding] = []

    def at(mark: Any, rule: str, message: str) -> None:
        found.append(Finding(where, mark.line + 1, mark.column + 1, rule, message))

    def node_marks(event: Any) -> None:
        if event.anchor is not None:
            at(event.start_mark, "LP009", f"anchor &{event.anchor}; write the value out")
        if event.tag is not None:
            at(event.start_mark, "LP012", f"explicit tag {event.tag}; remove it")

    # one frame per open collection: [is_mapping, next node is a key, {key: line}]
    stack: list[list[Any]] = []
    documents = 0
    root_empty = False
    parser = yaml.CSafeLoader(text)
    get_event = parser.get_event
    try:
        while True:
            event = get_event()
            kind = type(event)
            if kind is _SCALAR:
                if stack:
                    top = stack[-1]
                    if top[0]:
                        if top[1]:
                            top[1] = False
                            value = event.value
                            line = event.start_mark.line + 1
                            if value == "<<" and not event.style:
                                at(event.start_mark, "LP011", "merge key <<; write the keys out")
                            first = top[2].get(value)
                            if first is not None:
                                at(
                                    event.start_mark,
                                    "LP014",
                                    f"duplicate key {value!r} (lines {first} and {line})",
                                )
                            else:
                                top[2][value] = line
                        else:
                            top[1] = True
                else:
                    root_empty = event.value == "" and not event.style and event.tag is None
                if event.anchor is not None or event.tag is not None:
                    node_marks(event)
            elif kind is _MAP_START or kind is _SEQ_START:
                if stack and stack[-1][0]:
                    stack[-1][1] = not stack[-1][1]
                if event.anchor is not None or event.tag is not None:
                    node_marks(event)
                is_map = kind is _MAP_START
                stack.append([is_map, is_map, {}])
                if len(stack) > max_depth:
                    at(event.start_mark, "LP013", f"nesting deeper than {max_depth} levels")
                    return found
            elif kind is _MAP_END or kind is _SEQ_END:
                stack.pop()
            elif kind is _ALIAS:
                if stack and stack[-1][0]:
                    stack[-1][1] = not stack[-1][1]
                at(event.start_mark, "LP010", f"alias *{event.anchor}; write the value out")
            elif kind is _DOC_START:
                documents += 1
                if documents == 2:
                    at(event.start_mark, "LP007", "a second YAML document; keep one per file")
                if event.version or event.tags:  # a directive after a first document
                    match = DIRECTIVE_RE.search(text)
                    pos = match.start() if match else 0
                    line, col = line_col(text, pos)
                    found.append(Finding(where, line, col, "LP006", "directive; remove it"))
            elif kind is _STREAM_END:
                break
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        found.append(Finding(where, line, col, "LP015", f"{problem}{context}"))
        return found
    except (yaml.YAMLError, RecursionError) as exc:
        found.append(Finding(where, 1, 1, "LP015", f"invalid YAML: {exc}"))
        return found
    finally:
        parser.dispose()
    if documents == 0 or (documents == 1 and root_empty):
        found.append(Finding(where, 1, 1, "LP008", "empty file: no YAML document"))
    return found
