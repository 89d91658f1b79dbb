"""The report's first screen: one sentence per finding, from what the report gathered.

Three findings, one sentence each (HTML, every name escaped), computed from ``compare``'s
comparisons and the judging priorities :mod:`labelpool.report.gather` already holds (no
statistic of their own):

* **Reading**: per challenger, its measures grouped by verdict (ahead, behind, no detectable
  difference, uninterpretable, needs relabelling), the largest group first, with the unjudged
  rates behind an uninterpretable or relabel reading;
* **Sign could flip**: the challengers, and their measures, whose delta range crosses zero;
* **Judge first**: per challenger, the documents "Documents to judge first" lists (for the
  first measure), their questions, and the ``labelpool pool`` command that batches them.

The per-measure detail (each comparison's verdict in words) follows further down the report.
"""

from __future__ import annotations

from collections.abc import Sequence

from labelpool.report.gather import ReportData
from labelpool.report.html import h, pct
from labelpool.words import counted
from labelpool.workflows.evaluate.compare import Comparison

# each verdict code as what the challenger "is ... on" some measures
_IS = {
    "improvement": "ahead",
    "regression": "behind",
    "no-difference": "not detectably different",
    "uninterpretable": "uninterpretable",
    "relabel": "in need of relabelling",
}
_WHY = ("uninterpretable", "relabel")  # readings that come from the unjudged rates


def _measures(comps: Sequence[Comparison]) -> str:
    return ", ".join(h(c.measure) for c in comps)


def _rates(comps: Sequence[Comparison]) -> str:
    """``its top 10 is 46% unjudged, bm25's 0%``, once per cut-off among ``comps``."""
    parts = []
    for cutoff in dict.fromkeys(c.cutoff for c in comps):
        c = next(c for c in comps if c.cutoff == cutoff)
        parts.append(
            f"its top {cutoff} is {pct(c.challenger_unjudged)} unjudged, "
            f"{h(c.baseline)}'s {pct(c.baseline_unjudged)}"
        )
    return " and ".join(parts)


def _reading(comps: Sequence[Comparison]) -> str:
    """One challenger's clause: ``dense is uninterpretable on 5 of 6 measures (...) and in
    need of relabelling on AP@100 (...)``."""
    groups: dict[str, list[Comparison]] = {}
    for c in comps:
        groups.setdefault(c.verdict_code, []).append(c)
    order = sorted(groups, key=lambda code: -len(groups[code]))  # stable: first measure first
    clauses = []
    for i, code in enumerate(order):
        group = groups[code]
        if i == 0 and len(group) == len(comps) and len(comps) > 1:
            where = f"all {len(comps)} measures"
        elif i == 0 and len(group) > 1:
            where = f"{len(group)} of {len(comps)} measures"
        else:
            where = _measures(group)
        why = f" ({_rates(group)})" if code in _WHY else ""
        clauses.append(f"{_IS.get(code, h(code))} on {where}{why}")
    return f"{h(comps[0].challenger)} is " + " and ".join(clauses)


def _by_challenger(d: ReportData) -> dict[str, list[Comparison]]:
    assert d.compared is not None
    out: dict[str, list[Comparison]] = {}
    for c in d.compared.comparisons:
        out.setdefault(c.challenger, []).append(c)
    return out


def reading(d: ReportData) -> str:
    by = _by_challenger(d)
    clauses = "; ".join(_reading(comps) for comps in by.values())
    return f"<b>Reading</b> against {h(d.runs[0].name)}: {clauses}."


def sign_can_flip(d: ReportData) -> str:
    parts = []
    for name, comps in _by_challenger(d).items():
        flips = [c for c in comps if c.sign_can_flip]
        if not flips:
            continue
        where = f"all {len(comps)} measures" if len(flips) == len(comps) > 1 else _measures(flips)
        parts.append(f"{h(name)} (on {where})")
    if not parts:
        return (
            "<b>Sign could flip</b>: nowhere; every delta range stays on one side of zero, "
            "whatever the unjudged documents turn out to be."
        )
    return (
        "<b>Sign could flip</b>, depending on the verdicts of the unjudged documents: "
        + ", ".join(parts)
        + "."
    )


def judge_first(d: ReportData) -> str:
    assert d.compared is not None
    measure = d.compared.comparisons[0].measure
    first = [c for c in d.compared.comparisons if c.measure == measure]
    parts = []
    for c, p in zip(first, d.priorities, strict=True):
        if not p.docs:
            parts.append(f"{h(c.challenger)}, nothing to judge")
            continue
        docs = counted(len(p.docs), "document")
        questions = counted(len(p.questions), "question")
        parts.append(f"{h(c.challenger)}, {docs} over {questions} (<code>{h(p.command)}</code>)")
    return (
        f"<b>Judge first</b>, to narrow the delta range of {h(measure)} most (listed below): "
        + "; ".join(parts)
        + "."
    )


def findings(d: ReportData) -> list[str]:
    """The first screen's sentences, one per finding (none for a single run)."""
    if d.compared is None:
        return []
    return [reading(d), sign_can_flip(d), judge_first(d)]
