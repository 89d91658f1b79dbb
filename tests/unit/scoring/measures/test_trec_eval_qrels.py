"""The qrels trec_eval's view reads are exactly the rows ``labelpool export trec`` writes."""

from __future__ import annotations

from labelpool.model import Batch, Label, PendingDoc
from labelpool.scoring.trec_eval import qrels_rows
from labelpool.workflows import exporting


def test_same_rows_as_export_trec() -> None:
    labels = {
        "q2": Label(
            id="q2",
            question="two",
            relevant_doc_ids=("a", "b", "c"),
            judged_ids=("a", "b", "c", "d"),
            grades={"b": 3},
            relevant_classes=(("a", "b"),),
            pooled_unjudged_ids=("e", "d"),
            pending=(
                Batch(
                    batch="2026-01-01-x@5",
                    systems=("x",),
                    depth=5,
                    date="2026-01-01",
                    docs=(PendingDoc("f"),),
                ),
            ),
        ),
        "q1": Label(id="q1", question="one", pooled_unjudged_ids=("z",)),
        "q0": Label(id="q0", question="none"),
    }
    rows = qrels_rows(labels)
    assert rows == exporting.qrels_rows(labels)
    assert rows == [
        ("q1", "z", -1),
        ("q2", "a", 3),  # the class's grade
        ("q2", "b", 3),
        ("q2", "c", 1),
        ("q2", "d", 0),  # judged wins over pooled_unjudged_ids
        ("q2", "e", -1),
    ]
