"""Retrieval measures declared as data, with ir_measures names.

Public API:

* :class:`Measure` (frozen): ``name`` (canonical, e.g. ``nDCG@10``), ``family`` (``nDCG``),
  ``cutoff`` (``int | None``), ``doc`` (one line), ``trec_eval`` (the trec_eval / pytrec_eval
  measure name it agrees with, or None), ``bound`` (how its optimistic bound is built).
* :func:`parse` ``(specs: Iterable[str]) -> list[Measure]``: names, also as space- or
  comma-separated lists (``"P@10 nDCG@10,AP"``); duplicates dropped, order kept. An unknown
  name raises :class:`MeasureError` (a ``ValueError``) listing the known ones.
* :data:`FAMILIES`: the registry; :data:`DEFAULT` the default measure list.
* :func:`labelpool.measures.compute.per_query` computes one measure for every question at once.

Cut-offs: ``P``, ``R``, ``nDCG``, ``Success`` and ``Judged`` without ``@k`` use the scorer's
``k`` (``--k``, default 10); ``RR`` and ``AP`` without ``@k`` use the whole ranking (trec_eval's
``recip_rank`` and ``map``).

Judged@k here is the share of the documents a system returned in its top k that carry a
judgment: ``judged / min(k, returned)``, 0 for a question the run does not answer. It is
``1 -`` the per-question unjudged rate. It differs from ir_measures' ``Judged@k`` (which breaks
score ties by doc id ascending, unlike trec_eval) and from trec_eval's ``unj@k`` (which divides
by k even when fewer documents were returned).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


class MeasureError(ValueError):
    """An unknown or malformed measure name."""


@dataclass(frozen=True)
class Family:
    name: str
    doc: str
    bound: str
    trec_eval: str | None  # pytrec_eval name with ``{k}`` for the cut-off
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


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "P",
            "precision: relevant documents in the top k, divided by k (trec_eval P_k)",
            "unjudged documents in the top k count as relevant: (a + u) / k",
            "P_{k}",
        ),
        Family(
            "R",
            "recall: relevant targets (classes count once) in the top k / all relevant targets",
            "(a + u) / (R + u): u unjudged documents in the top k join both sides",
            "recall_{k}",
        ),
        Family(
            "nDCG",
            "normalised DCG with the raw grades as gains and log2(rank + 1) discount "
            "(trec_eval ndcg_cut_k); the ideal ranking has one entry per class",
            "unjudged documents in the top k get grade max(level, 1), and the ideal ranking "
            "gains as many entries of that grade (a scenario, not a bound: it can fall below "
            "raw)",
            "ndcg_cut_{k}",
        ),
        Family(
            "RR",
            "reciprocal rank of the first relevant document (trec_eval recip_rank; @k: on the "
            "ranking cut to its top k)",
            "an unjudged document in the top k counts as relevant (RR can only rise)",
            None,
            "recip_rank",
            full_depth=True,
        ),
        Family(
            "AP",
            "average precision over all relevant targets (trec_eval map; @k: map_cut_k, "
            "divided by all relevant targets)",
            "unjudged documents in the top k (the scorer's k for AP without @k) count as "
            "relevant, and as many relevant targets join the denominator (a scenario, not a "
            "bound: it can fall below raw)",
            "map_cut_{k}",
            "map",
            full_depth=True,
        ),
        Family(
            "Success",
            "1 when a relevant document is in the top k, else 0 (trec_eval success_k)",
            "1 when the top k holds a relevant or an unjudged document",
            "success_{k}",
        ),
        Family(
            "Judged",
            "share of the returned top-k documents that carry a judgment: "
            "judged / min(k, returned); 1 - the per-question unjudged rate",
            "not a relevance measure: the same value in all three columns",
            None,
        ),
    )
}

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
