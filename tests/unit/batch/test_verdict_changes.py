"""batch.first_change_beyond_verdicts: what merge accepts as uncommitted verdicts."""

from __future__ import annotations

from labelpool import batch

BASE = """\
id: q
question: Q?
judged_ids: []
pending:
  - batch: 'b'
    systems:
      - s
    depth: 2
    date: '2026-12-02'
    docs:
      # text: some text
      - {doc: d#1, verdict: null}
      - {doc: d#2, verdict: null}
"""


def test_verdict_values_only() -> None:
    text = BASE.replace("{doc: d#1, verdict: null}", "{doc: d#1, verdict: relevant}")
    text = text.replace("{doc: d#2, verdict: null}", "{doc: d#2, verdict: {duplicate-of: d#1}}")
    assert batch.first_change_beyond_verdicts(BASE, text) is None
    assert batch.first_change_beyond_verdicts(BASE, BASE) is None


def test_other_changes_name_their_line() -> None:
    doc = BASE.replace("{doc: d#2, verdict: null}", "{doc: d#3, verdict: null}")
    assert batch.first_change_beyond_verdicts(BASE, doc) == 13
    question = BASE.replace("question: Q?", "question: Other?")
    assert batch.first_change_beyond_verdicts(BASE, question) == 2
    comment = BASE.replace("# text: some text", "# text: other text")
    assert batch.first_change_beyond_verdicts(BASE, comment) == 11
    added = BASE + "owner: me\n"
    assert batch.first_change_beyond_verdicts(BASE, added) == 14
    cut = BASE.replace("      - {doc: d#2, verdict: null}\n", "")
    assert batch.first_change_beyond_verdicts(BASE, cut) == 13


def test_a_verdict_outside_the_pending_block_is_another_change() -> None:
    base = "id: q\nnotes:\n  - {doc: x, verdict: null}\n"
    text = "id: q\nnotes:\n  - {doc: x, verdict: relevant}\n"
    assert batch.first_change_beyond_verdicts(base, text) == 3
