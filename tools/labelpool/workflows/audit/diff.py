"""A semantic diff of the label set between two revisions (``labelpool diff``).

Each label is first turned into keyed maps (judgments ``{doc: grade}``, pool entries keyed by
``(system, k, date)``, pending batches by batch id, pooled-unjudged documents by id), and only
then compared, key by key: a positional list diff would report a reordering as changes, and
deepdiff's ``ignore_order`` mis-pairs items (TRAPS.md). A pure reordering is therefore no change.
Only label files git sees as changed between the two revisions are read, and only questions
whose parsed labels differ are compared.
Relevance classes are compared as sets of documents, by overlap: a new class overlapping no old
one was created, one overlapping several old ones merged them, an old one spread over several
new ones was split.

Grades: 0 is judged irrelevant, >= 1 relevant (class members carry their class's grade), as in
:attr:`labelpool.model.Label.gain`. A *flip* crosses 0 (irrelevant <-> relevant); a change
between two positive grades is a *grade change*.
"""

from __future__ import annotations

import dataclasses
import gc
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.labelset import gc_paused
from labelpool.model import DuplicateOf, Label, PoolEntry
from labelpool.scoring import score
from labelpool.scoring.measures import Measure
from labelpool.workflows.audit.revisions import (
    WORKTREE,
    RevisionError,
    changed_label_files,
    changed_labels,
    labels_at,
)


class DiffError(InputError):
    """The diff cannot be computed (exit 1); ``str()`` says why."""


# shape kept: dataclass fields, like importing/corpus's CorpusImport (no shared logic)
@dataclass(frozen=True)
class Changed:
    doc: str
    before: Any
    after: Any


@dataclass(frozen=True)
class QuestionDiff:
    question: str
    text_before: str | None = None  # set only when the text changed
    text_after: str | None = None
    judgments_added: tuple[Changed, ...] = ()  # before None, after the grade
    judgments_removed: tuple[Changed, ...] = ()  # before the grade, after None
    flips: tuple[Changed, ...] = ()
    grades_changed: tuple[Changed, ...] = ()
    classes_created: tuple[tuple[str, ...], ...] = ()
    classes_removed: tuple[tuple[str, ...], ...] = ()
    classes_merged: tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...] = ()
    classes_split: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = ()
    classes_changed: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    pool_added: tuple[PoolEntry, ...] = ()
    pool_removed: tuple[PoolEntry, ...] = ()
    pending_opened: tuple[tuple[str, int], ...] = ()  # (batch, documents)
    pending_closed: tuple[tuple[str, int], ...] = ()
    pending_changed: tuple[tuple[str, Changed], ...] = ()  # (batch, doc verdict change)
    unjudged_added: tuple[str, ...] = ()
    unjudged_removed: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not any(
            getattr(self, name)
            for name in self.__dataclass_fields__
            if name not in ("question", "text_before", "text_after")
        ) and (self.text_before == self.text_after)


@dataclass(frozen=True)
class QuestionSummary:
    question: str
    judgments: int


