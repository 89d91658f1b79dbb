"""``pool`` entries ``{system, k, date, run}`` added to a label (by ``pool`` for a question
judged in full, by ``merge`` for a batch resolved in full); kept apart from
:mod:`labelpool.workflows.pool.write` so that ``merge`` does not load the run readers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from labelpool import batch as batch_mod
from labelpool import labelfile, yamlfile

__all__ = ["add_pool_entries", "new_entries"]


def new_entries(
    pool: Any, entries: Sequence[tuple[str, int, str, str | None]]
) -> list[tuple[str, int, str, str | None]]:
    """The ``entries`` a label's ``pool`` list (its value, plain or round trip) does not cover
    yet (same system, a ``k`` at least as deep, and the same or no run)."""
    existing = [
        (str(p.get("system")), p.get("k"), p.get("run")) for p in pool or () if isinstance(p, dict)
    ]
    new: list[tuple[str, int, str, str | None]] = []
    for system, k, date, run in entries:
        covered = any(
            s == system
            and pk is not None
            and int(pk) >= k
            and (pr is None or run is None or str(pr) == run)
            for s, pk, pr in existing + [(n[0], n[1], n[3]) for n in new]
        )
        if covered or k < 1:
            continue
        new.append((system, k, date, run))
    return new


def add_pool_entries(data: Any, entries: Sequence[tuple[str, int, str, str | None]]) -> bool:
    """Append ``{system, k, date, run}`` entries to a round-trip label's ``pool`` list, skipping
    any already covered (:func:`new_entries`)."""
    pool = data.get("pool")
    new = new_entries(pool, entries)
    if not new:
        return False
    text = "pool:\n" + "".join(
        f"  - system: {batch_mod.quote(system)}\n    k: {k}\n    date: '{date}'\n"
        + (f"    run: {run}\n" if run is not None else "")
        for system, k, date, run in new
    )
    items = yamlfile.loads_roundtrip(text)["pool"]
    if isinstance(pool, list):
        pool.extend(items)
    else:
        if "pool" in data:
            del data["pool"]
        data.insert(labelfile.canonical_index(data, "pool"), "pool", items)
    return True
