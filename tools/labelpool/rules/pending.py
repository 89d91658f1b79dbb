"""LP034-LP035: pending verdicts resolved before merging; a duplicate-of names another document."""

from __future__ import annotations

from labelpool.findings import Finding
from labelpool.rules.view import View


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    for b, batch in view.items(("pending",)):
        for i, doc in view.items(("pending", b, "docs")):
            verdict = doc.get("verdict")
            if verdict is None:
                line, col = view.pos(("pending", b, "docs", i))
                out.append(
                    Finding(
                        "",
                        line,
                        col,
                        "LP034",
                        f"pending[{b}] ({batch.get('batch')}): {doc.get('doc')} has no verdict yet",
                    )
                )
            elif isinstance(verdict, dict) and verdict.get("duplicate-of") == doc.get("doc"):
                vline, vcol = view.pos(("pending", b, "docs", i, "verdict"))
                out.append(
                    Finding(
                        "",
                        vline,
                        vcol,
                        "LP035",
                        f"pending[{b}].docs[{i}]: {doc.get('doc')} cannot be a duplicate of itself",
                    )
                )
    return out