@dataclass(frozen=True)
class ScoreChange:
    run: str
    measure: str
    before: float | None
    after: float | None
    unjudged_before: float | None  # unjudged rate at 10
    unjudged_after: float | None

    @property
    def change(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


@dataclass(frozen=True)
class SetDiff:
    rev_from: str
    rev_to: str
    questions_added: tuple[QuestionSummary, ...] = ()
    questions_removed: tuple[QuestionSummary, ...] = ()
    questions: tuple[QuestionDiff, ...] = ()  # changed questions present at both revisions
    scores: tuple[ScoreChange, ...] = field(default=())

    @property
    def empty(self) -> bool:
        return not (self.questions_added or self.questions_removed or self.questions)


def _verdict(value: Any) -> Any:
    return {"duplicate-of": value.doc} if isinstance(value, DuplicateOf) else value


def _pool_key(p: PoolEntry) -> str:
    return f"{p.system}\x1f{p.k}\x1f{p.date}"


def keyed(label: Label) -> dict[str, Any]:
    """The label as maps keyed by identity (what :func:`question_diff` compares)."""
    return {
        "question": label.question,
        "judgments": label.gain,
        "pool": {_pool_key(p): {"run": p.run} for p in label.pool},
        "pending": {b.batch: {d.doc: _verdict(d.verdict) for d in b.docs} for b in label.pending},
        "unjudged": dict.fromkeys(label.pooled_unjudged_ids, True),
    }


def _sorted_class(c: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(c))


def _classes(before: Label, after: Label) -> dict[str, tuple[Any, ...]]:
    old = {frozenset(c) for c in before.relevant_classes}
    new = {frozenset(c) for c in after.relevant_classes}
    gone, came = old - new, new - old
    created, merged, changed = [], [], []
    split: dict[frozenset[str], list[frozenset[str]]] = {}
    for n in sorted(came, key=_sorted_class):
        sources = sorted((o for o in gone if o & n), key=_sorted_class)
        if not sources:
            created.append(_sorted_class(n))
        elif len(sources) >= 2:
            merged.append((tuple(_sorted_class(o) for o in sources), _sorted_class(n)))
        else:
            (o,) = sources
            if sum(1 for m in came if m & o) >= 2:
                split.setdefault(o, []).append(n)
            else:
                changed.append((_sorted_class(o), _sorted_class(n)))
    removed = [
        _sorted_class(o) for o in sorted(gone, key=_sorted_class) if not any(o & n for n in came)
    ]
    return {
        "classes_created": tuple(created),
        "classes_removed": tuple(removed),
        "classes_merged": tuple(merged),
        "classes_split": tuple(
            (_sorted_class(o), tuple(_sorted_class(n) for n in parts)) for o, parts in split.items()
        ),
        "classes_changed": tuple(changed),
    }


def _pool_entry(key: str, value: Mapping[str, Any]) -> PoolEntry:
    system, k, date = key.split("\x1f")
    return PoolEntry(
        system=system,
        k=None if k == "None" else int(k),
        date=None if date == "None" else date,
        run=value.get("run"),
    )


def _map_diff(
    old: Mapping[str, Any], new: Mapping[str, Any]
) -> tuple[list[str], list[str], list[str]]:
    """Keys added, removed and changed (in value) from ``old`` to ``new``, each sorted."""
    if not old or not new:  # most maps of a label are empty, or new, or gone
        return sorted(new), sorted(old), []
    was, now = old.keys(), new.keys()
    added = sorted(now - was)
    removed = sorted(was - now)
    changed = sorted(k for k in was & now if old[k] != new[k])
    return added, removed, changed


def question_diff(before: Label, after: Label) -> QuestionDiff:
    """What changed in one question's label, from the keyed maps (:func:`keyed`).

    Plain map comparisons: added, removed and changed keys of each map. (deepdiff over the
    same maps gives the same answer at about 2 ms a question, 23 s when a merge touched
    10,000 questions.)
    """
    old, new = keyed(before), keyed(after)
    fields: dict[str, Any] = {}
    was, now = old["judgments"], new["judgments"]
    added, removed, changed = _map_diff(was, now)
    fields["judgments_added"] = tuple(Changed(d, None, now[d]) for d in added)
    fields["judgments_removed"] = tuple(Changed(d, was[d], None) for d in removed)
    fields["flips"] = tuple(
        Changed(d, was[d], now[d]) for d in changed if (was[d] == 0) != (now[d] == 0)
    )
    fields["grades_changed"] = tuple(
        Changed(d, was[d], now[d]) for d in changed if (was[d] == 0) == (now[d] == 0)
    )
    added, removed, changed = _map_diff(old["pool"], new["pool"])
    fields["pool_removed"] = tuple(
        sorted((_pool_entry(k, old["pool"][k]) for k in removed + changed), key=_order)
    )
    fields["pool_added"] = tuple(
        sorted((_pool_entry(k, new["pool"][k]) for k in added + changed), key=_order)
    )
    added, removed, changed = _map_diff(old["pending"], new["pending"])
    fields["pending_opened"] = tuple((b, len(new["pending"][b])) for b in added)
    fields["pending_closed"] = tuple((b, len(old["pending"][b])) for b in removed)
    pending_changed = []
    for batch in changed:
        docs_was, docs_now = old["pending"][batch], new["pending"][batch]
        plus, minus, moved = _map_diff(docs_was, docs_now)
        for doc in sorted(plus + minus + moved):
            pending_changed.append((batch, Changed(doc, docs_was.get(doc), docs_now.get(doc))))
    fields["pending_changed"] = tuple(pending_changed)
    added, removed, _ = _map_diff(old["unjudged"], new["unjudged"])
    fields["unjudged_added"] = tuple(added)
    fields["unjudged_removed"] = tuple(removed)
    fields.update(_classes(before, after))
    if before.question != after.question:
        fields["text_before"], fields["text_after"] = before.question, after.question
    return QuestionDiff(question=after.id, **fields)


def _order(item: Any) -> Any:
    if isinstance(item, Changed):
        return item.doc
    if isinstance(item, PoolEntry):
        return (item.system, item.k or 0, item.date or "")
    if isinstance(item, tuple):
        return tuple(_order(x) for x in item)
    return item


def diff_labels(
    before: Mapping[str, Label], after: Mapping[str, Label], rev_from: str, rev_to: str
) -> SetDiff:
    """The semantic diff of two label sets (question id -> Label)."""
    added = tuple(
        QuestionSummary(q, len(after[q].judged)) for q in sorted(set(after) - set(before))
    )
    removed = tuple(
        QuestionSummary(q, len(before[q].judged)) for q in sorted(set(before) - set(after))
    )
    changed = []
    for q in sorted(set(before) & set(after)):
        if before[q] == after[q]:
            continue
        d = question_diff(before[q], after[q])
        if not d.empty:
            changed.append(d)
    return SetDiff(rev_from, rev_to, added, removed, tuple(changed))


def diff(cfg: Config, rev_from: str, rev_to: str | None = None) -> SetDiff:
    """The semantic diff of the label set between ``rev_from`` and ``rev_to`` (default: the
    working tree)."""
    with gc_paused():
        try:
            # Only files git sees as changed can differ in meaning: read just those, without
            # the record of judges, which no part of the diff compares.
            if rev_to is None:
                changed = changed_label_files(cfg, rev_from, rev_to)
                before = labels_at(cfg, rev_from, only=changed, provenance=False)
                after = labels_at(cfg, rev_to, only=changed, provenance=False)
            else:  # both commits' changed blobs from one diff-tree and one index load
                before, after = changed_labels(cfg, rev_from, rev_to, provenance=False)
        except RevisionError as exc:
            raise DiffError(str(exc)) from None
        found = diff_labels(before, after, rev_from, WORKTREE if rev_to is None else rev_to)
        # what stays is the diff, read until the process ends: the collector, switched on
        # again, would walk every object built above once (0.2 s at 10,000 changed files)
        gc.freeze()
    return found


def _both(
    cfg: Config, rev_from: str, rev_to: str | None
) -> tuple[dict[str, Label], dict[str, Label]]:
    """Every label at ``rev_from`` and at ``rev_to``, each file parsed as few times as can be.

    Label files git sees as unchanged are byte-identical at both revisions: when they are
    most of the set, the old labels are the new ones with the changed files' labels swapped
    for their old versions (read from git), instead of a second parse of every file.
    """
    after = labels_at(cfg, rev_to)
    changed = changed_label_files(cfg, rev_from, rev_to)
    if 2 * len(changed) > len(after):
        return labels_at(cfg, rev_from), after
    now = labels_at(cfg, rev_to, only=changed)
    before = {q: label for q, label in after.items() if q not in now}
    before.update(labels_at(cfg, rev_from, only=changed))
    return before, after


def score_changes(
    cfg: Config, d: SetDiff, runs: Sequence[str], measures: Sequence[Measure], k: int = 10
) -> SetDiff:
    """``d`` with, for each run, its headline measure (the first of ``measures``) and its
    unjudged rate at ``k`` against the labels of both revisions (the old ones read from git,
    in memory). The run files are the working tree's."""
    headline = measures[0]
    try:
        before, after = _both(cfg, d.rev_from, None if d.rev_to == WORKTREE else d.rev_to)
    except RevisionError as exc:
        raise DiffError(str(exc)) from None

    def at(run: runs_mod.Run, labels: Mapping[str, Label]) -> tuple[float | None, float | None]:
        if not any(label.is_judged for label in labels.values()):
            return None, None
        result = score(run, labels, [headline], k=k)
        mean = result.means[headline.name].raw
        rate = result.unjudged_rate
        return (
            None if math.isnan(mean) else float(mean),
            None if math.isnan(rate) else float(rate),
        )

    changes = []
    for spec in runs:
        try:
            run = runs_mod.load(cfg, spec)
        except runs_mod.RunError as exc:
            raise DiffError(str(exc)) from None
        old, old_rate = at(run, before)
        new, new_rate = at(run, after)
        changes.append(ScoreChange(run.name, headline.name, old, new, old_rate, new_rate))
    return dataclasses.replace(d, scores=tuple(changes))
