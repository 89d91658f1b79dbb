"""How the runs cover the scored questions, in words and as JSON (``score``, ``compare``,
``check``, ``report``).

* :func:`line` ``(coverages) -> str | None``: one header line, only when some run and the
  labels differ in their questions (``questions: 58 scored; 2 labelled questions missing
  from dense (counted 0, as trec_eval -c); 3 run questions of dense without a label
  (ignored)``); None when every run holds every scored question and nothing else. Plain text:
  each format passes it through its sanitiser.
* :func:`to_json` ``(coverage) -> dict``: the same facts of one run, always given.

Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from labelpool.words import counted
from labelpool.workflows.evaluate.coverage import Coverage


def _counts(pairs: Sequence[tuple[int, str]], noun: str, joiner: str) -> str:
    """``2 <noun>s <joiner> dense, 1 <joiner> bm25`` (the first count carries the noun)."""
    (n, first), rest = pairs[0], pairs[1:]
    head = f"{counted(n, noun)} {joiner} {first}"
    return ", ".join([head, *(f"{m} {joiner} {name}" for m, name in rest)])


def line(coverages: Sequence[Coverage]) -> str | None:
    """The header line of a partial overlap, or None."""
    if not any(c.partial for c in coverages):
        return None
    parts = [f"questions: {coverages[0].scored} scored"]
    missing = [(len(c.missing), c.system) for c in coverages if c.missing]
    if missing:
        parts.append(
            _counts(missing, "labelled question", "missing from") + " (counted 0, as trec_eval -c)"
        )
    extra = [(c.not_in_labels, c.system) for c in coverages if c.not_in_labels]
    if extra:
        parts.append(_counts(extra, "run question", "of") + " without a label (ignored)")
    return "; ".join(parts)


def to_json(c: Coverage) -> dict[str, Any]:
    """One run's coverage: scored questions, those it holds, those it lacks (counted 0) and
    how many of its questions have no label (ignored)."""
    return {
        "scored": c.scored,
        "in_run": c.in_run,
        "missing_from_run": list(c.missing),
        "not_in_labels": c.not_in_labels,
    }
