"""Edits of a label file's round-trip tree that keep it canonical: keys at their canonical
place (:data:`labelpool.model.KNOWN_KEYS` order), id lists sorted in block style, ``grades``
in key order, comments kept with their items (a one-line diff per added id)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from labelpool.model import KNOWN_KEYS
from labelpool.yamlfile.quoting import scalar
from labelpool.yamlfile.tree import (
    CommentedMap,
    CommentedSeq,
    block_seq,
    move_following_comments,
    new_map,
)

ID_LISTS = ("relevant_doc_ids", "judged_ids", "pooled_unjudged_ids")


def canonical_index(data: CommentedMap, key: str) -> int:
    """Where a missing ``key`` goes: after the known keys that precede it, before the rest."""
    if key not in KNOWN_KEYS:
        return len(data)
    rank = KNOWN_KEYS.index(key)
    pos = 0
    for i, k in enumerate(data):
        if k in KNOWN_KEYS and KNOWN_KEYS.index(k) < rank:
            pos = i + 1
    return pos


def _put_key(data: CommentedMap, key: str, value: Any) -> None:
    if key in data:
        data[key] = value
        return
    pos = canonical_index(data, key)
    if pos >= len(data):
        data[key] = value
    else:
        data.insert(pos, key, value)


def set_sorted_list(data: CommentedMap, key: str, items: Iterable[str]) -> None:
    """Make ``data[key]`` the sorted block list of ``items``, keeping comments of kept items."""
    wanted = sorted({str(i) for i in items})
    current = data.get(key)
    if isinstance(current, CommentedSeq):
        values = [str(v) for v in current]
        if values == sorted(set(values)):
            # edit in place: removals and insertions only, so comments stay with their items
            unwanted = set(values) - set(wanted)
            for i in reversed(range(len(values))):
                if values[i] in unwanted:
                    del current[i]
            for item in wanted:
                add_to_sorted_list(data, key, item)
            for i, v in enumerate(current):
                current[i] = scalar(v)
            if wanted:
                current.fa.set_block_style()
            else:
                current.fa.set_flow_style()
            return
    _put_key(data, key, block_seq(scalar(i) for i in wanted))


def add_to_sorted_list(data: CommentedMap, key: str, item: str) -> bool:
    """Insert ``item`` into the sorted list ``data[key]`` (created if missing); False if present.

    On a sorted block list the insertion is a one-line diff. A list written out of order by
    hand (valid: ordering is ``labelpool fmt``'s job, LP028 a warning) gets ``item`` appended
    and is not sorted.
    """
    item = str(item)
    seq = data.get(key)
    if not isinstance(seq, CommentedSeq):
        _put_key(data, key, block_seq([scalar(item)]))
        return True
    values = [str(v) for v in seq]
    if item in values:
        return False
    pos = _insertion_point(values, item)
    seq.insert(pos, scalar(item))
    seq.fa.set_block_style()
    if pos > 0:
        move_following_comments(seq, pos - 1, pos)
    return True


def _insertion_point(values: list[str], item: str) -> int:
    """Where ``item`` goes: its sorted place in a sorted list, else the end (an unsorted list
    written by hand stays as written)."""
    if any(b < a for a, b in itertools.pairwise(values)):
        return len(values)
    pos = 0
    while pos < len(values) and values[pos] < item:
        pos += 1
    return pos


def remove_from_list(data: CommentedMap, key: str, item: str) -> bool:
    """Remove ``item`` from the list ``data[key]``; False if it is not there."""
    seq = data.get(key)
    if not isinstance(seq, CommentedSeq):
        return False
    for i, v in enumerate(seq):
        if str(v) == item:
            del seq[i]
            if not len(seq):
                seq.fa.set_flow_style()
            return True
    return False


def set_mapping_item(data: CommentedMap, key: str, item_key: str, value: Any) -> bool:
    """Set ``data[key][item_key] = value`` in a block mapping kept in key order.

    The mapping is created at its canonical position if missing; False when nothing changed.
    """
    mapping = data.get(key)
    if not isinstance(mapping, CommentedMap):
        mapping = new_map()
        _put_key(data, key, mapping)
    if item_key in mapping:
        if mapping[item_key] == value and type(mapping[item_key]) is type(value):
            return False
        mapping[item_key] = value
        return True
    keys = [str(k) for k in mapping]
    pos = _insertion_point(keys, item_key)
    mapping.insert(pos, scalar(item_key), value)
    mapping.fa.set_block_style()
    return True


def remove_mapping_item(data: CommentedMap, key: str, item_key: str) -> bool:
    """Delete ``data[key][item_key]``; an emptied mapping is removed. False if absent."""
    mapping = data.get(key)
    if not isinstance(mapping, CommentedMap) or item_key not in mapping:
        return False
    del mapping[item_key]
    if not mapping:
        del data[key]
    return True
