"""workflows.judge_queue: the page's order is blind to rank and fixed per judge."""

from __future__ import annotations

from labelpool.workflows.judge.queue import seed_order


def test_the_order_is_seeded_by_question_batch_and_judge() -> None:
    docs = [f"d#{i:02d}" for i in range(20)]  # pool writes them in rank order
    mine = seed_order(docs, "q", "b", "jo@example.org")
    assert sorted(mine) == sorted(docs)
    assert mine != docs and mine != sorted(docs)
    assert seed_order(list(reversed(docs)), "q", "b", "jo@example.org") == mine  # not rank
    assert seed_order(docs, "q", "b", "ana@example.org") != mine
    assert seed_order(docs, "q2", "b", "jo@example.org") != mine
    assert seed_order(docs, "q", "b2", "jo@example.org") != mine
