"""``labelpool merge``, the text fold: a label in labelpool's block style edited as lines.

The round-trip fold (:func:`merge_fold.write_state`, :func:`pool_entries.add_pool_entries`,
a dump, then :func:`batch.remove`) costs a ruamel load and dump per file: minutes at 10,000
files. For a file in the plain block layout below, the same edits are made on its lines:
ids inserted into the sorted block lists (``relevant_doc_ids``, ``judged_ids``), removed from
``pooled_unjudged_ids`` (and from ``relevant_doc_ids`` and ``grades`` when a second judge's
verdict opens a dispute that lowers the grade), ``grades`` entries inserted in key order,
``pool`` entries appended, a missing key inserted at its canonical place, the record of
judges written (``judge:``, the ``verdicts`` block), and resolved pending lines removed.

:func:`fold_text` returns None for anything else (the caller takes the round-trip path):
``pending`` not the last key, a comment or blank line outside the ``pending`` block (past
the file's leading comment lines), a double quote, a long line, a list or mapping in another
layout, a changed relevance class, an id that is not a plain scalar, a grade replaced...
The property tests hold its output byte-identical to the round-trip path's.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labelpool import batch as batch_mod
from labelpool import yamlfile
from labelpool.labelfile import record as record_file
from labelpool.labelfile.edit import ID_LISTS
from labelpool.model import KNOWN_KEYS, PERSON
from labelpool.workflows.merge.fold import State
from labelpool.yamlfile.reading import SUSPECT

__all__ = ["fold_text"]

MAX_LINE = 1000  # longer lines are left to the round-trip path (its width is 4096)
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):( .*)?\Z")
_PLAIN = re.compile(r"^[A-Za-z0-9_./][A-Za-z0-9_./#+@=~-]*$")
# a value written as a block scalar, an anchor, alias or tag, a directive, a flow collection
# (but an empty one): the round-trip path may rewrite it
_ODD_VALUE = re.compile(r": *(?:[|>&*!%@`]|[\[{](?!\]\Z|\}\Z))")
_ODD_BODY = re.compile(r"[|>&*!%@`\[\]{}]")
_COMMENT = re.compile(r"^ *#", re.MULTILINE)
_RUN = re.compile(r"[0-9a-f]*[a-f][0-9a-f]*\Z")


class _Fallback(Exception):
    """The file leaves the layout this module edits: use the round-trip path."""


@dataclass
class _Section:
    key: str
    head: str  # the key's line
    body: list[str]  # the lines below it (no newline)
    items: list[str] | None = None  # an id list's values, a mapping's keys (as str)
    in_order: bool | None = None  # whether ``items`` are sorted (None: not looked at yet)


def fold_text(
    text: str,
    data: Mapping[str, Any],
    batches: Sequence[batch_mod.PendingBatch],
    before: State,
    after: State,
    drop: set[tuple[int, int]],
    pool: Sequence[tuple[str, int, str, str | None]],
    path: str,
) -> str | None:
    """The label ``text`` (read as plain ``data``) with ``after`` folded in, ``drop``'s
    pending entries removed and the new ``pool`` entries (:func:`pool_entries.new_entries`)
    appended (see module doc); None when the round-trip path must do it."""
    try:
        if after.classes != before.classes or not text.endswith("\n") or "\r" in text:
            return None
        keys = list(data)
        if not keys or keys[-1] != "pending":
            return None
        lines = text[:-1].split("\n")
        if "pending:" not in lines:
            return None
        p = lines.index("pending:")
        h = 0
        while h < p and lines[h].startswith("#"):
            h += 1
        sections = _sections(lines[h:p], keys[:-1], data)
        for d in sorted(before.relevant - after.relevant):  # a dispute lowered a verdict
            _remove_id(sections, "relevant_doc_ids", d, strict=True)
        for d in sorted(set(before.grades) - set(after.grades)):
            _remove_grade(sections, d)
        _add_ids(sections, "judged_ids", sorted(after.judged - before.judged))
        _add_ids(sections, "relevant_doc_ids", sorted(after.relevant - before.relevant))
        for d, g in sorted(after.grades.items()):
            if before.grades.get(d) != g:
                _add_grade(sections, d, g)
        for d in sorted(before.unjudged - after.unjudged):
            _remove_id(sections, "pooled_unjudged_ids", d)
        if pool:
            _add_pool(sections, pool)
        _add_record(sections, data, before, after)
        head = "".join(ln + "\n" for ln in lines[:h])
        head += "".join(s.head + "\n" + "".join(b + "\n" for b in s.body) for s in sections)
        old_head = "".join(ln + "\n" for ln in lines[:p])
        rest = batch_mod.remove(text, batches, drop, path)
        if not rest.startswith(old_head):
            return None
        return head + rest[len(old_head) :]
    except _Fallback:
        return None


def _sections(lines: list[str], keys: list[str], data: Mapping[str, Any]) -> list[_Section]:
    """The top-level keys of ``lines`` (everything above ``pending:``) with their lines;
    every key this module may edit checked to be in a layout it knows."""
    out: list[_Section] = []
    # checks of every line, made on the whole block at once (any failure: the round trip)
    block = "\n".join(lines)
    if '"' in block or " #" in block or "" in lines or _COMMENT.search(block):
        raise _Fallback
    if lines and max(map(len, lines)) > MAX_LINE:
        raise _Fallback
    body: list[str] | None = None
    for line in lines:
        if line[0] == " ":
            if body is None:
                raise _Fallback
            body.append(line)
            continue
        m = _KEY.match(line)
        if m is None or _ODD_VALUE.match(line, m.end(1)):
            raise _Fallback
        out.append(_Section(m.group(1), line, []))
        body = out[-1].body
    if [s.key for s in out] != keys:
        raise _Fallback
    for s in out:
        # the verdicts block is checked whole (_add_record): canonical, or the round trip
        if s.key != "verdicts" and s.body and _ODD_BODY.search("\n".join(s.body)):
            raise _Fallback
    for s in out:
        _check(s, data[s.key])
    return out


def _check(s: _Section, value: Any) -> None:
    if s.key in ID_LISTS:
        if s.head == f"{s.key}: []" and value == []:
            s.items = []
            return
        if s.head != f"{s.key}:" or not isinstance(value, list) or len(s.body) != len(value):
            raise _Fallback
        if not all(b.startswith("  - ") and b[4:5] not in ("", " ") for b in s.body):
            raise _Fallback
        s.items = [str(v) for v in value]
    elif s.key == "grades":
        if s.head == "grades: {}" and value == {}:
            s.items = []
            return
        if s.head != "grades:" or not isinstance(value, dict) or len(s.body) != len(value):
            raise _Fallback
        if not all(b.startswith("  ") and b[2:3] not in ("", " ", "-") for b in s.body):
            raise _Fallback
        s.items = [str(k) for k in value]
    elif s.key == "pool":
        if s.head != "pool:" or not isinstance(value, list) or not value:
            raise _Fallback
        if not all(b.startswith(("  - ", "    ")) for b in s.body):
            raise _Fallback


def _plain(item: str) -> str:
    """``item`` as the round-trip path writes it (plain), else :class:`_Fallback`."""
    if not _PLAIN.match(item):
        raise _Fallback
    # a plain scalar of these characters that no reader may misread (SUSPECT) needs no quotes
    if SUSPECT.match(item) and yamlfile.needs_quotes(item):
        raise _Fallback
    return item


def _find(sections: list[_Section], key: str) -> _Section | None:
    return next((s for s in sections if s.key == key), None)


def _insert_key(sections: list[_Section], section: _Section) -> None:
    """Where :func:`labelfile.canonical_index` puts a missing key."""
    rank = KNOWN_KEYS.index(section.key)
    pos = 0
    for i, s in enumerate(sections):
        if s.key in KNOWN_KEYS and KNOWN_KEYS.index(s.key) < rank:
            pos = i + 1
    if pos == 0:
        raise _Fallback  # before the first key: the leading comments' place
    sections.insert(pos, section)


def _sorted_insert(s: _Section, item: str, line: str) -> None:
    """:func:`labelfile.add_to_sorted_list`'s place: before the first item not below it in a
    sorted list, at the end of one written out of order (which stays as written)."""
    assert s.items is not None
    if s.in_order is None:
        s.in_order = all(a <= b for a, b in zip(s.items, s.items[1:], strict=False))
    # an insertion keeps a sorted list sorted; an appended item keeps an unsorted one unsorted
    pos = bisect.bisect_left(s.items, item) if s.in_order else len(s.items)
    s.items.insert(pos, item)
    s.body.insert(pos, line)
    s.head = f"{s.key}:"


def _add_ids(sections: list[_Section], key: str, items: list[str]) -> None:
    """Each of ``items`` (sorted, distinct) not in the list yet added to it, as
    :func:`_sorted_insert` one by one would: merged into a sorted list, appended in order to
    one written out of order; a missing list inserted at its canonical place."""
    if not items:
        return
    lines = ["  - " + _plain(item) for item in items]
    s = _find(sections, key)
    if s is None:
        _insert_key(sections, _Section(key, f"{key}:", lines, list(items)))
        return
    if s.items is None:
        raise _Fallback
    present = set(s.items)
    new = [(item, line) for item, line in zip(items, lines, strict=True) if item not in present]
    if not new:
        return
    if s.in_order is None:
        s.in_order = all(a <= b for a, b in zip(s.items, s.items[1:], strict=False))
    pairs = list(zip(s.items, s.body, strict=True)) + new
    if s.in_order:  # stable: no new item equals an old one, so each lands where bisect puts it
        pairs.sort(key=lambda pair: pair[0])
    s.items = [item for item, _ in pairs]
    s.body = [line for _, line in pairs]
    s.head = f"{key}:"


def _remove_id(sections: list[_Section], key: str, item: str, strict: bool = False) -> None:
    s = _find(sections, key)
    if s is None or s.items is None or item not in s.items:
        if strict:
            raise _Fallback
        return
    i = s.items.index(item)
    del s.items[i], s.body[i]
    if not s.items:
        s.head = f"{key}: []"


def _add_grade(sections: list[_Section], doc: str, grade: int) -> None:
    line = f"  {_plain(doc)}: {grade}"
    s = _find(sections, "grades")
    if s is None:
        _insert_key(sections, _Section("grades", "grades:", [line], [doc]))
    elif s.items is None or doc in s.items:
        raise _Fallback  # a grade replaced: the round-trip path
    else:
        _sorted_insert(s, doc, line)


def _remove_grade(sections: list[_Section], doc: str) -> None:
    """:func:`labelfile.remove_mapping_item`: the line goes, an emptied ``grades`` too."""
    s = _find(sections, "grades")
    if s is None or s.items is None or doc not in s.items:
        raise _Fallback
    i = s.items.index(doc)
    del s.items[i], s.body[i]
    if not s.items:
        sections.remove(s)


def _add_pool(sections: list[_Section], pool: Sequence[tuple[str, int, str, str | None]]) -> None:
    lines: list[str] = []
    for system, k, date, run in pool:
        if "'" in date or len(date) > 100 or (run is not None and not _RUN.match(run)):
            raise _Fallback
        lines += [f"  - system: {_plain(system)}", f"    k: {k}", f"    date: '{date}'"]
        if run is not None:
            lines.append(f"    run: {run}")
    s = _find(sections, "pool")
    if s is None:
        _insert_key(sections, _Section("pool", "pool:", lines))
    else:
        s.body += lines


def _add_record(
    sections: list[_Section], data: Mapping[str, Any], before: State, after: State
) -> None:
    """The record of judges: a ``judge:`` (and ``judge_kind:``) the file did not have, and
    the ``verdicts`` block as :mod:`labelpool.labelfile.record` writes it (a block already
    there is rewritten whole when it is exactly what the record writes: a second judge's
    verdicts); any other change of the record: the round-trip path."""
    if (after.judge, after.judge_kind) != (before.judge, before.judge_kind):
        if before.judge is not None or after.judge is None or "judge_kind" in data:
            raise _Fallback
        value = record_file._text(after.judge, flow=False)
        if value is None or value != after.judge:
            raise _Fallback
        _insert_key(sections, _Section("judge", f"judge: {value}", []))
        if after.judge_kind != PERSON:
            kind = _plain(after.judge_kind)
            _insert_key(sections, _Section("judge_kind", f"judge_kind: {kind}", []))
    s = _find(sections, "verdicts")
    if s is None and "verdicts" in data:
        raise _Fallback
    if s is None and after.record == before.record:
        return
    try:
        lines = record_file.verdicts_lines(after.record)
        # a block already there is rewritten whole: it must be what the record writes
        if s is not None and [s.head, *s.body] != record_file.verdicts_lines(before.record):
            raise _Fallback
    except ValueError:
        raise _Fallback from None
    if not lines or any(len(line) > MAX_LINE for line in lines):
        raise _Fallback
    if s is None:
        _insert_key(sections, _Section("verdicts", lines[0], lines[1:]))
    else:
        s.head, s.body = lines[0], lines[1:]
