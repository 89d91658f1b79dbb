"""Retrieval measures, one module per family (as ir_measures), with ir_measures names, and
trec_eval's measures by their trec_eval names.

Each family module (:mod:`.precision`, :mod:`.recall`, :mod:`.ndcg`, :mod:`.rr`, :mod:`.ap`,
:mod:`.success`, :mod:`.judged`, :mod:`.rbp`, :mod:`.err`) declares its :class:`Family`
(documentation, source, how its optimistic side is built and whether it is a bound, the
trec_eval name it agrees with) beside the function that computes it over every question at
once. :mod:`.trec` makes trec_eval's measures (:mod:`labelpool.scoring.trec_eval`) usable
here; :mod:`.ranges` gives ``compare`` their delta range. This module is the registry, the
naming rule and the parser.

Public API:

* :class:`Measure` (frozen): ``name`` (canonical, e.g. ``nDCG@10``, ``P_5``), ``family``
  (``nDCG``; ``trec_eval:<name>`` for a trec_eval name), ``cutoff`` (``int | None``), ``doc``,
  ``trec_eval`` (the trec_eval / pytrec_eval name it agrees with, or None), ``bound`` (how its
  optimistic side is built), ``optimistic`` (bound, scenario or absent), ``param`` (RBP's p),
  ``spec`` (a trec_eval name's one-column ``-m`` value), ``range_key``.
* :func:`is_trec` ``(name)``: the naming rule: a name with ``.`` or ``_``, or equal to a
  trec_eval measure or nickname, is a trec_eval name (commas are its parameters), unless it has
  ir_measures' parentheses (``RBP(p=0.8)``). Names are case-sensitive.
* :func:`parse` ``(specs: Iterable[str]) -> list[Measure]``: names, also as lists split on
  spaces, and labelpool names also on commas (``"P@10 nDCG@10,AP P.5,10"``); duplicates
  dropped, order kept. An unknown name raises :class:`MeasureError` (a usage error, exit 2, and
  a ``ValueError``) listing the known ones (and the right case when only the case is wrong).
  :func:`parse_one` ``(spec) -> Measure``: exactly one of labelpool's measures.
* :data:`FAMILIES`: the registry; :data:`ALIASES`: ``Bpref`` and ``infAP``, computed by
  trec_eval's arithmetic; :data:`DEFAULT` the default measures of ``compare`` and ``check``,
  :data:`SCORE_DEFAULT` those of ``score``.
* :func:`per_query` ``(measure, ranked, relevance_level, k) -> np.ndarray``: one value per
  question of a labelpool family. Agrees with trec_eval (``P_k recall_k ndcg_cut_k recip_rank
  map map_cut_k success_k``) to 1e-9 when there are no classes. trec_eval names need the run:
  :func:`labelpool.scoring.measures.trec.per_query`.

Measures are parsed once, at the edge (the CLI); everything below takes :class:`Measure`.

Cut-offs: ``R``, ``nDCG``, ``Success``, ``Judged`` and ``ERR`` without ``@k`` use the scorer's
``k`` (``--k``, default 10; ``P`` alone is trec_eval's ``P``); ``RR``, ``AP`` and ``RBP`` without
``@k`` use the whole ranking (trec_eval's ``recip_rank`` and ``map``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from labelpool.scoring.measures import (
    ap,
    err,
    judged,
    ndcg,
    precision,
    rbp,
    recall,
    rr,
    success,
    trec,
)
from labelpool.scoring.measures.base import Family, Measure, MeasureError
from labelpool.scoring.measures.ranked import Ranked
from labelpool.scoring.trec_eval import is_trec_name

__all__ = [
    "DEFAULT",
    "FAMILIES",
    "SCORE_DEFAULT",
    "Family",
    "Measure",
    "MeasureError",
    "is_trec",
    "known",
    "measure",
    "parse",
    "parse_one",
    "per_query",
]

FAMILIES: dict[str, Family] = {
    module.FAMILY.name: module.FAMILY
    for module in (precision, recall, ndcg, rr, ap, success, judged, rbp, err)
}
# labelpool names computed by a trec_eval measure (ir_measures spells them so)
ALIASES = {"Bpref": "bpref", "infAP": "infAP"}

# The default measures of compare and check (one verdict each)...
DEFAULT: tuple[str, ...] = ("R@10", "P@10", "nDCG@10", "RR@10", "AP@100", "Success@10")
# ... and of score: one row per system that fits 80 columns (-m for more)
SCORE_DEFAULT: tuple[str, ...] = ("R@10", "nDCG@10", "P@10")

_NAME = re.compile(r"^(?P<family>[A-Za-z]+)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[0-9]+))?$")


def is_trec(name: str) -> bool:
    """The naming rule: a trec_eval name (``.`` or ``_`` in it, or a trec_eval measure or
    nickname), unless it has ir_measures' parentheses (``RBP(p=0.8)``)."""
    return "(" not in name and is_trec_name(name)


