"""labelpool's Python API: what the CLI does, as typed functions that return result objects.

::

    from labelpool import api

    repo = api.load(".")                      # the configuration and every label
    report = api.score(["bm25", "dense"], measures=["nDCG@10"], repo=repo)
    report.to_json()                          # == `labelpool score ... --format json`, parsed
    api.compare("bm25", "dense", repo=repo).comparisons[0].verdict
    api.pool(["bm25", "dense"], depth=20, repo=repo).plan.documents   # nothing written

Each call raises the :class:`~labelpool.errors.LabelpoolError` classes (``UsageError`` for a
bad argument, ``InputError`` for bad input, ``StateError`` for a repository state) and never
prints. The CLI commands ``score``, ``compare`` and ``pool`` call these same functions
(from the modules below, so that a command imports only what it needs); ``docs/api.md``
documents them.
"""

from __future__ import annotations

from labelpool.api_compare import CompareReport, compare
from labelpool.api_pool import PoolReport, pool
from labelpool.api_repo import Repository, RepoSpec, RunSpec, load
from labelpool.api_score import ScoreReport, score
from labelpool.errors import InputError, LabelpoolError, StateError, UsageError

__all__ = [
    "CompareReport",
    "InputError",
    "LabelpoolError",
    "PoolReport",
    "RepoSpec",
    "Repository",
    "RunSpec",
    "ScoreReport",
    "StateError",
    "UsageError",
    "compare",
    "load",
    "pool",
    "score",
]
