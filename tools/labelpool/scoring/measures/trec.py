"""trec_eval's measures by their trec_eval names in labelpool's own formats and in ``compare``.

:func:`measures_of` ``(spec) -> list[Measure]``: one :class:`Measure` per output column of a
trec_eval ``-m`` value (``P.5,10`` gives ``P_5`` and ``P_10``; ``ndcg.1=2`` gives
``ndcg_1=2``), each carrying the one-column spec that computes it. :func:`per_query` computes
them for the scored questions with trec_eval's semantics (:mod:`labelpool.scoring.trec_eval`,
questions missing from the run as ``-c``): raw; judged-only (``-J``: the condensed list);
optimistic (every unjudged document in the measure's cut-off, or the scorer's k for a measure
of the whole ranking, added to the qrels with grade ``max(level, 1)``, an open dispute with
its highest deciding grade), which is a bound for
the measures in :data:`BOUND_MEASURES`, a scenario for the others, and absent (raw repeated)
for the counts and the unjudged measures in :data:`ABSENT_MEASURES`.

A value trec_eval prints as ``-nan`` (0/0: ``iprec_at_recall`` and ``11pt_avg`` of an empty
ranking under ``-J``) counts 0 here, so that means stay numbers.

``gm_map``, ``gm_bpref`` (a geometric mean has no per-question value), ``num_q``, ``runid`` and
``relstring`` exist only in ``--format trec_eval`` (:data:`REFUSED`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from labelpool import verdicts
from labelpool.model import Label, qrels_rows
from labelpool.runs import Run
from labelpool.scoring.measures.base import ABSENT, BOUND, SCENARIO, Measure, MeasureError
from labelpool.scoring.trec_eval import Options, select
from labelpool.scoring.trec_eval.catalogue import NICKNAMES, Kind, Selected
from labelpool.scoring.trec_eval.evaluate import evaluate_rows

REFUSED = {
    "gm_map": "a geometric mean over questions has no per-question value",
    "gm_bpref": "a geometric mean over questions has no per-question value",
    "num_q": "a count of questions, not a measure of a ranking",
    "runid": "the run's tag, not a measure",
    "relstring": "a string of grades, not a number",
}
BOUND_MEASURES = frozenset(
    [
        "P",
        "recall",
        "success",
        "recip_rank",
        "relative_P",
        "rbp",
        "set_P",
        "set_recall",
        "num_rel_ret",
    ]
)
ABSENT_MEASURES = frozenset(["num_ret", "num_rel", "num_nonrel_judged_ret", "unj", "rbp_resid"])
# measures read to a cut-off (the cut-off is their one parameter)
_CUT = frozenset(["P", "recall", "success", "relative_P", "map_cut", "ndcg_cut", "unj"])


def _kind(name: str) -> str:
    if name in BOUND_MEASURES:
        return BOUND
    if name in ABSENT_MEASURES:
        return ABSENT
    return SCENARIO


def _one_column_spec(s: Selected, i: int) -> str:
    d = s.definition
    if d.kind is Kind.CUT_LONG:
        return f"{d.name}.{int(s.values[i])}"
    if d.kind is Kind.CUT_DOUBLE:
        return f"{d.name}.{s.values[i]!r}"
    if s.columns[0] != d.name:  # parameters given
        return f"{d.name}.{s.columns[0][len(d.name) + 1 :]}"
    return d.name


def measures_of(spec: str, name: str | None = None) -> list[Measure]:
    """The measures of one trec_eval ``-m`` value (``name``: show it under this name)."""
    head = spec.partition(".")[0]
    if head in REFUSED:
        raise MeasureError(f"{head}: {REFUSED[head]}; it exists only in --format trec_eval")
    refused = [m for m in NICKNAMES.get(head, ()) if m in REFUSED]
    if refused:
        raise MeasureError(
            f"{head} includes {', '.join(refused)}, which exist only in --format trec_eval; "
            "name the measures one by one"
        )
    out: list[Measure] = []
    for s in select([spec]):
        for i, column in enumerate(s.columns):
            cutoff = int(s.values[i]) if s.name in _CUT else None
            out.append(
                Measure(
                    name=name if name and len(s.columns) == 1 else column,
                    family=f"trec_eval:{s.name}",
                    cutoff=cutoff,
                    doc=f"trec_eval {column}",
                    bound=f"optimistic column: {_kind(s.name)}",
                    trec_eval=column,
                    full_depth=cutoff is None,
                    spec=_one_column_spec(s, i),
                    optimistic=_kind(s.name),
                )
            )
    return out


def _selected(m: Measure) -> Selected:
    assert m.spec is not None
    (s,) = select([m.spec])
    return s


def _values(
    run: Run,
    labels: Mapping[str, Label],
    chosen: Sequence[Measure],
    qids: np.ndarray,
    options: Options,
    rows: list[tuple[str, str, int]] | None = None,
) -> dict[str, np.ndarray]:
    """One value per scored question (``qids`` order) of every measure in ``chosen``."""
    qrels = rows if rows is not None else qrels_rows(labels)
    result = evaluate_rows(run, qrels, [_selected(m) for m in chosen], options)
    at = {q: i for i, q in enumerate(result.qids)}
    index = np.array([at.get(str(q), -1) for q in qids], dtype=np.int64)
    out: dict[str, np.ndarray] = {}
    for m, col in zip(chosen, result.columns, strict=True):
        values = np.where(index >= 0, col.per_query[np.maximum(index, 0)], 0.0)
        out[m.name] = np.nan_to_num(values, nan=0.0)  # trec_eval's -nan (0/0) counts 0
    return out


def _lifted_rows(
    run: Run, labels: Mapping[str, Label], depth: int, level: int
) -> list[tuple[str, str, int]]:
    """The qrels with every unjudged document in the run's top ``depth`` at grade
    ``max(level, 1)``, an open dispute at its highest deciding grade."""
    rows = qrels_rows(labels)
    grade = max(level, 1)
    known = {(q, d): g for q, d, g in rows}
    lifted = dict(known)
    for qid, docs in run.top(depth).items():
        if qid not in labels:
            continue
        highest = verdicts.open_highest(labels[qid])
        for doc in docs:
            if known.get((qid, doc), -1) < 0:
                lifted[(qid, doc)] = highest.get(doc, grade)
    return sorted(((q, d, g) for (q, d), g in lifted.items()), key=lambda r: (r[0], r[1]))


def per_query(
    chosen: Sequence[Measure],
    run: Run,
    labels: Mapping[str, Label],
    qids: np.ndarray,
    k: int,
    relevance_level: int,
) -> dict[str, dict[str, np.ndarray]]:
    """raw, judged_only and optimistic values of trec_eval measures, per scored question."""
    if not chosen:
        return {}
    plain = Options(relevance_level=relevance_level, complete=True)
    condensed = Options(relevance_level=relevance_level, complete=True, judged_only=True)
    raw = _values(run, labels, chosen, qids, plain)
    judged = _values(run, labels, chosen, qids, condensed)
    out: dict[str, dict[str, np.ndarray]] = {}
    by_depth: dict[int, list[Measure]] = {}
    for m in chosen:
        if m.optimistic == ABSENT:
            continue
        depth = m.depth(k)
        by_depth.setdefault(k if depth is None else depth, []).append(m)
    lifted: dict[str, np.ndarray] = {}
    for depth, group in by_depth.items():
        rows = _lifted_rows(run, labels, depth, relevance_level)
        lifted.update(_values(run, labels, group, qids, plain, rows))
    for m in chosen:
        out[m.name] = {
            "raw": raw[m.name],
            "judged_only": judged[m.name],
            "optimistic": lifted.get(m.name, raw[m.name]),
        }
    return out


__all__ = ["REFUSED", "measures_of", "per_query"]
