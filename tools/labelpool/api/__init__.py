"""labelpool's Python API: what the CLI does, as typed functions that return result objects.

::

    from labelpool import api

    repo = api.load(".")                      # the configuration and every label
    report = api.score(["bm25", "dense"], measures=["nDCG@10"], repo=repo)
    report.to_json()                          # == `labelpool score ... --format json`
    report.to_dict()                          # the same, parsed
    api.compare("bm25", "dense", repo=repo).comparisons[0].verdict
    api.pool(["bm25", "dense"], depth=20, repo=repo).plan.documents   # nothing written

Each call raises the :class:`~labelpool.errors.LabelpoolError` classes (``UsageError`` for a
bad argument, ``InputError`` for bad input, ``StateError`` for a repository state) and never
prints. The CLI commands ``score``, ``compare`` and ``pool`` call these same functions
(from the modules of this package, so that a command imports only what it needs); ``docs/api.md``
documents them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from labelpool.errors import InputError, LabelpoolError, StateError, UsageError

# Each public name and the module of this package that defines it. The facade imports a call's
# module on first use (PEP 562), so a command that needs one call (``labelpool score`` imports
# ``labelpool.api.scoring``) does not pay for the others' imports; ARCHITECTURE.md, "Lazy
# imports".
_WHERE = {
    "AgreementReport": "agreements",
    "ClassesReport": "classes",
    "propose_classes": "classes",
    "agreement": "agreements",
    "CompareReport": "comparison",
    "compare": "comparison",
    "PoolReport": "pooling",
    "pool": "pooling",
    "Repository": "repository",
    "RepoSpec": "repository",
    "RunSpec": "repository",
    "load": "repository",
    "ScoreReport": "scoring",
    "score": "scoring",
}

__all__ = [
    "AgreementReport",
    "ClassesReport",
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
    "agreement",
    "compare",
    "load",
    "pool",
    "propose_classes",
    "score",
]

if TYPE_CHECKING:
    from labelpool.api.agreements import AgreementReport, agreement
    from labelpool.api.classes import ClassesReport, propose_classes
    from labelpool.api.comparison import CompareReport, compare
    from labelpool.api.pooling import PoolReport, pool
    from labelpool.api.repository import Repository, RepoSpec, RunSpec, load
    from labelpool.api.scoring import ScoreReport, score
else:

    def __getattr__(name: str) -> object:
        try:
            module = importlib.import_module(f"{__name__}.{_WHERE[name]}")
        except KeyError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        value = getattr(module, name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
