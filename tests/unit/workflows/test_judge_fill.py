"""workflows.judge.fill: one machine verdict written as the page writes one, never over a
verdict already there, a can't-judge note without a claim, a seat claimed with the first
verdict; several documents of a file in one write, each decided as one alone is."""

from __future__ import annotations

from pathlib import Path

from labelpool.config import load as load_config
from labelpool.workflows.judge.fill import (
    ALREADY,
    GONE,
    NOTED,
    UNCHANGED,
    WRITTEN,
    Want,
    fill,
    fill_many,
    note_text,
)
from labelpool.workflows.judge.write import Rules
from pool_scenario import make_repo

ME = "toy@sha256:0123456789ab"

PLAIN = """\
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
      # question: Q?
      # text: one
      - {doc: d1, verdict: null}
      - {doc: d2, verdict: 2}
"""

SEATS = """\
id: q
question: Q?
judged_ids: []
pending:
  - batch: 'b'
    systems:
      - s
    depth: 2
    date: '2026-12-02'
    seat: 1
    docs:
      - {doc: d1, verdict: null}
      - {doc: d2, verdict: null}
  - batch: 'b'
    systems:
      - s
    depth: 2
    date: '2026-12-02'
    seat: 2
    docs:
      - {doc: d2, verdict: null}
      - {doc: d1, verdict: null}
"""


def _repo(tmp_path: Path, text: str) -> tuple[Path, Rules, Path]:
    repo = make_repo(tmp_path / "r", {"q": text}, commit=False)
    cfg = load_config(repo)
    return repo, Rules.of(cfg), repo / "labels" / "q.yaml"


def test_a_verdict_and_never_over_one(tmp_path: Path) -> None:
    repo, rules, path = _repo(tmp_path, PLAIN)
    assert fill(repo, rules, path, "b", "d2", ME, 0) == ALREADY  # a person's: kept
    assert fill(repo, rules, path, "b", "d1", ME, 3) == WRITTEN
    text = path.read_text(encoding="utf-8")
    assert "- {doc: d1, verdict: 3}" in text and "- {doc: d2, verdict: 2}" in text
    assert "judge:" not in text  # a plain entry is not claimed
    assert fill(repo, rules, path, "b", "d1", ME, 1) == ALREADY
    assert fill(repo, rules, path, "b", "nope", ME, 1) == GONE
    assert fill(repo, rules, path, "other", "d1", ME, 1) == GONE


def test_a_note_is_written_once_and_claims_nothing(tmp_path: Path) -> None:
    repo, rules, path = _repo(tmp_path, SEATS)
    note = note_text(ME, "can't judge: \x1b[31mred\u202e")
    assert "\x1b" not in note and "\u202e" not in note
    assert fill(repo, rules, path, "b", "d1", ME, None, note) == NOTED
    assert fill(repo, rules, path, "b", "d1", ME, None, note) == UNCHANGED
    text = path.read_text(encoding="utf-8")
    assert f"# can't judge: machine judge {ME}: can't judge:" in text
    assert ME not in text.replace(f"machine judge {ME}", "")  # no seat claimed
    assert fill(repo, rules, path, "b", "d2", ME, 1) == WRITTEN
    text = path.read_text(encoding="utf-8")
    assert text.count(f"judge: '{ME}'") == 1  # the first free seat, claimed with the verdict
    # the other seat stays a person's to take
    assert fill(repo, rules, path, "b", "d2", ME, 1) == ALREADY


MANY = """\
id: q
question: Q?
judged_ids: []
pending:
  - batch: 'b'
    systems:
      - s
    depth: 5
    date: '2026-12-02'
    docs:
      - {doc: d1, verdict: null}
      - {doc: d2, verdict: 2}
      - {doc: d3, verdict: null}
      # can't judge: an old note
      - {doc: d4, verdict: null}
      - {doc: d5, verdict: null}
"""


def test_several_documents_in_one_write(tmp_path: Path) -> None:
    repo, rules, path = _repo(tmp_path, MANY)
    note = note_text(ME, "can't judge: hm")
    wants = [
        Want("d5", 1),
        Want("d2", 0),  # a person's: kept
        Want("d3", None, note),
        Want("nope", 1),
        Want("d4", 3),  # its old note goes with the verdict
        Want("d1", 0),
        Want("d1", 2),  # the same document twice: the first stands
    ]
    outcomes = fill_many(repo, rules, path, "b", ME, wants)
    assert outcomes == [WRITTEN, ALREADY, NOTED, GONE, WRITTEN, WRITTEN, ALREADY]
    text = path.read_text(encoding="utf-8")
    assert "      - {doc: d1, verdict: 0}\n      - {doc: d2, verdict: 2}\n" in text
    assert f"      # can't judge: machine judge {ME}: can't judge: hm\n      - {{doc: d3," in text
    assert "an old note" not in text
    assert "- {doc: d4, verdict: 3}\n      - {doc: d5, verdict: 1}\n" in text
    assert fill_many(repo, rules, path, "b", ME, [Want("d3", None, note)]) == [UNCHANGED]
    assert fill_many(repo, rules, path, "other", ME, [Want("d3", 1)]) == [GONE]


def test_several_documents_claim_one_seat(tmp_path: Path) -> None:
    repo, rules, path = _repo(tmp_path, SEATS)
    assert fill_many(repo, rules, path, "b", ME, [Want("d2", 1), Want("d1", 0)]) == [
        WRITTEN,
        WRITTEN,
    ]
    text = path.read_text(encoding="utf-8")
    assert text.count(f"judge: '{ME}'") == 1
    seat1 = text.split("seat: 2")[0]
    assert "{doc: d1, verdict: 0}" in seat1 and "{doc: d2, verdict: 1}" in seat1
    assert text.split("seat: 2")[1].count("verdict: null") == 2