def known() -> str:
    """The accepted names, for messages."""
    out = []
    for f in FAMILIES.values():
        if f.parameter:
            out.append(f"{f.name}, {f.name}({f.parameter[0]}=...)")
        else:
            out.append(f"{f.name}, {f.name}@k" if f.full_depth else f"{f.name}@k")
    out.append(", ".join(ALIASES))
    out.append("trec_eval names (P.5, ndcg_cut.10, map, bpref, ...)")
    return ", ".join(out)


def _unknown(name: str) -> MeasureError:
    match = _NAME.match(name.strip())
    hint = ""
    if match:
        lower = match.group("family").lower()
        same = [f for f in (*FAMILIES, *ALIASES) if f.lower() == lower]
        if same:
            text = name.strip()
            right = text[: match.start("family")] + same[0] + text[match.end("family") :]
            hint = f" (names are case-sensitive: {right})"
    return MeasureError(f"unknown measure {name!r}{hint}; known: {known()}")


def _param(fam: Family, name: str, text: str | None) -> float | None:
    if fam.parameter is None:
        if text is not None:
            raise MeasureError(f"measure {name!r}: {fam.name} takes no parameter")
        return None
    key, default = fam.parameter
    if text is None or not text.strip():
        return default
    got_key, eq, value = text.partition("=")
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not eq or got_key.strip() != key or not 0.0 < number < 1.0:
        raise MeasureError(f"measure {name!r}: give {fam.name}({key}=x) with 0 < x < 1")
    return number


def measure(name: str) -> Measure:
    """One measure from its labelpool name (``nDCG@10``, ``AP``, ``RBP(p=0.8)``; case-sensitive)."""
    match = _NAME.match(name.strip())
    if match is None:
        raise _unknown(name)
    family = match.group("family")
    cutoff_text = match.group("cutoff")
    cutoff = None if cutoff_text is None else int(cutoff_text)
    if family in ALIASES and match.group("params") is None and cutoff is None:
        return trec.measures_of(ALIASES[family], name=family)[0]
    if family not in FAMILIES:
        raise _unknown(name)
    fam = FAMILIES[family]
    if cutoff is not None and cutoff < 1:
        raise MeasureError(f"measure {name!r}: the cut-off must be at least 1")
    param = _param(fam, name, match.group("params"))
    if cutoff is None:
        trec_name = fam.trec_eval_full
    else:
        trec_name = fam.trec_eval.format(k=cutoff) if fam.trec_eval else None
    default = fam.parameter[1] if fam.parameter else None
    canonical = fam.name if param == default else f"{fam.name}(p={param!r})"
    if cutoff is not None:
        canonical = f"{canonical}@{cutoff}"
    return Measure(
        name=canonical,
        family=fam.name,
        cutoff=cutoff,
        doc=fam.doc,
        bound=fam.bound,
        trec_eval=trec_name,
        full_depth=fam.full_depth,
        param=param,
        optimistic=fam.optimistic,
    )


def parse(specs: Iterable[str]) -> list[Measure]:
    """Measures from names or lists of names (order kept, no repeats).

    A list is split on spaces; a labelpool name also on commas (``"P@10,nDCG@10 AP"``); in a
    trec_eval name commas separate parameters (``P.5,10``: two measures, ``P_5`` and
    ``P_10``).
    """
    out: list[Measure] = []
    seen: set[str] = set()
    for spec in specs:
        for token in spec.split():
            found = (
                trec.measures_of(token)
                if is_trec(token)
                else [measure(part) for part in token.split(",") if part]
            )
            for m in found:
                if m.name not in seen:
                    seen.add(m.name)
                    out.append(m)
    if not out:
        raise MeasureError(f"no measure given; known: {known()}")
    return out


def parse_one(spec: str) -> Measure:
    """Exactly one measure of labelpool's own (``bias -m``); a list of several, or a trec_eval
    measure, raises :class:`MeasureError`."""
    parsed = parse([spec])
    if len(parsed) != 1:
        raise MeasureError(f"{spec!r}: give exactly one measure")
    if parsed[0].spec is not None:
        raise MeasureError(f"{spec!r}: give one of labelpool's measures ({known()})")
    return parsed[0]


def per_query(m: Measure, r: Ranked, relevance_level: int, k: int) -> np.ndarray:
    """Value of ``m`` for every question (``k``: the cut-off of measures given without one).

    Not for trec_eval measures (``m.spec`` set), which need the run itself:
    :func:`labelpool.scoring.measures.trec.per_query`.
    """
    fam = FAMILIES[m.family]
    if fam.compute_with is not None and m.param is not None:
        return fam.compute_with(r, m.depth(k), relevance_level, m.param)
    return fam.compute(r, m.depth(k), relevance_level)
