"""report.priority: the documents to judge first are ranked by what judging each one is
sure to take off the mean delta range, computed with compare's own delta range."""

from __future__ import annotations

from pathlib import Path

import pytest

from api_scenario import copy_example
from labelpool import api
from labelpool.report import priority
from labelpool.report.priority import _judged
from labelpool.scoring.delta.question import delta_range


def _ranked(tmp: Path, measure: str) -> tuple[priority.Priority, api.CompareReport]:
    repo = api.load(copy_example(tmp / "repo"))
    report = api.compare("bm25", "dense", measures=[measure], repo=repo)
    c = report.comparisons[0]
    tops = {r.name: r.top(c.cutoff) for r in report.runs}
    ranked = priority.rank(c, repo.labels, tops["bm25"], tops["dense"], shown=10_000)
    return ranked, report


def test_precision_narrows_by_one_over_k_n_for_a_document_one_system_returned(
    tmp_path: Path,
) -> None:
    """P@10: an unjudged document in one top 10 moves the delta by 1/10 either way; in both,
    it moves both systems alike and narrows nothing."""
    ranked, report = _ranked(tmp_path, "P@10")
    c = report.comparisons[0]
    n = len(c.qids)
    assert ranked.docs
    for t in ranked.docs:
        in_both = t.ranks[0] is not None and t.ranks[1] is not None
        assert t.narrows == pytest.approx(0.0 if in_both else 1 / (10 * n))
    assert [t.narrows for t in ranked.docs] == sorted(
        (t.narrows for t in ranked.docs), reverse=True
    )


@pytest.mark.parametrize("measure", ["nDCG@10", "R@10", "RR@10"])
def test_each_narrowing_is_the_worst_case_over_verdicts(tmp_path: Path, measure: str) -> None:
    """Recomputed here, document by document: the width of its question's range now, minus
    the widest it can be once the document is judged (irrelevant or relevant), over n."""
    ranked, report = _ranked(tmp_path, measure)
    c = report.comparisons[0]
    repo = api.load(tmp_path / "repo")
    tops = {r.name: r.top(c.cutoff) for r in report.runs}
    n = len(c.qids)

    def width(q: str, label: object) -> float:
        one = delta_range(
            measure.split("@")[0],
            10,
            {q: label},  # type: ignore[dict-item]
            [q],
            {q: tops["bm25"].get(q, [])},
            {q: tops["dense"].get(q, [])},
        )
        lo, hi = one.per_question[0]
        return hi - lo

    assert ranked.docs
    for t in ranked.docs[:40]:
        label = repo.labels[t.qid]
        after = max(width(t.qid, _judged(label, t.doc, g)) for g in (0, 1, 2))
        assert t.narrows == pytest.approx(max(0.0, width(t.qid, label) - after) / n)
        assert 0 <= t.narrows <= t.width + 1e-12
    # judging the first document is sure to narrow the range; the list leads with it
    assert ranked.docs[0].narrows == max(t.narrows for t in ranked.docs) > 0
