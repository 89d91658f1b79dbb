"""Render a :class:`~labelpool.workflows.todo.Todo`: text or JSON (every name sanitised)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from labelpool.render import sanitize
from labelpool.words import counted
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
    lines += _dispute_lines(t)
    return "".join(sanitize.text(line).rstrip() + "\n" for line in lines)


def _dispute_lines(t: Todo) -> list[str]:
    """Open disputes by question, and the command that makes their adjudication batch."""
    if not t.disputes:
        return []
    docs = sum(len(d.docs) for d in t.disputes)
    lines = [
        f"open disputes: {counted(docs, 'document')} in {counted(len(t.disputes), 'question')}"
    ]
    width = max(len(d.qid) for d in t.disputes)
    lines += [f"  {d.qid:<{width}}  {', '.join(d.docs)}" for d in t.disputes]
    lines.append("adjudicate: labelpool pool --adjudicate makes the batch that settles them")
    return lines


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
    if t.disputes:
        doc["disputes"] = [
            {"id": d.qid, "path": shown(d.path), "docs": list(d.docs)} for d in t.disputes
        ]
    return doc
