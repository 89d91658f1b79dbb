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
# the same with the measure's parameter (RBP's persistence p)
ComputeWith = Callable[[Ranked, "int | None", int, float], np.ndarray]

BOUND = "bound"  # the optimistic column never lies below raw on any question
SCENARIO = "scenario"  # the optimistic column is the all-relevant scenario (can lie below raw)
ABSENT = "absent"  # no optimistic side: the column repeats raw


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
    optimistic: str = SCENARIO  # BOUND, SCENARIO or ABSENT
    source: str = ""  # where the measure is defined
    compute_with: ComputeWith | None = None  # for a family with a parameter
    parameter: tuple[str, float] | None = None  # (name, default), e.g. ("p", 0.8)
    cutoff_required: bool = False  # ERR@k: no value without a cut-off


@dataclass(frozen=True)
class Measure:
    name: str
    family: str
    cutoff: int | None
    doc: str
    bound: str
    trec_eval: str | None
    full_depth: bool = False
    param: float | None = None  # the family's parameter (RBP's p)
    spec: str | None = None  # a trec_eval measure: the -m value that computes it
    optimistic: str = SCENARIO  # BOUND, SCENARIO or ABSENT

    @property
    def range_key(self) -> str:
        """What ``compare``'s delta range is computed for: the family, with RBP's p, or
        ``trec_eval:<spec>`` for a trec_eval name."""
        if self.spec is not None:
            return f"trec_eval:{self.spec}"
        if self.param is not None:
            return f"{self.family}:{self.param!r}"
        return self.family

    def depth(self, k: int) -> int | None:
        """The cut-off this measure uses when the scorer's default is ``k`` (None: all)."""
        if self.cutoff is not None:
            return self.cutoff
        return None if self.full_depth else k
