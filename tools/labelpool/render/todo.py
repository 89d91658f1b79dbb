"""Render a :class:`~labelpool.workflows.todo.Todo`: text or JSON (every name sanitised)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from labelpool.render import sanitize
from labelpool.workflows.todo import Todo


def shown(path: Path) -> str:
    """``path`` relative to the working folder when inside it (what an editor opens)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


def _count(filled: int, total: int, mine: int | None, what: str = "") -> str:
    return f"{filled}/{total}{what}" + (f" (mine: {mine})" if mine is not None else "")


def render_text(t: Todo) -> str:
    lines: list[str] = []
    if not t.batches:
        lines.append("no pending batch: nothing to judge")
    for b in t.batches:
        seat = "" if b.seat is None else f" seat {b.seat}"
        lines.append(f"batch {b.batch}{seat}: {_count(b.filled, b.total, b.mine, ' filled')}")
        width = max(len(q.qid) for q in b.questions)
        lines += [
            f"  {q.qid:<{width}}  {_count(q.filled, q.total, q.mine)}"
            + ("" if q.judge is None else f"  judge: {q.judge}")
            for q in b.questions
        ]
    if t.me is not None:
        lines.append(f"mine: verdict lines last changed by {t.me} (uncommitted lines count)")
    nxt = t.next
    if nxt is not None:
        lines.append(f"next: {shown(nxt[0])}:{nxt[1]}")
    elif t.batches:
        lines.append("next: none, every verdict is filled (`labelpool merge` folds them)")
    return "".join(sanitize.text(line).rstrip() + "\n" for line in lines)


def to_json(t: Todo) -> dict[str, Any]:
    nxt = t.next
    doc: dict[str, Any] = {
        "filled": t.filled,
        "total": t.total,
        "next": None if nxt is None else {"path": shown(nxt[0]), "line": nxt[1]},
        "batches": [
            {
                "batch": b.batch,
                **({"seat": b.seat} if b.seat is not None else {}),
                "filled": b.filled,
                "total": b.total,
                **({"mine": b.mine} if t.me is not None else {}),
                "questions": [
                    {
                        "id": q.qid,
                        "path": shown(q.path),
                        "filled": q.filled,
                        "total": q.total,
                        **({"mine": q.mine} if t.me is not None else {}),
                        "next_line": q.next_line,
                        **({"judge": q.judge} if q.judge is not None else {}),
                    }
                    for q in b.questions
                ],
            }
            for b in t.batches
        ],
    }
    if t.me is not None:
        doc["me"] = t.me
        doc["mine"] = t.mine
    return doc
