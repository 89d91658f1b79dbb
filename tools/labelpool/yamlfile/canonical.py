"""The canonical line reader: a file in the block style labelpool writes, read line by line.

About a sixth of the cost of libyaml's events; anything outside its small subset is left to
the event pass (:data:`~labelpool.yamlfile.fast.ODD`). Property tests hold it to that pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from labelpool.errors import LabelpoolError
from labelpool.yamlfile.fast import ODD, PlainText, resolve_11, suspect_11

Suspect = Callable[[str], Any]


class NotCanonical(LabelpoolError):
    """The text leaves the small YAML subset :func:`read_canonical` reads: use the event pass.

    Control flow between this module and :mod:`labelpool.yamlfile.reading`, never shown."""

    def __init__(self, message: str = "outside the canonical subset") -> None:
        super().__init__(message)


# Characters a plain scalar in this subset never starts with (YAML indicators: anchors,
# aliases, tags, block scalars, directives, flow collections, quotes, comments, `-?:`).
_BAD_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`")
# Anything that makes line-by-line reading unsafe: tabs, CR, YAML's other line breaks, BOM.
NOT_LINEWISE = re.compile("[\t\r\u2028\u2029\ufeff\ufffe\uffff]")


def read_canonical(
    text: str,
    max_depth: int,
    suspect: Callable[[str], Any] | None = None,
    plain: PlainText | None = None,
) -> Any:
    """Plain data of ``text`` when it is written in the block style labelpool writes, else
    :data:`ODD`; the result is then exactly what :func:`scan_events` (and PyYAML) give.

    Small on purpose: a top-level block mapping whose values are one-line plain or quoted
    scalars, one-line flow lists and mappings of scalars, or block mappings and sequences
    (``- - a`` and ``- k: v`` compact forms); comments. A block list of plain ids, the bulk
    of a label, is split in C. Anything else (anchors, aliases, tags, block scalars,
    multi-line scalars, directives, several documents, duplicate keys, deep nesting, odd
    indentation, a scalar the resolver leaves to PyYAML) is not read here: the caller falls
    back to the event pass, which applies every check. Property tests hold it to that pass.
    Run it only on text :func:`text_findings` accepts.

    ``suspect`` and ``plain`` work as in :func:`scan_events`, but ``plain(text, is_key)`` gets
    the scalar's text and may raise :class:`NotCanonical`; the defaults read as PyYAML does.
    """
    if suspect is None or plain is None:
        suspect, plain = suspect_11, _plain
    if NOT_LINEWISE.search(text) or not text.endswith("\n") or " \n" in text:
        return ODD
    body_text = _uncommented(text)
    if not body_text or body_text[0] == " ":
        return ODD
    out: dict[Any, Any] = {}
    seen: set[str] = set()
    sections = _SECTION_SPLIT.split(body_text)
    last = len(sections) - 1
    try:
        for n, section in enumerate(sections):
            head, _, body = section.partition("\n")
            if n != last and body:
                body += "\n"  # the split took the newline ending the section
            if head.startswith(("---", "...", "- ")) or head == "-":
                return ODD
            key, rest = _new_key(head, plain, suspect, seen, out)
            if rest and rest[0] != "#":
                if body:
                    return ODD  # a multi-line scalar
                value = _scalar(rest, 1, max_depth, plain, suspect)
            elif not body:
                value = None
            elif _PLAIN_LIST.fullmatch(body) and ": " not in body and " #" not in body:
                if max_depth < 2:
                    return ODD
                value = body[4:-1].split("\n  - ")
                if (_SUSPECT_ITEM.search(body) or body[4] in _SUSPECT_FIRST) and any(
                    map(suspect, value)
                ):
                    value = [plain(v, False) if suspect(v) else v for v in value]
            elif (
                key == "verdicts"
                and max_depth >= 4
                and ((record := _verdict_map(body, plain, suspect)) is not None)
            ):
                value = record
            elif _GRADE_MAP.fullmatch(body) and " #" not in body:
                if max_depth < 2:
                    return ODD
                value = {
                    plain(k, True) if suspect(k) else k: int(v)
                    for k, v in _GRADE_ITEM.findall(body)
                }
                if len(value) != body.count("\n"):
                    return ODD  # duplicate keys: the event pass reports them
            elif (
                max_depth >= 3
                and body.startswith("  - ")
                and ((items := _flat_maps(body, plain, suspect)) is not None)
            ):
                value = items
            else:
                rows: list[tuple[int, str]] = []
                for line in body[:-1].split("\n"):
                    content = line.lstrip(" ")
                    rows.append((len(line) - len(content), content))
                value, end = _block(_Block(rows, max_depth, plain, suspect), 0, rows[0][0], 2)
                if end != len(rows):
                    return ODD
            out[key] = value
    except NotCanonical:
        return ODD
    return out


def _uncommented(text: str) -> str:
    """``text`` without its full-line comments and blank lines (what the event pass skips);
    a file whose only comments are its first lines needs no regular expression."""
    start = 0
    while text.startswith("#", start):
        start = text.index("\n", start) + 1  # the text ends with a newline
    if "#" not in text[start:] and "\n\n" not in text and not text.startswith("\n", start):
        return text[start:]
    return _COMMENT_LINES.sub("", text)


# full-line comments and blank lines (what the event pass skips too)
_COMMENT_LINES = re.compile(r"^ *(?:#[^\n]*)?\n", re.MULTILINE)
_SECTION_SPLIT = re.compile(r"\n(?=[^ ])")  # a top-level line starts a section
# Items of a plain block list that a resolver may read as a non-string start with one of
# these (a superset of both resolutions' suspects; the one found is checked exactly).
_SUSPECT_FIRST = frozenset("-+.0123456789~=<!&*yYnNoOtTfF")
_SUSPECT_ITEM = re.compile(r"\n  - [-+.0-9~=<!&*yYnNoOtTfF]")
# a block list of one-line plain scalars at indent 2 (no indicator first; checked for `: `
# and ` #` separately)
_PLAIN_LIST = re.compile(r"(?:  - [^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*\n)+")
# a block mapping of plain keys to small positive integers at indent 2 (``grades``)
_GRADE_MAP = re.compile(r"(?:  [^\s\-?:,\[\]{}#&*!|>'\"%@`][^\s:]*: [1-9][0-9]{0,8}\n)+")
_GRADE_ITEM = re.compile(r"^  ([^\s:]+): ([0-9]+)$", re.MULTILINE)

# A ``verdicts`` block as labelpool writes it (labelfile/record.py): plain document keys at
# indent 2, each over one-line flow mappings ``{judge: J[, kind: K], verdict: V}`` (or
# ``adjudicator``) of simple plain scalars at indent 4. Read line by line by one regular
# expression, in about a fifth of the generic block reader's time; any other line leaves the
# whole block to the generic reader (which is the reference: ``_verdict_map`` must give what
# it gives). A simple scalar is what ``_flow_scalar`` reads: no indicator first, none of
# ``:#[]{}'"`` and no comma anywhere, no space at either end.
_FLOW_PLAIN = r"[^\s\-?:,\[\]{}#&*!|>'\"%@`](?:[^\n:,#\[\]{}'\"]*[^\s:,#\[\]{}'\"])?"
_VERDICT_LINE = re.compile(
    r"  ([^\s\-?:,\[\]{}#&*!|>'\"%@`][^\s:]*):\n"
    rf"|    - \{{(judge|adjudicator): ({_FLOW_PLAIN}), (?:kind: ({_FLOW_PLAIN}), )?"
    rf"verdict: ({_FLOW_PLAIN})\}}\n"
)


def _verdict_map(body: str, plain: PlainText, suspect: Suspect) -> dict[Any, Any] | None:
    """The ``verdicts`` block ``body`` when every line is in the form above (else None: the
    generic reader takes it); ``NotCanonical`` where the generic reader raises it."""
    out: dict[Any, Any] = {}
    seen: set[str] = set()
    items: list[Any] | None = None
    pos = 0
    for m in _VERDICT_LINE.finditer(body):
        if m.start() != pos:
            return None
        pos = m.end()
        key_text = m.group(1)
        if key_text is not None:
            if items is not None and not items:
                return None  # a document without verdicts: null, the generic reader's case
            if len(key_text) > 1000 or key_text in seen:
                return None
            seen.add(key_text)
            key = plain(key_text, True) if suspect(key_text) else key_text
            if key in out:
                return None
            out[key] = items = []
            continue
        if items is None:
            return None
        role, who, kind, verdict = m.group(2, 3, 4, 5)
        entry: dict[str, Any] = {role: plain(who, False) if suspect(who) else who}
        if kind is not None:
            entry["kind"] = plain(kind, False) if suspect(kind) else kind
        entry["verdict"] = plain(verdict, False) if suspect(verdict) else verdict
        items.append(entry)
    if pos != len(body) or not items:
        return None
    return out


# A block list of flat mappings, one ``key: value`` a line, as labelpool writes ``pool``
# (``  - system: bm25`` then ``    k: 20``, ``    date: '2026-06-02'``): plain keys, values
# simple plain scalars or single-quoted ones without a quote inside. Read by one regular
# expression, in about a third of the generic block reader's time; any other line leaves the
# whole block to the generic reader (the reference: ``_flat_maps`` must give what it gives).
_FLAT_LINE = re.compile(
    r"  (- |  )([A-Za-z_][A-Za-z0-9_]{0,99}): "
    r"('[^'\n]{0,1000}'|[A-Za-z0-9_.][A-Za-z0-9_.+/=~-]{0,999})\n"
)


def _flat_maps(body: str, plain: PlainText, suspect: Suspect) -> list[Any] | None:
    """The block list ``body`` when every line is in the form above (else None: the generic
    reader takes it); ``NotCanonical`` where the generic reader raises it."""
    out: list[Any] = []
    item: dict[Any, Any] | None = None
    seen: set[str] = set()
    pos = 0
    for m in _FLAT_LINE.finditer(body):
        if m.start() != pos:
            return None
        pos = m.end()
        lead, key_text, value_text = m.group(1, 2, 3)
        if lead == "- ":
            item, seen = {}, set()
            out.append(item)
        elif item is None:
            return None
        if key_text in seen:
            return None  # a duplicate key: the generic reader leaves it to the event pass
        seen.add(key_text)
        key = plain(key_text, True) if suspect(key_text) else key_text
        if key in item:
            return None
        if value_text[0] == "'":
            item[key] = value_text[1:-1]
        else:
            item[key] = plain(value_text, False) if suspect(value_text) else value_text
    if pos != len(body) or not out:
        return None
    return out


@dataclass(frozen=True)
class _Block:
    """What the block readers (:func:`_block`, :func:`_seq`, :func:`_map`) share: the rows
    ``(indent, content)`` of one top-level value (compact items are rewritten in place), the
    depth limit and the scalar resolution (as in :func:`read_canonical`)."""

    rows: list[tuple[int, str]]
    max_depth: int
    plain: PlainText
    suspect: Suspect


def _block(block: _Block, i: int, indent: int, depth: int) -> tuple[Any, int]:
    if depth > block.max_depth:
        raise NotCanonical
    content = block.rows[i][1]
    if content == "-" or content.startswith("- "):
        return _seq(block, i, indent, depth)
    return _map(block, i, indent, depth)


def _seq(block: _Block, i: int, indent: int, depth: int) -> tuple[list[Any], int]:
    rows, plain, suspect = block.rows, block.plain, block.suspect
    out: list[Any] = []
    n = len(rows)
    while i < n and rows[i][0] == indent:
        content = rows[i][1]
        if not (content == "-" or content.startswith("- ")):
            break
        rest = content[1:].lstrip(" ")
        if not rest:  # the item is the block below
            if i + 1 < n and rows[i + 1][0] > indent:
                item, i = _block(block, i + 1, rows[i + 1][0], depth + 1)
            else:
                raise NotCanonical  # an empty item
        elif rest == "-" or rest.startswith("- ") or _key_split(rest, plain, suspect) is not None:
            rows[i] = (indent + len(content) - len(rest), rest)  # compact: `- - a`, `- k: v`
            item, i = _block(block, i, rows[i][0], depth + 1)
        else:
            item = _scalar(rest, depth, block.max_depth, plain, suspect)
            i += 1
            if i < n and rows[i][0] > indent:
                raise NotCanonical  # a multi-line scalar
        out.append(item)
    if i < n and rows[i][0] > indent:
        raise NotCanonical
    return out, i


def _map(block: _Block, i: int, indent: int, depth: int) -> tuple[dict[Any, Any], int]:
    rows, plain, suspect = block.rows, block.plain, block.suspect
    out: dict[Any, Any] = {}
    seen: set[str] = set()
    n = len(rows)
    while i < n and rows[i][0] == indent:
        key, rest = _new_key(rows[i][1], plain, suspect, seen, out)
        i += 1
        if rest and rest[0] != "#":
            value = _scalar(rest, depth, block.max_depth, plain, suspect)
            if i < n and rows[i][0] > indent:
                raise NotCanonical  # a multi-line scalar
        elif i < n and rows[i][0] > indent:
            value, i = _block(block, i, rows[i][0], depth + 1)
        elif i < n and rows[i][0] == indent and (rows[i][1] == "-" or rows[i][1].startswith("- ")):
            value, i = _seq(block, i, indent, depth + 1)  # `key:` then `- a`
        else:
            value = None
        out[key] = value
    if i < n and rows[i][0] > indent:
        raise NotCanonical
    return out, i


def _quoted(s: str) -> tuple[str, int] | None:
    """(value, index after the closing quote) of a one-line quoted scalar at the start of
    ``s`` (single quotes with ``''``, double quotes without escapes), else None."""
    quote = s[0]
    if quote == "'":
        j = 1
        while True:
            j = s.find("'", j)
            if j < 0:
                return None
            if s.startswith("''", j):
                j += 2
                continue
            return s[1:j].replace("''", "'"), j + 1
    if quote == '"':
        j = s.find('"', 1)
        if j < 0 or "\\" in s[1:j]:
            return None
        return s[1:j], j + 1
    return None


def _plain(text: str, is_key: bool = False) -> Any:
    """The value of a plain scalar as PyYAML reads it (``NotCanonical`` when it must)."""
    if suspect_11(text):
        value = resolve_11(text)
        if value is ODD:
            raise NotCanonical
        return value
    return text


def _key_split(content: str, plain: PlainText, suspect: Suspect) -> tuple[str, Any, str] | None:
    """(key as written, key's value, the rest after the colon) of a ``key: ...`` line."""
    if content[0] in "'\"":
        quoted = _quoted(content)
        if quoted is None:
            return None
        key, end = quoted
        after = content[end:]
        if after == ":" or after.startswith(": "):
            return content[:end], key, after[1:]
        return None
    pos = content.find(": ")
    if pos < 0:
        if not content.endswith(":"):
            return None
        pos = len(content) - 1
    text = content[:pos]
    if (
        not text
        or text[0] in _BAD_FIRST
        or ":" in text
        or " #" in text
        or text != text.rstrip(" ")
        or len(text) > 1000
    ):
        return None
    return text, plain(text, True) if suspect(text) else text, content[pos + 1 :]


def _new_key(
    content: str, plain: PlainText, suspect: Suspect, seen: set[str], out: dict[Any, Any]
) -> tuple[Any, str]:
    """(key, what follows the colon, left-stripped) of a ``key: ...`` line of a mapping whose
    keys so far are ``out`` (written as ``seen``, which gets this one); ``NotCanonical`` when
    the line is no such key or repeats one (duplicate keys: the event pass reports them)."""
    split = _key_split(content, plain, suspect)
    if split is None:
        raise NotCanonical
    key_text, key, rest = split
    if key_text in seen or key in out:
        raise NotCanonical
    seen.add(key_text)
    return key, rest.lstrip(" ")


def _after_value(rest: str) -> None:
    """What follows a scalar on its line must be nothing or a comment."""
    if rest and not (rest[0] == " " and rest.lstrip(" ")[:1] == "#"):
        raise NotCanonical


def _scalar(s: str, depth: int, max_depth: int, plain: PlainText, suspect: Suspect) -> Any:
    """A one-line block-context value: a quoted or plain scalar, or a flow list/mapping."""
    first = s[0]
    if first == "{" and depth < max_depth:
        entry = PENDING_ENTRY.fullmatch(s)  # a pending entry as pool writes it: the bulk of a batch
        if entry is not None:
            doc, verdict = entry.group(1, 2)
            return {
                plain("doc", True) if suspect("doc") else "doc": (
                    plain(doc, False) if suspect(doc) else doc
                ),
                plain("verdict", True) if suspect("verdict") else "verdict": (
                    plain(verdict, False) if suspect(verdict) else verdict
                ),
            }
    if first in "'\"":
        quoted = _quoted(s)
        if quoted is None:
            raise NotCanonical
        _after_value(s[quoted[1] :])
        return quoted[0]
    if first in "[{":
        close = s.find("]" if first == "[" else "}")
        if close < 0 or depth + 1 > max_depth:
            raise NotCanonical
        _after_value(s[close + 1 :])
        inner = s[1:close].strip(" ")
        if not inner:
            return [] if first == "[" else {}
        tokens = [t.strip(" ") for t in inner.split(",")]
        if first == "[":
            return [_flow_scalar(t, plain, suspect) for t in tokens]
        out: dict[Any, Any] = {}
        for token in tokens:
            key_text, sep, value = token.partition(": ")
            if not sep or key_text in out:
                raise NotCanonical
            key = _flow_scalar(key_text, plain, suspect, is_key=True)
            if key in out:
                raise NotCanonical
            out[key] = _flow_scalar(value.lstrip(" "), plain, suspect)
        return out
    if first in _BAD_FIRST:
        raise NotCanonical
    cut = s.find(" #")
    text = s if cut < 0 else s[:cut].rstrip(" ")
    if ": " in text or text.endswith(":") or len(text) > 100_000:
        raise NotCanonical
    return plain(text, False) if suspect(text) else text


# ``{doc: ID, verdict: V}`` of simple plain scalars, read as the flow mapping reader below
# reads it (which the property tests hold it to)
PENDING_ENTRY = re.compile(rf"\{{doc: ({_FLOW_PLAIN}), verdict: ({_FLOW_PLAIN})\}}")

# what a simple plain flow item never holds: an indicator, a quote, or a comment's `` #``
_FLOW_BAD = re.compile(r"[:\[\]{}'\"]| #")


def _flow_scalar(token: str, plain: PlainText, suspect: Suspect, is_key: bool = False) -> Any:
    """One item of a one-line flow collection: a whole quoted scalar or a simple plain one
    (``#`` only inside a word)."""
    if not token:
        raise NotCanonical
    if token[0] in "'\"":
        quoted = _quoted(token)
        if quoted is None or quoted[1] != len(token):
            raise NotCanonical
        return quoted[0]
    # a ``#`` after a space starts a comment; inside a word (``doc#3``) it is the scalar's
    if token[0] in _BAD_FIRST or _FLOW_BAD.search(token):
        raise NotCanonical
    return plain(token, is_key) if suspect(token) else token
