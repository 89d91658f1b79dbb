"""``labelpool report``: gather, render, write the file atomically."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from labelpool import atomic
from labelpool.api.repository import Repository
from labelpool.report import gather, page


def write(
    repo: Repository,
    runs: Sequence[str],
    out: Path,
    *,
    baseline: str | None = None,
    measures: Sequence[str] | None = None,
    k: int = 10,
    relevance_level: int = 1,
    seed: int = 0,
) -> gather.ReportData:
    """Write the report of ``runs`` to ``out`` (replaced whole, atomically)."""
    data = gather.gather(
        repo,
        runs,
        baseline=baseline,
        measures=measures,
        k=k,
        relevance_level=relevance_level,
        seed=seed,
    )
    atomic.write_text(out, page.render(data))
    return data
