"""Evaluate one run as trec_eval 10.0 does: per-question values and the summary over questions.

:func:`evaluate` ``(run, labels, measures, options) -> TrecEval``. Questions are the qrels
questions (every label with a judged or pooled-unjudged document, as ``labelpool export trec``
writes them), in strcmp order. The summary of a measure is the sum of its per-question values,
added question by question, divided by the number of questions (``num_ret``, ``num_rel``,
``num_rel_ret`` and ``num_nonrel_judged_ret`` are sums; ``gm_map`` and ``gm_bpref`` are
``exp`` of the mean log; with ``complete``, ``num_rel`` counts every qrels row with a grade
above 0, whatever the relevance level, as trec_eval does).

A judged question the run lacks: trec_eval 10.0 stops (exit 4) unless ``-c``; here
:class:`MissingQuestions` (an input error, exit 1) names them unless ``complete``, which
evaluates them with trec_eval's one-document stand-in ranking and then zeroes ``num_ret``,
``utility``, ``unj_*``, ``rbp_resid`` and empties ``relstring``, as trec_eval does (by exact
column name: with parameters, ``utility_...``, ``rbp_resid_...`` and ``relstring_...`` keep the
stand-in's values).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from labelpool.errors import InputError
from labelpool.model import Label, qrels_rows
from labelpool.runs import Run
from labelpool.scoring.trec_eval import counting, gains, interpolated
from labelpool.scoring.trec_eval.catalogue import Kind, Selected, Summary
from labelpool.scoring.trec_eval.chunk import Chunk
from labelpool.scoring.trec_eval.lists import Lists, build, runid

Compute = Callable[[Chunk, Selected], list[np.ndarray]]

COMPUTE: dict[str, Compute] = {
    "num_q": counting.num_q,
    "num_ret": counting.num_ret,
    "num_rel": counting.num_rel,
    "num_rel_ret": counting.num_rel_ret,
    "map": counting.map_,
    "gm_map": counting.gm_map,
    "Rprec": counting.rprec,
    "bpref": counting.bpref,
    "recip_rank": counting.recip_rank,
    "iprec_at_recall": interpolated.iprec_at_recall,
    "P": counting.precision,
    "recall": counting.recall,
    "infAP": counting.infap,
    "gm_bpref": counting.gm_bpref,
    "Rprec_mult": interpolated.rprec_mult,
    "utility": counting.utility,
    "11pt_avg": interpolated.eleven_pt_avg,
    "binG": counting.bin_g,
    "G": gains.g_measure,
    "dcg": gains.ndcg,
    "ideal_dcg": gains.ndcg,
    "ndcg": gains.ndcg,
    "ndcg_rel": gains.ndcg_rel,
    "Rndcg": gains.rndcg,
    "ndcg_cut": gains.ndcg_cut,
    "map_cut": counting.map_cut,
    "relative_P": counting.relative_p,
    "success": counting.success,
    "set_P": counting.set_p,
    "set_relative_P": counting.set_relative_p,
    "set_recall": counting.set_recall,
    "set_map": counting.set_map,
    "set_F": counting.set_f,
    "num_nonrel_judged_ret": counting.num_nonrel_judged_ret,
    "rbp": gains.rbp,
    "rbp_resid": counting.rbp_resid,
    "unj": counting.unj,
}
# what trec_eval zeroes for a question answered by the stand-in ranking (-c): columns named
# exactly so (a column named with parameters, utility_1,-1,0,0 or rbp_resid_p=0.5, is not),
# and every column whose name starts with "unj"
_CLEARED = ("num_ret", "utility", "rbp_resid")


def _cleared(column: str) -> bool:
    return column in _CLEARED or column.startswith("unj")


class MissingQuestions(InputError):
    """Judged questions the run lacks, without ``--complete`` (trec_eval 10.0: exit 4)."""


class NoQuestions(InputError):
    """No question has both labels and a ranking (trec_eval: exit 7)."""


@dataclass(frozen=True)
class Options:
    relevance_level: int = 1
    complete: bool = False  # -c
    max_depth: int | None = None  # -M
    judged_only: bool = False  # -J


@dataclass(frozen=True)
class Column:
    """One output column: its name, whether it prints as an integer, its values."""

    name: str
    measure: str
    integer: bool
    per_query: np.ndarray  # one value per question (NaN allowed)
    summary: float


@dataclass(frozen=True, eq=False)
class TrecEval:
    runid: str
    qids: tuple[str, ...]
    measures: tuple[Selected, ...]
    columns: tuple[Column, ...]
    relstrings: tuple[str, ...] | None  # per question, when relstring was asked for
    relstring_name: str


def evaluate(
    run: Run,
    labels: Mapping[str, Label],
    measures: Sequence[Selected],
    options: Options = Options(),
) -> TrecEval:
    """Evaluate ``run`` against the qrels of ``labels`` (as ``labelpool export trec``)."""
    return evaluate_rows(run, qrels_rows(labels), measures, options, tag=runid(run))


def evaluate_rows(
    run: Run,
    rows: list[tuple[str, str, int]],
    measures: Sequence[Selected],
    options: Options = Options(),
    tag: str = "",
) -> TrecEval:
    """Evaluate ``run`` against qrels ``rows`` (question, document, grade); ``tag``: runid."""
    lists, missing = build(
        run,
        rows,
        complete=options.complete,
        max_depth=options.max_depth,
        judged_only=options.judged_only,
    )
    if missing and not options.complete:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise MissingQuestions(
            f"{len(missing)} judged question(s) missing from the run ({shown}): trec_eval 10.0 "
            "stops here (exit 4); give --complete to score them as empty rankings (-c)",
            path=run.path,
        )
    if not lists.qids:
        raise NoQuestions("no question has both labels and a ranking", path=run.path)
    per_measure, strings = _values(lists, measures, options)
    columns: list[Column] = []
    relstrings: tuple[str, ...] | None = None
    relstring_name = "relstring"
    nq = len(lists.qids)
    for at, s in enumerate(measures):
        if s.name == "runid":
            continue
        if s.name == "relstring":
            cleared = s.columns[0] == "relstring"  # relstring_N keeps the stand-in's string
            relstrings = tuple(
                "" if cleared and lists.stand_in[i] else str(v) for i, v in enumerate(strings)
            )
            relstring_name = s.columns[0]
            continue
        values = per_measure[at]
        for name, column in zip(s.columns, values, strict=True):
            col = np.asarray(column, dtype=np.float64)
            if _cleared(name):
                col = np.where(lists.stand_in, 0.0, col)
            columns.append(
                Column(
                    name=name,
                    measure=s.name,
                    integer=s.definition.kind is Kind.LONG,
                    per_query=col,
                    summary=_summary(s, col, nq, rows, options),
                )
            )
    return TrecEval(
        runid=tag,
        qids=lists.qids,
        measures=tuple(measures),
        columns=tuple(columns),
        relstrings=relstrings,
        relstring_name=relstring_name,
    )


def _values(
    lists: Lists, measures: Sequence[Selected], options: Options
) -> tuple[dict[int, list[np.ndarray]], list[str]]:
    """Every column of every measure over all questions (block by block); the relstrings."""
    parts: dict[int, list[list[np.ndarray]]] = {}  # by position in ``measures``
    strings: list[str] = []
    for block, matrix, n in lists.chunks():
        chunk = Chunk(
            rel=matrix,
            n=n,
            levels=lists.rel_levels[block],
            level=options.relevance_level,
            judged_grades=lists.judged_grades[block],
        )
        for at, s in enumerate(measures):
            if s.name == "relstring":
                strings.extend(counting.relstring(chunk, s))
            elif s.name != "runid":
                parts.setdefault(at, []).append(COMPUTE[s.name](chunk, s))
    out = {
        at: [np.concatenate(column) for column in zip(*blocks, strict=True)]
        for at, blocks in parts.items()
    }
    return out, strings


def _sum(values: np.ndarray) -> float:
    """Question by question, as trec_eval accumulates."""
    total = 0.0
    for v in values:
        total += float(v)
    return total


def _summary(
    s: Selected, values: np.ndarray, nq: int, rows: list[tuple[str, str, int]], options: Options
) -> float:
    summary = s.definition.summary
    if s.name == "num_q":
        return float(nq)
    if s.name == "num_rel" and options.complete:
        return float(sum(1 for _, _, g in rows if g > 0))
    if summary is Summary.SUM:
        return _sum(values)
    if summary is Summary.GEOMETRIC:
        return math.exp(_sum(values) / nq)
    return _sum(values) / nq if nq else 0.0
