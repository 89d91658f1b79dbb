"""What a measure is: a :class:`Family` (declared once, in its own module) and a
:class:`Measure` (one family at one cut-off, parsed from a name such as ``nDCG@10``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from labelpool.errors import UsageError
from labelpool.scoring.measures.ranked import Ranked

# (ranked rows, cut-off or None for the whole ranking, relevance level) -> one value a question
Compute = Callable[[Ranked, "int | None", int], np.ndarray]


class MeasureError(UsageError, ValueError):
    """An unknown or malformed measure name (a usage error, exit 2; also a ``ValueError``)."""


@dataclass(frozen=True)
class Family:
    """One measure family, declared as data, with the arithmetic that computes it."""

    name: str
    doc: str
    bound: str  # how its optimistic side is built
    trec_eval: str | None  # pytrec_eval name with ``{k}`` for the cut-off
    compute: Compute
    trec_eval_full: str | None = None  # name when there is no cut-off
    full_depth: bool = False  # without @k: the whole ranking (else the scorer's k)


@dataclass(frozen=True)
class Measure:
    name: str
    family: str
    cutoff: int | None
    doc: str
    bound: str
    trec_eval: str | None
    full_depth: bool = False

    def depth(self, k: int) -> int | None:
        """The cut-off this measure uses when the scorer's default is ``k`` (None: all)."""
        if self.cutoff is not None:
            return self.cutoff
        return None if self.full_depth else k
