"""``labelpool merge``, one label file: a judge's decisions folded into its text.

The fold is planned on the label's lists (:func:`plan`), then written: as a text edit
(:mod:`.merge_text`) when the file was read as plain data and is in labelpool's block
layout, else through the round-trip tree (:func:`fold_tree`), which the text edit is held to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import yamlfile
from labelpool.model import Label
from labelpool.workflows.merge import read as merge_read
from labelpool.workflows.merge.collect import Cache, read_label, read_label_roundtrip
from labelpool.workflows.merge.fold import (
    Decision,
    MergeError,
    State,
    Supersedes,
    fold,
    state_of,
    write_state,
)
from labelpool.workflows.merge.text import fold_text
from labelpool.workflows.pool.entries import add_pool_entries, new_entries

__all__ = ["Plan", "fold_file", "fold_tree", "plan"]

PoolEntry = tuple[str, int, str, str | None]


@dataclass(frozen=True)
class Plan:
    """What folding decisions into one label changes."""

    before: State
    after: State
    drop: set[tuple[int, int]]  # (batch index, doc index) of the resolved pending entries
    entries: list[PoolEntry]  # pool entries of the batches resolved in full
    completed: int


def plan(
    path: Path,
    data: Any,
    text: str,
    batches: Sequence[batch_mod.PendingBatch],
    ds: Sequence[Decision],
    supersedes: Supersedes | None,
    folded: State | None = None,
    label: Label | None = None,
) -> Plan:
    """What folding ``ds`` changes; ``folded``: the lists after folding exactly ``ds`` into
    this reading (the dry run's), taken as they are instead of folding again; ``label``:
    the label of ``data`` when its reading built it."""
    before = state_of(data, path, text, label)
    if folded is not None:
        return _plan(before, folded, batches, ds)
    after = replace(
        before,
        judged=set(before.judged),
        relevant=set(before.relevant),
        grades=dict(before.grades),
        classes=[list(c) for c in before.classes],
        unjudged=set(before.unjudged),
        where=dict(before.where),
        record=dict(before.record),
    )
    for d in ds:
        outcome, message = fold(after, d, supersedes)
        if outcome == "error":  # the dry run saw the same state: cannot happen
            raise MergeError(str(message))
    return _plan(before, after, batches, ds)


def _plan(
    before: State, after: State, batches: Sequence[batch_mod.PendingBatch], ds: Sequence[Decision]
) -> Plan:
    wanted = {(d.batch, d.seat, d.doc) for d in ds}
    drop: set[tuple[int, int]] = set()
    for b in batches:
        for e in b.entries:
            if (b.batch, b.seat, e.doc) in wanted:
                drop.add((b.index, e.doc_index))
    entries: list[PoolEntry] = []
    completed = 0
    for b in batches:
        if b.entries and all((b.index, e.doc_index) in drop for e in b.entries):
            completed += 1
            for s in b.systems:
                k = b.full_depth.get(s, b.depth)
                entries.append((s, k, b.date, b.runs.get(s)))
    return Plan(before, after, drop, entries, completed)


def fold_file(
    path: Path,
    ds: Sequence[Decision],
    supersedes: Supersedes | None,
    text: str,
    cache: Cache,
    *,
    text_fold: bool = True,
    keep: bool = False,
    after: State | None = None,
    label: Label | None = None,
) -> tuple[str | None, int]:
    """Fold ``ds`` into one label file's ``text``: (the new text or None when unchanged,
    batches completed). ``cache`` holds what was read of the text read first; it is used
    only while the text is that one (a later judge folds into an earlier one's text).
    ``keep``: a later judge folds into the new text, so what reading it back found goes
    into ``cache`` for that fold (the text is read once, not twice).
    ``text_fold=False`` takes the round-trip path (the reference the tests hold to).
    ``after``: the lists after folding ``ds`` into the text read first (the dry run's), used
    only while the text is that one; so is ``label``, the label of that reading."""
    cached = cache.get(path)
    if cached is not None and cached[1] == text:
        data, _, batches = cache.pop(path)  # a round-trip tree is edited below: used once
    elif text_fold:
        after = label = None
        data, text, batches = read_label(path, text)
    else:
        after = label = None
        data, text, batches = read_label_roundtrip(path, text)
    p = plan(path, data, text, batches, ds, supersedes, after, label)
    new_text: str | None = None
    if not isinstance(data, yamlfile.CommentedMap):  # plain data: try the text edit
        if text_fold:
            pool = new_entries(data.get("pool"), p.entries)
            new_text = fold_text(text, data, batches, p.before, p.after, p.drop, pool, str(path))
        if new_text is None:
            data, text, batches = read_label_roundtrip(path, text)
    if new_text is None:
        new_text = fold_tree(path, data, text, batches, p)
    if new_text == text:
        return None, p.completed
    back = yamlfile.loads_written(new_text, path)  # never write a file that would not read back
    if keep and text_fold and "\r" not in new_text:  # as read_label would read it
        reading = merge_read.with_batches(path, new_text, back)
        if reading is not None:
            reading[0]["pending"] = None  # read into the batches
            cache[path] = reading
    return new_text, p.completed


def fold_tree(
    path: Path,
    data: Any,
    text: str,
    batches: Sequence[batch_mod.PendingBatch],
    p: Plan,
) -> str:
    """The round-trip fold: the tree edited, dumped, and the resolved entries removed."""
    write_state(data, p.before, p.after)
    if p.entries:
        add_pool_entries(data, p.entries)
    dumped = yamlfile.dumps(data, path=path)
    moved = batch_mod.relocate(text, dumped, batches, str(path))
    return batch_mod.remove(dumped, moved, p.drop, str(path))
