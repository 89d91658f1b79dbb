"""The accepted classes of a round-trip label tree changed in place: :func:`write_classes`.

``merge`` folds a ``{duplicate-of: ID}`` verdict by adding a member to ID's class, or by
making a new class ``[ID, doc]``. In a file whose ``relevant_classes`` holds only classes in
the list form, merge writes the block anew; in one that also holds the mapping form (a
proposal waiting for review, or a class accepted by deleting its ``proposed:`` line), this
module edits the accepted classes in place so that every mapping, its comment line above it
and its unknown keys stay as written: a new member goes into its class's list (in its sorted
place when the class is sorted), a new class is a list-form entry in its place by first
member when the entries are in that order, else at the end. An extension (a mapping with
``extends``) is not a class of its own here: its members are part of the class it extends
(``model.fold_accepted``), and :func:`extend_classes` writes them into that class.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import Any

from labelpool.labelfile.edit import _put_key
from labelpool.model import class_extends, class_item, fold_accepted
from labelpool.yamlfile.quoting import scalar
from labelpool.yamlfile.tree import (
    CommentedMap,
    CommentedSeq,
    block_seq,
    move_following_comments,
    move_tail_comments,
)

__all__ = ["extend_classes", "write_classes"]

KEY = "relevant_classes"


def _members(item: Any) -> CommentedSeq | None:
    """The members' list of one entry, in either form (None: no list to edit)."""
    if isinstance(item, CommentedSeq):
        return item
    if isinstance(item, CommentedMap) and isinstance(item.get("members"), CommentedSeq):
        return item["members"]  # type: ignore[no-any-return]
    return None


def _first(item: Any) -> str:
    members, _ = class_item(item)
    return str(members[0]) if members else ""


def write_classes(
    data: CommentedMap, before: Sequence[Sequence[str]], after: Sequence[Sequence[str]]
) -> None:
    """Make the accepted classes of ``data`` (which were ``before``, in file order) say
    ``after``: each class of ``before`` is a part of one class of ``after`` (a fold only adds
    members); the classes of ``after`` that hold no class of ``before`` are new."""
    seq = data.get(KEY)
    if not isinstance(seq, CommentedSeq):
        seq = block_seq([])
        _put_key(data, KEY, seq)
    accepted = [
        i
        for i, item in enumerate(seq)
        if class_item(item)[1] is None and class_extends(item) is None
    ]
    if len(accepted) != len(before):
        raise ValueError("the accepted classes of the tree are not the classes read from it")
    new: list[Sequence[str]] = []
    for cls in after:
        j = next((j for j, old in enumerate(before) if old and set(old) <= set(cls)), None)
        if j is None:
            new.append(cls)
            continue
        members = _members(seq[accepted[j]])
        if members is None:
            raise ValueError(f"{KEY}[{accepted[j]}] holds no list of members to extend")
        for doc in cls:
            if doc in before[j]:
                continue
            now = [str(m) for m in members]
            ordered = all(a <= b for a, b in itertools.pairwise(now))
            pos = bisect.bisect(now, doc) if ordered else len(now)
            members.insert(pos, scalar(doc))
            if pos > 0 and members.fa.flow_style() is False:
                move_following_comments(members, pos - 1, pos)
    ordered = all(a <= b for a, b in itertools.pairwise(_first(item) for item in seq))
    for cls in new:
        item = block_seq(scalar(d) for d in cls)
        at = len(seq)
        if ordered:
            at = next((i for i, it in enumerate(seq) if _first(it) > cls[0]), len(seq))
        seq.insert(at, item)
        if at > 0 and isinstance(seq[at - 1], CommentedSeq):
            move_tail_comments(seq[at - 1], item)
    seq.fa.set_block_style()


def extend_classes(data: CommentedMap, joins: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Write each ``(member, docs)`` of ``joins`` into the accepted class of ``data`` that
    holds ``member`` (:func:`write_classes`: in place, every mapping kept); a ``member`` no
    class holds is a ``ValueError``."""
    before = [[str(d) for d in c] for c in fold_accepted(data.get(KEY))]
    after = [list(c) for c in before]
    for member, docs in joins:
        home = next((c for c in after if member in c), None)
        if home is None:
            raise ValueError(f"no accepted class holds {member}")
        ordered = all(a <= b for a, b in itertools.pairwise(home))
        for doc in docs:
            if doc not in home:
                home.append(doc)
        if ordered:
            home.sort()
    write_classes(data, before, after)
