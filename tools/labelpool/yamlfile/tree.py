"""Edits of a round-trip tree that keep its comments where a reader expects them.

Generic YAML, no label knowledge: block lists, comment lines moved with the item they were
written above, sorting a list or a mapping with its comments, and turning scalars a reader
took as non-strings back into the strings written (:class:`Fixer`). ``CommentedMap`` and
``CommentedSeq`` (ruamel's round-trip containers) are re-exported for code above this layer.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken

from labelpool.yamlfile.quoting import scalar

__all__ = [
    "CommentedMap",
    "CommentedSeq",
    "Fixer",
    "block_seq",
    "move_following_comments",
    "move_tail_comments",
    "new_map",
    "sort_mapping",
    "sort_seq",
]


def new_map() -> CommentedMap:
    """An empty round-trip mapping in block style."""
    mapping = CommentedMap()
    mapping.fa.set_block_style()
    return mapping


def block_seq(items: Iterable[Any]) -> CommentedSeq:
    seq = CommentedSeq(items)
    if len(seq):
        seq.fa.set_block_style()
    else:
        seq.fa.set_flow_style()
    return seq


def move_following_comments(seq: CommentedSeq, before: int, new: int) -> None:
    """Comment lines stored after item ``before`` precede the item that followed it: when a new
    item is inserted in between, they move to the new item (so they still come right before
    the item they were written above)."""
    rest = _take_following(seq, before)
    if rest is not None:
        seq.ca.items[new] = [CommentToken("\n" + rest, CommentMark(0), None), None, None, None]


def _take_following(seq: CommentedSeq, index: int) -> str | None:
    """Remove and return the comment lines stored after item ``index`` (those written above
    the next item), keeping its end-of-line comment; None when there are none."""
    entry = seq.ca.items.get(index)
    if not entry or entry[0] is None:
        return None
    eol, _, rest = entry[0].value.partition("\n")
    if not rest.strip():
        return None
    if eol.strip():
        entry[0].value = eol + "\n"
    else:
        entry[0] = None
        if not any(entry):
            del seq.ca.items[index]
    return str(rest)


def _plain_text(text: str | None, line: int, col: int, flow: bool, key: bool = False) -> str | None:
    """The plain scalar written at 0-based (line, col) of ``text``, or None."""
    if text is None:
        return None
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    rest = lines[line][col:]
    end = len(rest)
    hash_at = rest.find(" #")
    if hash_at >= 0:
        end = hash_at
    if key:
        colon = rest.find(":")
        if 0 <= colon < end:
            end = colon
    if flow:
        for stop in (",", "}", "]"):
            at = rest.find(stop)
            if 0 <= at < end:
                end = at
    return rest[:end].rstrip() or None


def _as_text(value: Any, source: str | None) -> str:
    if source is not None:
        return source
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return str(value)


class Fixer:
    """Turns non-string scalars at string positions into quoted strings, from the source."""

    def __init__(self, text: str | None) -> None:
        self.text = text

    def _fix(self, value: Any, pos: tuple[int, int] | None, flow: bool, key: bool = False) -> Any:
        if isinstance(value, str):
            return scalar(value, flow)
        if isinstance(value, (CommentedMap, CommentedSeq)):
            return value
        source = _plain_text(self.text, *pos, flow, key) if pos is not None else None
        return scalar(_as_text(value, source), flow)

    def value(self, mapping: CommentedMap, key: str) -> None:
        if key not in mapping:
            return
        try:
            pos = mapping.lc.value(key)
        except (KeyError, TypeError):
            pos = None
        flow = mapping.fa.flow_style()
        mapping[key] = self._fix(mapping[key], pos, bool(flow))

    def items(self, seq: CommentedSeq) -> None:
        flow = bool(seq.fa.flow_style())
        for i, v in enumerate(seq):
            try:
                pos = seq.lc.item(i)
            except (KeyError, TypeError):
                pos = None
            seq[i] = self._fix(v, pos, flow)

    def keys(self, mapping: CommentedMap) -> None:
        if all(isinstance(k, str) for k in mapping):
            pairs = [(scalar(k), v) for k, v in mapping.items()]
        else:
            pairs = []
            for k in mapping:
                try:
                    pos = mapping.lc.key(k)
                except (KeyError, TypeError):
                    pos = None
                pairs.append((self._fix(k, pos, bool(mapping.fa.flow_style()), True), mapping[k]))
        renamed = [p for p, k in zip(pairs, mapping, strict=True) if p[0] is not k]
        if not renamed:
            return
        comments = dict(mapping.ca.items)
        originals = list(mapping)
        for k in originals:
            del mapping[k]
        for (new, value), old in zip(pairs, originals, strict=True):
            mapping[new] = value
            if old in comments:
                mapping.ca.items[new] = comments[old]


def sort_seq(seq: CommentedSeq, key: Callable[[Any], Any] = str) -> None:
    """Sort a CommentedSeq in place; comments follow the items they belong to.

    ruamel stores, after item i, its end-of-line comment and then the comment lines written
    above item i+1: the first part moves with item i, the second with item i+1, and comment
    lines after the last item stay at the end of the list.
    """
    n = len(seq)
    order = sorted(range(n), key=lambda i: key(seq[i]))
    if order == list(range(n)):
        return
    items = [seq[i] for i in order]
    entries = {i: seq.ca.items.get(i) for i in range(n)}
    eol: dict[int, str] = {}
    above: dict[int, str] = {0: ""}
    tail = ""
    for i in range(n):
        entry = entries[i]
        token = entry[0] if entry else None
        first, _, rest = token.value.partition("\n") if token is not None else ("", "", "")
        eol[i] = first
        if i + 1 < n:
            above[i + 1] = rest
        else:
            tail = rest
    seq.ca.items.clear()
    first_above = above[order[0]]
    if first_above.strip():  # lines written above the item that now comes first: list's top
        if seq.ca.comment is None:
            seq.ca.comment = [None, None]
        if seq.ca.comment[0] is not None:  # `key:  # comment` then lines: one shared token
            value = seq.ca.comment[0].value
            seq.ca.comment[0].value = value + ("" if value.endswith("\n") else "\n") + first_above
        else:
            if seq.ca.comment[1] is None:
                seq.ca.comment[1] = []
            seq.ca.comment[1].append(CommentToken(first_above, CommentMark(0), None))
    for new, old in enumerate(order):
        following = above[order[new + 1]] if new + 1 < n else tail
        original = entries[old]
        entry = list(original or [None, None, None, None])
        entry[0] = None
        if eol[old] or following.strip():
            token = original[0] if original and original[0] is not None else None
            if token is None:  # no comment of its own: only the lines above the next item
                token = CommentToken("", CommentMark(0), None)
            token.value = f"{eol[old]}\n{following}"  # keeps the end-of-line comment's column
            entry[0] = token
        if any(e is not None for e in entry):
            seq.ca.items[new] = entry
    for i, item in enumerate(items):
        list.__setitem__(seq, i, item)


def sort_mapping(mapping: CommentedMap) -> None:
    keys = list(mapping)
    if keys == sorted(keys, key=str):
        return
    pairs = sorted(mapping.items(), key=lambda kv: str(kv[0]))
    comments = dict(mapping.ca.items)
    for k in keys:
        del mapping[k]
    for k, v in pairs:
        mapping[k] = v
        if k in comments:
            mapping.ca.items[k] = comments[k]


def move_tail_comments(src: CommentedSeq, dst: CommentedSeq) -> None:
    """Comment lines stored after the last item of the nested list ``src`` precede the item
    that followed ``src`` in its parent: when ``dst`` is inserted right after ``src``, they
    move after ``dst``'s last item (so they still come right before the item they were
    written above)."""
    if not len(src) or not len(dst):
        return
    rest = _take_following(src, len(src) - 1)
    if rest is not None:
        dst.ca.items[len(dst) - 1] = [
            CommentToken("\n" + rest, CommentMark(0), None),
            None,
            None,
            None,
        ]
