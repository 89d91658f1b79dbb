"""LP048-LP049: the pending form of several judges (``pool --judges N``, docs/judging.md).

* LP048: the seats of one batch are numbered 1..N, each once (N: the batch's entries in the
  file; a batch written for one judge has one entry and no seat), and ``task`` is
  ``second-opinion`` or ``adjudicate``;
* LP049: a seat's judge has not judged one of its documents already (in the record, or
  with a verdict in another seat), holds one seat of a batch, and an ``adjudicate`` entry
  lists only documents with two or more verdicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labelpool import verdicts
from labelpool.findings import Finding
from labelpool.model import label_from_data
from labelpool.rules.view import View

TASKS = ("second-opinion", "adjudicate")


def _batches(data: Any) -> list[tuple[int, Mapping[str, Any]]]:
    pending = data.get("pending") if isinstance(data, Mapping) else None
    return [(b, x) for b, x in enumerate(pending or ()) if isinstance(x, Mapping)]


Problem = tuple[tuple[Any, ...], str, str]  # (keypath, rule, message)


def has_seats(data: Any) -> bool:
    """Whether a pending entry names a seat, a task or a judge (else nothing to check)."""
    return any(("seat" in b or "task" in b or "judge" in b) for _, b in _batches(data))


def problems(data: Any) -> list[Problem]:
    """LP048-LP049 on plain label data (what :func:`check` reports, and what
    :func:`labelpool.rules.written.first_new_error` asks of a text about to be written)."""
    if not has_seats(data):
        return []  # the form of one judge: nothing to check (and nothing read)
    batches = _batches(data)
    return _seats(batches) + _judges(data, batches)


def check(view: View) -> list[Finding]:
    out = []
    for keypath, rule, message in problems(view.data):
        line, col = view.pos(keypath)
        out.append(Finding("", line, col, rule, message))
    return out


def _problem(keypath: tuple[Any, ...], rule: str, message: str) -> Problem:
    return (keypath, rule, message)


def _seats(batches: list[tuple[int, Mapping[str, Any]]]) -> list[Problem]:
    out: list[Problem] = []
    by_batch: dict[str, list[tuple[int, Any]]] = {}
    for b, batch in batches:
        by_batch.setdefault(str(batch.get("batch")), []).append((b, batch.get("seat")))
        task = batch.get("task")
        if task is not None and task not in TASKS:
            out.append(
                _problem(
                    ("pending", b, "task"),
                    "LP048",
                    f"pending[{b}]: task {task!r} is `second-opinion` or `adjudicate`",
                )
            )
    for name, entries in by_batch.items():
        n = len(entries)
        seen: set[Any] = set()
        for b, seat in entries:
            where = ("pending", b, "seat")
            if seat is None:
                if n > 1:
                    out.append(
                        _problem(
                            ("pending", b),
                            "LP048",
                            f"pending[{b}] ({name}): the batch has {n} entries in this file; "
                            f"each needs a `seat` from 1 to {n}",
                        )
                    )
                continue
            if not (isinstance(seat, int) and 1 <= seat <= n) or isinstance(seat, bool):
                out.append(
                    _problem(
                        where,
                        "LP048",
                        f"pending[{b}] ({name}): seat {seat!r} is not from 1 to {n} "
                        f"(the batch's entries in this file)",
                    )
                )
            elif seat in seen:
                out.append(
                    _problem(where, "LP048", f"pending[{b}] ({name}): seat {seat} is taken twice")
                )
            seen.add(seat)
    return out


def _judges(data: Any, batches: list[tuple[int, Mapping[str, Any]]]) -> list[Problem]:
    out: list[Problem] = []
    try:
        label = label_from_data(data)
    except (KeyError, TypeError, ValueError):  # the schema reports the shape
        return out
    holders: dict[tuple[str, str], int] = {}  # (batch, judge) -> the entry holding a seat
    for (b, _batch), pb in zip(batches, label.pending, strict=False):
        judge = pb.judge
        if judge is not None:
            first = holders.setdefault((pb.batch, judge), b)
            if first != b:
                out.append(
                    _problem(
                        ("pending", b, "judge"),
                        "LP049",
                        f"pending[{b}] ({pb.batch}): {judge} holds a seat of this batch "
                        f"already (pending[{first}])",
                    )
                )
        for i, d in enumerate(pb.docs):
            if judge is not None and _judged_by(label, d.doc, judge, b):
                out.append(
                    _problem(
                        ("pending", b, "docs", i),
                        "LP049",
                        f"pending[{b}] ({pb.batch}): {judge} judged {d.doc} already; "
                        "a seat needs a judge who has not",
                    )
                )
            if pb.task == "adjudicate" and len(verdicts.record(label, d.doc)) < 2:
                out.append(
                    _problem(
                        ("pending", b, "docs", i),
                        "LP049",
                        f"pending[{b}] ({pb.batch}): {d.doc} has fewer than two verdicts; "
                        "only a document judges disagree on is adjudicated",
                    )
                )
    return out


def _judged_by(label: Any, doc: str, judge: str, own: int) -> bool:
    """Whether ``judge`` gave ``doc`` a verdict: in the record, or in another seat."""
    if any(e.judge == judge for e in verdicts.record(label, doc)):
        return True
    return any(
        i != own
        and b.judge == judge
        and any(d.doc == doc and d.verdict is not None for d in b.docs)
        for i, b in enumerate(label.pending)
    )
