"""Labels built when used: a mapping of question id -> :class:`~labelpool.model.Label` over
the files of a reading (:mod:`.files`), each label built from its file's data on first use.

A warm read of 100,000 label files thus builds none: what scoring reads of them is served
from the index's columns (:mod:`labelpool.columns`), and only the labels a command looks at
are decoded and built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import repeat
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from labelpool import columns
from labelpool.labelindex import files
from labelpool.labelindex.files import Reading
from labelpool.model import Label, label_from_data

Found = tuple[
    dict[str, Label],  # the labels built
    dict[str, tuple[Reading, int]],  # question id -> its reading and file
]


V = TypeVar("V")


class _ByQuestion(Mapping[str, V]):
    """A mapping over the questions ``where`` names (each question's reading and file)."""

    _where: dict[str, tuple[Reading, int]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, qid: object) -> bool:
        return qid in self._where


class LazyLabels(_ByQuestion[Label]):
    """Question id -> label; ``where`` names each question's reading and file, ``built``
    holds the labels built already (and receives each one built later)."""

    def __init__(self, where: dict[str, tuple[Reading, int]], built: dict[str, Label]) -> None:
        self._where = where
        self._built = built

    def __getitem__(self, qid: str) -> Label:
        found = self._built.get(qid)
        if found is None:
            reading, i = self._where[qid]
            found = self._built[qid] = label_from_data(reading.data(i))
        return found

    def __repr__(self) -> str:
        return f"LazyLabels({len(self)} labels, {len(self._built)} built)"

    @property
    def where(self) -> Mapping[str, tuple[Reading, int]]:
        """Question id -> the reading and file its label comes from."""
        return self._where


class LazyPaths(_ByQuestion[Path]):
    """Question id -> its file, each path built when asked."""

    def __init__(self, where: dict[str, tuple[Reading, int]]) -> None:
        self._where = where

    def __getitem__(self, qid: str) -> Path:
        reading, i = self._where[qid]
        return reading.path(i)


def take(
    reading: Reading,
    found: Found,
    check: Callable[[Path, Any, bool], Label],
    duplicate: Callable[[Path, str], Exception],
    *,
    stems: bool,
) -> None:
    """Every file of one reading into ``found``: ``check(path, data, checked)`` gives the
    label of each file whose checks did not pass before (or raises), and with ``stems`` is
    called on a file whose checks passed but whose name is not its question id (LP022); the
    question id of a file whose checks passed comes from the index's ``id`` column, and no
    label is built. ``duplicate(path, qid)`` is raised for a second file of one question.
    What was parsed and checked is recorded and kept, also when a later file is refused."""
    built, where_of = found
    table = reading.rows.table
    known: list[str | None] = [None] * len(reading.at)
    at = np.asarray(reading.at, dtype=np.int64)
    if table is not None and reading.extra is not None and len(at):
        known = files.take_rows(table.select(["id"]), np.maximum(at, 0)).column("id").to_pylist()
        for i in np.flatnonzero(at < 0).tolist():
            known[i] = None
    fresh: list[int] = []
    labels: list[Label] = []
    try:
        quick = _take_checked(reading, known, at, where_of, check, stems=stems)
        if quick is not None:
            fresh, labels = quick
            built.update((lab.id, lab) for lab in labels)
        for i, name in enumerate(reading.names if quick is None else ()):
            qid = known[i]
            if qid is None or not reading.checked(i):
                label = check(reading.path(i), reading.data(i), False)
                qid = label.id
                built[qid] = label
                fresh.append(i)
                labels.append(label)
            elif stems and qid != _stem(name):
                check(reading.path(i), reading.data(i), True)
            if qid in where_of:
                raise duplicate(reading.path(i), qid)
            where_of[qid] = (reading, i)
    finally:
        if reading.extra is not None:
            reading.record(fresh, columns.of_labels(labels))
        reading.save()


def _take_checked(
    reading: Reading,
    known: list[str | None],
    at: np.ndarray,
    where_of: dict[str, tuple[Reading, int]],
    check: Callable[[Path, Any, bool], Label],
    *,
    stems: bool,
) -> tuple[list[int], list[Label]] | None:
    """:func:`take`'s loop when the checks passed before on all but a few files and no
    question has two files (a warm read): the files checked here and their labels, with
    ``where_of`` filled; None (nothing changed) where the loop must run file by file, which
    then refuses what it refuses in its order."""
    n = len(known)
    if not n or reading.extra is None or not len(reading.rows.checked):
        return None
    passed = (at >= 0) & reading.rows.checked[np.maximum(at, 0)]
    fresh = np.flatnonzero(~passed).tolist()
    if len(fresh) > n // 8:
        return None
    ids = list(known)
    labels: list[Label] = []
    try:
        for i in fresh:  # a refusal: the loop refuses it, or an earlier file, in order
            labels.append(check(reading.path(i), reading.data(i), False))
            ids[i] = labels[-1].id
    except Exception:  # the loop, run again, raises it in its place
        return None
    if len(set(ids)) != n or not where_of.keys().isdisjoint(ids):
        return None
    if stems:
        for i in np.flatnonzero(passed).tolist():
            qid = ids[i]
            if qid != _stem(reading.names[i]):
                check(reading.path(i), reading.data(i), True)
    where_of.update(zip(ids, zip(repeat(reading), range(n), strict=False), strict=True))  # type: ignore[arg-type]
    return fresh, labels


def _stem(name: str) -> str:
    """``Path(name).stem``."""
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name
