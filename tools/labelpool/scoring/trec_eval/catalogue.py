"""trec_eval 10.0's measures as data: names, order, parameter kinds, defaults, nicknames, and
the ``-m name.params`` parser (``trec_eval.c``'s ``mark_measure``, ``meas_init.c``).

* :data:`MEASURES`: every supported measure in trec_eval's own order (``measures.c``), which is
  the order of the output whatever the order of ``-m``.
* :data:`NICKNAMES`: ``official``, ``all_trec``, ``set``.
* :func:`select` ``(specs) -> tuple[Selected, ...]``: the measures ``-m`` asks for, in trec_eval
  order, each with its parameters and output column names; an unknown name or bad parameters
  raise :class:`~labelpool.scoring.measures.base.MeasureError` (exit 2).
* :func:`is_trec_name` ``(name) -> bool``: the naming rule: a name with ``.`` or ``_``, or equal
  to a trec_eval measure or nickname, is a trec_eval name (case-sensitive).

Parameters follow ``meas_init.c``: long cut-offs (``P.5,10``: ``atol``, sorted, positive, no
duplicates; columns ``P_5``), double cut-offs (``iprec_at_recall..1,.5``: ``atof``, sorted, no
duplicates; columns ``iprec_at_recall_0.10``), double parameters (``utility.1,-1,0,0``: kept in
order; one column named ``utility_1,-1,0,0``), name=value pairs (``ndcg.1=2,2=5``; one column
named ``ndcg_1=2,2=5``). When a measure is given twice with parameters, the first wins, as in
trec_eval.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from labelpool.scoring.measures.base import MeasureError
from labelpool.scoring.trec_eval.cnum import atof, atol, two_decimals


class Kind(Enum):
    LONG = "long"  # one integer column (num_*)
    DOUBLE = "double"  # one float column, no parameters
    CUT_LONG = "cut_long"  # one column per integer cut-off
    CUT_DOUBLE = "cut_double"  # one column per double cut-off
    PARAMS = "params"  # one column; double parameters
    PAIRS = "pairs"  # one column; name=value parameters


class Summary(Enum):
    MEAN = "mean"  # sum over questions / number of questions
    SUM = "sum"  # num_ret, num_rel_ret, num_nonrel_judged_ret
    GEOMETRIC = "geometric"  # gm_map, gm_bpref (printed only in the summary)
    NONE = "none"  # relstring (printed only per question), runid, num_q


@dataclass(frozen=True)
class Definition:
    name: str
    kind: Kind
    summary: Summary = Summary.MEAN
    defaults: tuple[float, ...] = ()
    per_query: bool = True  # printed in the per-question blocks


_CUTS = (5.0, 10.0, 15.0, 20.0, 30.0, 100.0, 200.0, 500.0, 1000.0)
_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

MEASURES: tuple[Definition, ...] = (
    Definition("runid", Kind.LONG, Summary.NONE, per_query=False),
    Definition("num_q", Kind.LONG, Summary.NONE, per_query=False),
    Definition("num_ret", Kind.LONG, Summary.SUM),
    Definition("num_rel", Kind.LONG, Summary.SUM),
    Definition("num_rel_ret", Kind.LONG, Summary.SUM),
    Definition("map", Kind.DOUBLE),
    Definition("gm_map", Kind.DOUBLE, Summary.GEOMETRIC, per_query=False),
    Definition("Rprec", Kind.DOUBLE),
    Definition("bpref", Kind.DOUBLE),
    Definition("recip_rank", Kind.DOUBLE),
    Definition("iprec_at_recall", Kind.CUT_DOUBLE, defaults=_RECALL_POINTS),
    Definition("P", Kind.CUT_LONG, defaults=_CUTS),
    Definition("relstring", Kind.PARAMS, Summary.NONE, defaults=(10.0,)),
    Definition("recall", Kind.CUT_LONG, defaults=_CUTS),
    Definition("infAP", Kind.DOUBLE),
    Definition("gm_bpref", Kind.DOUBLE, Summary.GEOMETRIC, per_query=False),
    Definition(
        "Rprec_mult", Kind.CUT_DOUBLE, defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
    ),
    Definition("utility", Kind.PARAMS, defaults=(1.0, -1.0, 0.0, 0.0)),
    Definition("11pt_avg", Kind.PARAMS, defaults=_RECALL_POINTS),
    Definition("binG", Kind.DOUBLE),
    Definition("G", Kind.PAIRS),
    Definition("dcg", Kind.PAIRS),
    Definition("ideal_dcg", Kind.PAIRS),
    Definition("ndcg", Kind.PAIRS),
    Definition("ndcg_rel", Kind.PAIRS),
    Definition("Rndcg", Kind.PAIRS),
    Definition("ndcg_cut", Kind.CUT_LONG, defaults=_CUTS),
    Definition("map_cut", Kind.CUT_LONG, defaults=_CUTS),
    Definition("relative_P", Kind.CUT_LONG, defaults=_CUTS),
    Definition("success", Kind.CUT_LONG, defaults=(1.0, 5.0, 10.0)),
    Definition("set_P", Kind.DOUBLE),
    Definition("set_relative_P", Kind.DOUBLE),
    Definition("set_recall", Kind.DOUBLE),
    Definition("set_map", Kind.DOUBLE),
    Definition("set_F", Kind.PARAMS, defaults=(1.0,)),
    Definition("num_nonrel_judged_ret", Kind.LONG, Summary.SUM),
    Definition("rbp", Kind.PAIRS),
    Definition("rbp_resid", Kind.PAIRS),
    Definition("unj", Kind.CUT_LONG, defaults=(5.0, 10.0, 20.0)),
)
BY_NAME = {d.name: d for d in MEASURES}
ORDER = {d.name: i for i, d in enumerate(MEASURES)}

_OFFICIAL = (
    "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P"
)
_ALL_TREC = (
    _OFFICIAL + " relstring recall unj rbp rbp_resid infAP gm_bpref utility 11pt_avg ndcg "
    "relative_P Rprec_mult success map_cut ndcg_cut ndcg_rel Rndcg binG G set_P set_recall "
    "set_relative_P set_map set_F num_nonrel_judged_ret"
)
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": tuple(_OFFICIAL.split()),
    "all_trec": tuple(_ALL_TREC.split()),
    "set": tuple(
        [
            "runid",
            "num_q",
            "num_ret",
            "num_rel",
            "num_rel_ret",
            "utility",
            "set_P",
            "set_recall",
            "set_relative_P",
            "set_map",
            "set_F",
        ]
    ),
}
# trec_eval measures that need other input formats (preferences, judgment groups)
UNSUPPORTED = frozenset(
    [
        "prefs_num_prefs_poss",
        "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret",
        "prefs_simp",
        "prefs_pair",
        "prefs_avgjg",
        "prefs_avgjg_Rnonrel",
        "prefs_simp_ret",
        "prefs_pair_ret",
        "prefs_avgjg_ret",
        "prefs_avgjg_Rnonrel_ret",
        "prefs_simp_imp",
        "prefs_pair_imp",
        "prefs_avgjg_imp",
        "map_avgjg",
        "P_avgjg",
        "Rprec_mult_avgjg",
        "yaap",
        "all_prefs",
        "prefs",
        "qrels_jg",
    ]
)


def is_trec_name(name: str) -> bool:
    """The naming rule: ``.`` or ``_`` in the name, or a trec_eval measure or nickname."""
    return "." in name or "_" in name or name in BY_NAME or name in NICKNAMES


@dataclass(frozen=True)
class Selected:
    """One trec_eval measure as asked for: its parameters and its output columns."""

    definition: Definition
    values: tuple[float, ...]  # cut-offs (sorted) or parameters (in order)
    pairs: tuple[tuple[str, float], ...] = ()
    columns: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def cutoffs(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.values)

    def pair(self, key: str, default: float) -> float:
        """The value of the last ``key=value`` pair (trec_eval's ``rbp`` reads ``p``)."""
        out = default
        for name, value in self.pairs:
            if name == key:
                out = value
        return out


def _bad(spec: str, why: str) -> MeasureError:
    return MeasureError(f"measure {spec!r}: {why}")


def _long_cutoffs(spec: str, text: str) -> tuple[float, ...]:
    cuts = sorted(atol(part) for part in text.split(","))
    if cuts[0] <= 0:
        raise _bad(spec, "cut-offs must be positive (trec_eval: Negative cutoff detected)")
    if len(set(cuts)) != len(cuts):
        raise _bad(spec, "duplicate cut-offs")
    return tuple(float(c) for c in cuts)


def _double_cutoffs(spec: str, text: str) -> tuple[float, ...]:
    cuts = sorted(atof(part) for part in text.split(","))
    if len(set(cuts)) != len(cuts):
        raise _bad(spec, "duplicate cut-offs")
    return tuple(cuts)


def _pairs(spec: str, text: str) -> tuple[tuple[str, float], ...]:
    out: list[tuple[str, float]] = []
    for part in text.split(","):
        name, eq, value = part.partition("=")
        if not eq or not name or "=" in value:
            raise _bad(spec, "parameters must be name=value pairs separated by ','")
        out.append((name, atof(value)))
    return tuple(out)


def _columns(d: Definition, values: tuple[float, ...], printable: str | None) -> tuple[str, ...]:
    if d.kind is Kind.CUT_LONG:
        return tuple(f"{d.name}_{int(v)}" for v in values)
    if d.kind is Kind.CUT_DOUBLE:
        return tuple(f"{d.name}_{two_decimals(v)}" for v in values)
    if d.kind in (Kind.PARAMS, Kind.PAIRS) and printable is not None:
        return (f"{d.name}_{printable}",)
    return (d.name,)


def _build(d: Definition, spec: str, params: str | None) -> Selected:
    pairs: tuple[tuple[str, float], ...] = ()
    values = d.defaults
    if params is not None:
        if d.kind in (Kind.LONG, Kind.DOUBLE):
            params = None  # trec_eval ignores parameters of a measure that takes none
        elif d.kind is Kind.CUT_LONG:
            values = _long_cutoffs(spec, params)
        elif d.kind is Kind.CUT_DOUBLE:
            values = _double_cutoffs(spec, params)
        elif d.kind is Kind.PARAMS:
            values = tuple(atof(part) for part in params.split(","))
        else:
            pairs = _pairs(spec, params)
    if d.name == "utility" and len(values) != 4:
        raise _bad(spec, "utility takes exactly 4 coefficients")
    return Selected(d, values, pairs, _columns(d, values, params))


def select(specs: list[str]) -> tuple[Selected, ...]:
    """The measures asked for by ``-m`` values (``official`` when none), in trec_eval order."""
    marked: set[str] = set()
    params: dict[str, tuple[str, str]] = {}
    for spec in specs or ["official"]:
        name, dot, rest = spec.partition(".")
        if dot:
            if not rest:
                raise _bad(spec, "empty parameters (trec_eval: improper measure)")
            params.setdefault(name, (spec, rest))
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in BY_NAME:
            marked.add(name)
        elif name in UNSUPPORTED:
            raise _bad(spec, "needs preference or judgment-group qrels, which labels are not")
        else:
            raise _bad(spec, f"not a trec_eval measure; known: {', '.join(BY_NAME)}")
    out = []
    for d in MEASURES:
        if d.name in marked:
            spec, text = params.get(d.name, (d.name, ""))
            out.append(_build(d, spec, text if d.name in params else None))
    return tuple(out)
