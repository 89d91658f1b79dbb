"""LP042: integers a label holds stay within bounds the scorer's int64 arrays can carry.

A grade (``grades`` values, an integer pending verdict) is at most :data:`GRADE_MAX`; a cut-off
(a ``pool`` entry's ``k``, a batch's ``depth``, a ``full_depth`` value) at most
:data:`CUTOFF_MAX`, the largest cut-off the command line takes. The rule reads the plain data,
so it holds whatever schema a repository keeps (a copy without ``maximum`` included), and
:func:`first_violation` lets the label reader refuse a label that never went through
``validate`` before anything turns it into arrays.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from labelpool.findings import Finding
from labelpool.limits import CUTOFF_MAX, GRADE_MAX
from labelpool.rules.schema import dotted
from labelpool.rules.view import KeyPath, View

RULE = "LP042"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _out(value: Any, bound: int) -> bool:
    """A number outside ``[-bound, bound]`` (``nan`` and infinities included)."""
    return _number(value) and not -bound <= value <= bound


def violations(data: Any) -> Iterator[tuple[KeyPath, Any, int]]:
    """(keypath, value, bound) of every number of ``data`` (a label's plain data) over its
    bound, in file order of the keys this rule knows."""
    if not isinstance(data, dict):
        return
    grades = data.get("grades")
    if isinstance(grades, dict):
        for doc, grade in grades.items():
            if _out(grade, GRADE_MAX):
                yield ("grades", doc), grade, GRADE_MAX
    pool = data.get("pool")
    if isinstance(pool, list):
        for i, entry in enumerate(pool):
            if isinstance(entry, dict) and _out(entry.get("k"), CUTOFF_MAX):
                yield ("pool", i, "k"), entry["k"], CUTOFF_MAX
    pending = data.get("pending")
    if not isinstance(pending, list):
        return
    for b, batch in enumerate(pending):
        if not isinstance(batch, dict):
            continue
        if _out(batch.get("depth"), CUTOFF_MAX):
            yield ("pending", b, "depth"), batch["depth"], CUTOFF_MAX
        full = batch.get("full_depth")
        if isinstance(full, dict):
            for system, k in full.items():
                if _out(k, CUTOFF_MAX):
                    yield ("pending", b, "full_depth", system), k, CUTOFF_MAX
        docs = batch.get("docs")
        if isinstance(docs, list):
            for i, doc in enumerate(docs):
                if isinstance(doc, dict) and _out(doc.get("verdict"), GRADE_MAX):
                    yield ("pending", b, "docs", i, "verdict"), doc["verdict"], GRADE_MAX


def message(keypath: KeyPath, value: Any, bound: int) -> str:
    try:
        shown = str(value)
    except ValueError:  # more digits than Python converts (sys.int_info.str_digits_check_threshold)
        shown = "a number of thousands of digits"
    if len(shown) > 40 and shown[-1].isdigit():
        shown = f"{shown[:20]}...({len(shown)} digits)"
    what = "a grade" if bound == GRADE_MAX else "a cut-off"
    if _number(value) and value < 0:
        return f"{dotted(keypath)}: {shown} is out of bounds ({what} is at least -{bound:,})"
    return f"{dotted(keypath)}: {shown} is out of bounds ({what} is at most {bound:,})"


def first_violation(data: Any) -> tuple[KeyPath, str] | None:
    """(keypath, message) of the first number of ``data`` over its bound, or None."""
    for keypath, value, bound in violations(data):
        return keypath, message(keypath, value, bound)
    return None


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    for keypath, value, bound in violations(view.data):
        line, col = view.pos(keypath)
        out.append(Finding("", line, col, RULE, message(keypath, value, bound)))
    return out
