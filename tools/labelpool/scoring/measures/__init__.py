"""Retrieval measures, one module per family (as ir_measures), with ir_measures names.

Each family module (:mod:`.precision`, :mod:`.recall`, :mod:`.ndcg`, :mod:`.rr`, :mod:`.ap`,
:mod:`.success`, :mod:`.judged`) declares its :class:`Family` (documentation, how its
optimistic side is built, the trec_eval name it agrees with) beside the function that computes
it over every question at once. This module is the registry and the parser.

Public API:

* :class:`Measure` (frozen): ``name`` (canonical, e.g. ``nDCG@10``), ``family`` (``nDCG``),
  ``cutoff`` (``int | None``), ``doc`` (one line), ``trec_eval`` (the trec_eval / pytrec_eval
  measure name it agrees with, or None), ``bound`` (how its optimistic bound is built).
* :func:`parse` ``(specs: Iterable[str]) -> list[Measure]``: names, also as space- or
  comma-separated lists (``"P@10 nDCG@10,AP"``); duplicates dropped, order kept. An unknown
  name raises :class:`MeasureError` (a usage error, exit 2, and a ``ValueError``) listing the
  known ones. :func:`parse_one` ``(spec) -> Measure``: exactly one measure.
* :data:`FAMILIES`: the registry; :data:`DEFAULT` the default measures of ``score``,
  ``compare`` and ``check``.
* :func:`per_query` ``(measure, ranked, relevance_level, k) -> np.ndarray``: one value per
  question. Agrees with trec_eval (``P_k recall_k ndcg_cut_k recip_rank map map_cut_k
  success_k``) to 1e-9 when there are no classes.

Measures are parsed once, at the edge (the CLI); everything below takes :class:`Measure`.

Cut-offs: ``P``, ``R``, ``nDCG``, ``Success`` and ``Judged`` without ``@k`` use the scorer's
``k`` (``--k``, default 10); ``RR`` and ``AP`` without ``@k`` use the whole ranking (trec_eval's
``recip_rank`` and ``map``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from labelpool.scoring.measures import ap, judged, ndcg, precision, recall, rr, success
from labelpool.scoring.measures.base import Family, Measure, MeasureError
from labelpool.scoring.measures.ranked import Ranked

__all__ = [
    "DEFAULT",
    "FAMILIES",
    "Family",
    "Measure",
    "MeasureError",
    "known",
    "measure",
    "parse",
    "parse_one",
    "per_query",
]

FAMILIES: dict[str, Family] = {
    module.FAMILY.name: module.FAMILY
    for module in (precision, recall, ndcg, rr, ap, success, judged)
}

# The one default measure list (score, compare and check print the same six).
DEFAULT: tuple[str, ...] = ("R@10", "P@10", "nDCG@10", "RR@10", "AP@100", "Success@10")

_NAME = re.compile(r"^(?P<family>[A-Za-z]+)(?:@(?P<cutoff>[0-9]+))?$")


def known() -> str:
    """The accepted names, for messages."""
    out = []
    for f in FAMILIES.values():
        out.append(f"{f.name}, {f.name}@k" if f.full_depth else f"{f.name}@k")
    return ", ".join(out)


def measure(name: str) -> Measure:
    """One measure from its name (``nDCG@10``, ``AP``; families are case-insensitive)."""
    match = _NAME.match(name.strip())
    by_lower = {f.lower(): f for f in FAMILIES}
    family = by_lower.get(match.group("family").lower()) if match else None
    if match is None or family is None:
        raise MeasureError(f"unknown measure {name!r}; known: {known()}")
    fam = FAMILIES[family]
    cutoff_text = match.group("cutoff")
    cutoff = None if cutoff_text is None else int(cutoff_text)
    if cutoff is not None and cutoff < 1:
        raise MeasureError(f"measure {name!r}: the cut-off must be at least 1")
    if cutoff is None:
        trec = fam.trec_eval_full
    else:
        trec = fam.trec_eval.format(k=cutoff) if fam.trec_eval else None
    canonical = fam.name if cutoff is None else f"{fam.name}@{cutoff}"
    return Measure(
        name=canonical,
        family=fam.name,
        cutoff=cutoff,
        doc=fam.doc,
        bound=fam.bound,
        trec_eval=trec,
        full_depth=fam.full_depth,
    )


def parse(specs: Iterable[str]) -> list[Measure]:
    """Measures from names or space/comma-separated lists of names (order kept, no repeats)."""
    out: list[Measure] = []
    seen: set[str] = set()
    for spec in specs:
        for part in re.split(r"[\s,]+", spec.strip()):
            if not part:
                continue
            m = measure(part)
            if m.name not in seen:
                seen.add(m.name)
                out.append(m)
    if not out:
        raise MeasureError(f"no measure given; known: {known()}")
    return out


def parse_one(spec: str) -> Measure:
    """Exactly one measure (``bias -m``); a list of several raises :class:`MeasureError`."""
    parsed = parse([spec])
    if len(parsed) != 1:
        raise MeasureError(f"{spec!r}: give exactly one measure")
    return parsed[0]


def per_query(m: Measure, r: Ranked, relevance_level: int, k: int) -> np.ndarray:
    """Value of ``m`` for every question (``k``: the cut-off of measures given without one)."""
    return FAMILIES[m.family].compute(r, m.depth(k), relevance_level)
