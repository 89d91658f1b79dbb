"""LP032-LP033: pool provenance present once anything is judged; unknown origin flagged."""

from __future__ import annotations

from labelpool.findings import Finding
from labelpool.model import UNKNOWN_SYSTEM
from labelpool.rules.classes import accepted
from labelpool.rules.view import View


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    judged = view.get(("judged_ids",)) or accepted(view.get(("relevant_classes",)))
    pool = view.get(("pool",))
    if judged and not pool:
        key = ("pool",) if "pool" in view.data else ("judged_ids",)
        line, col = view.pos(key, key=True)
        out.append(
            Finding(
                "",
                line,
                col,
                "LP032",
                "pool: judged documents need a non-empty `pool` saying which systems' "
                "top-k was judged (use `system: unknown, k: null, date: null` for an "
                "import of unknown origin)",
            )
        )
    for i, entry in view.items(("pool",)):
        if entry.get("system") == UNKNOWN_SYSTEM or entry.get("k") is None:
            line, col = view.pos(("pool", i))
            out.append(
                Finding(
                    "",
                    line,
                    col,
                    "LP033",
                    f"pool[{i}]: unknown origin (system {entry.get('system')}, k "
                    f"{entry.get('k')}): reports flag scores on these labels",
                    "warning",
                )
            )
    return out
