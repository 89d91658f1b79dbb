"""One pass over the libyaml event stream: the guard's event checks (LP006-LP015) and the
plain data with the positions of the top-level keys, together (nothing is composed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from labelpool.findings import Finding
from labelpool.yamlfile import escapes
from labelpool.yamlfile.errors import mark_position
from labelpool.yamlfile.fast import ODD, KeyPath, PlainHook, plain_11, suspect_11
from labelpool.yamlfile.textcheck import DIRECTIVE_RE, MAX_DEPTH, line_col

_SCALAR = yaml.ScalarEvent
_MAP_START = yaml.MappingStartEvent
_SEQ_START = yaml.SequenceStartEvent
_MAP_END = yaml.MappingEndEvent
_SEQ_END = yaml.SequenceEndEvent
_ALIAS = yaml.AliasEvent
_DOC_START = yaml.DocumentStartEvent
_STREAM_END = yaml.StreamEndEvent

_COMPLEX_KEY: Any = object()  # the key of a mapping whose key is a collection


@dataclass
class EventScan:
    """What one pass over a document's libyaml events found and built.

    ``findings``: the guard's event-stream findings (anchors, aliases, merge keys, tags,
    directives, several documents, empty file, depth, duplicate keys, syntax errors), in the
    order the guard reports them. ``data``: the document's plain data, meaningful only when
    there are no findings. ``odd``: a plain scalar the hook could not resolve (it returned
    :data:`ODD`) or a mapping key that is a collection (``complex_key``: the start mark of
    the first): the caller reads the text with a full loader instead, which also gives the
    exact error. ``top``: each top-level key -> [start mark of the key, of its value].
    """

    findings: list[Finding]
    data: Any = None
    odd: bool = False
    complex_key: Any = None
    top: dict[str, list[Any]] = field(default_factory=dict)


def scan_events(
    where: str,
    text: str,
    max_depth: int = MAX_DEPTH,
    *,
    suspect: Callable[[str], Any] | None = None,
    on_plain: PlainHook | None = None,
    paths: bool = False,
) -> EventScan:
    """One pass over the libyaml event stream of ``text``: the guard's event checks and the
    plain data, together (PyYAML composes and constructs nothing).

    Quoted and block scalars are strings. A plain scalar is a string unless ``suspect(value)``
    matches; then it is ``on_plain(event, keypath, is_key)`` (for keys too); ``keypath`` is
    filled only with ``paths=True`` (else ``()``). The defaults resolve plain scalars as
    :func:`~labelpool.yamlfile.fast.pyyaml_loads` (PyYAML's YAML 1.1 safe loader) does.
    """
    if suspect is None or on_plain is None:
        suspect, on_plain = suspect_11, plain_11
    found: list[Finding] = []
    odd = False
    complex_key: Any = None
    # LP003/LP004 of escaped characters, after the others; only double-quoted scalars hold
    # escapes, and only a text with a backslash can hold one (one substring test)
    escaped: list[Finding] = []
    may_escape = "\\" in text
    tally: dict[str, int] = {}

    def at(mark: Any, rule: str, message: str) -> None:
        found.append(Finding(where, mark.line + 1, mark.column + 1, rule, message))

    def node_marks(event: Any) -> None:
        if event.anchor is not None:
            at(event.start_mark, "LP009", f"anchor &{event.anchor}; write the value out")
        if event.tag is not None:
            at(event.start_mark, "LP012", f"explicit tag {event.tag}; remove it")

    # one frame per open collection: [is_mapping, next node is a key, {raw key: line},
    # the container being built, the current key]
    stack: list[list[Any]] = []

    def keypath(leaf: Any, is_key: bool) -> KeyPath:
        if not paths or not stack:
            return ()
        steps = [f[4] if f[0] else len(f[3]) - 1 for f in stack[:-1]]
        frame = stack[-1]
        if not frame[0]:
            return (*steps, len(frame[3]))
        return (*steps, leaf, "<key>") if is_key else (*steps, frame[4])

    top: dict[str, list[Any]] = {}
    top_entry: list[Any] = [None, None]
    root: Any = None
    documents = 0
    root_empty = False
    parser = yaml.CSafeLoader(text)
    get_event: Callable[[], Any] = parser.get_event
    try:
        while True:
            event = get_event()
            kind = type(event)
            if kind is _SCALAR:
                value = event.value
                plain = not event.style
                if may_escape and event.style == '"' and escapes.suspect(value):
                    escapes.findings(where, text, event, tally, escaped)
                if stack:
                    frame = stack[-1]
                    if frame[0]:
                        if frame[1]:
                            frame[1] = False
                            line = event.start_mark.line + 1
                            if value == "<<" and plain:
                                at(event.start_mark, "LP011", "merge key <<; write the keys out")
                            first = frame[2].get(value)
                            if first is not None:
                                at(
                                    event.start_mark,
                                    "LP014",
                                    f"duplicate key {value!r} (lines {first} and {line})",
                                )
                            else:
                                frame[2][value] = line
                            if len(stack) == 1:
                                top_entry = [event.start_mark, None]
                                top[value] = top_entry
                            if plain and suspect(value):
                                value = on_plain(event, keypath(value, True), True)
                                if value is ODD:
                                    odd, value = True, event.value
                            frame[4] = value
                        else:
                            frame[1] = True
                            if len(stack) == 1:
                                top_entry[1] = event.start_mark
                            if plain and suspect(value):
                                value = on_plain(event, keypath(value, False), False)
                                odd = odd or value is ODD
                            frame[3][frame[4]] = value
                    else:
                        if plain and suspect(value):
                            value = on_plain(event, keypath(value, False), False)
                            odd = odd or value is ODD
                        frame[3].append(value)
                else:
                    root_empty = value == "" and plain and event.tag is None
                    if plain and suspect(value):
                        value = on_plain(event, (), False)
                        odd = odd or value is ODD
                    root = value
                if event.anchor is not None or event.tag is not None:
                    node_marks(event)
            elif kind is _MAP_START or kind is _SEQ_START:
                is_map = kind is _MAP_START
                container: Any = {} if is_map else []
                if stack:
                    frame = stack[-1]
                    if frame[0]:
                        if frame[1]:  # a collection as a mapping key
                            frame[1] = False
                            if complex_key is None:
                                complex_key = event.start_mark
                            frame[4] = _COMPLEX_KEY
                        else:
                            frame[1] = True
                            if len(stack) == 1:
                                top_entry[1] = event.start_mark
                            frame[3][frame[4]] = container
                    else:
                        frame[3].append(container)
                else:
                    root = container
                if event.anchor is not None or event.tag is not None:
                    node_marks(event)
                stack.append([is_map, is_map, {}, container, None])
                if len(stack) > max_depth:
                    at(event.start_mark, "LP013", f"nesting deeper than {max_depth} levels")
                    return EventScan(found + escaped)
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
        line, col = mark_position(exc)
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        found.append(Finding(where, line, col, "LP015", f"{problem}{context}"))
        return EventScan(found + escaped)
    except (yaml.YAMLError, RecursionError) as exc:
        found.append(Finding(where, 1, 1, "LP015", f"invalid YAML: {exc}"))
        return EventScan(found + escaped)
    finally:
        parser.dispose()
    if documents == 0 or (documents == 1 and root_empty):
        found.append(Finding(where, 1, 1, "LP008", "empty file: no YAML document"))
    if escaped:
        found += escaped
    return EventScan(found, root, odd or complex_key is not None, complex_key, top)
