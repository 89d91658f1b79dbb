"""``labelpool fmt`` keeps the record of judges canonical: documents of ``verdicts`` in
code-point order, one flow line per verdict, keys ``judge``/``adjudicator``, ``kind``
(``person`` dropped), ``verdict``, unknown keys kept after them, comments kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labelpool.cli import main

HEAD = """\
id: q1
question: Are shops open on Sundays?
judge: 'Ana Lopez <ana@example.org>'
judge_kind: person
relevant_doc_ids:
  - a#1
judged_ids:
  - a#1
  - b#2
  - 'no'
"""
POOL = """\
pool:
  - system: bm25
    k: 10
    date: '2026-12-01'
"""
MESSY = (
    HEAD
    + """\
verdicts:
  no:   # the odd id
    - verdict: irrelevant
      judge: umbrela-3
      kind: machine
  b#2:
    - {verdict: irrelevant, note: second look, judge: Bo Chen <bo@example.org>, kind: person}
  a#1:
    - {judge: Bo Chen <bo@example.org>, verdict: relevant}  # agreed
    - {adjudicator: Cy Park <cy@example.org>, verdict: relevant}
"""
    + POOL
)
CLEAN = (
    HEAD.replace("judge_kind: person\n", "")
    + """\
verdicts:
  a#1:
    - {judge: Bo Chen <bo@example.org>, verdict: relevant}  # agreed
    - {adjudicator: Cy Park <cy@example.org>, verdict: relevant}
  b#2:
    - {judge: Bo Chen <bo@example.org>, verdict: irrelevant, note: second look}
  'no': # the odd id
    - {judge: umbrela-3, kind: machine, verdict: irrelevant}
"""
    + POOL
)


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def run(repo: Path, *args: str) -> int:
    old = Path.cwd()
    os.chdir(repo)
    try:
        return main(list(args))
    finally:
        os.chdir(old)


def test_fmt_makes_the_record_canonical(repo: Path) -> None:
    path = repo / "labels" / "q1.yaml"
    path.write_text(MESSY, encoding="utf-8")
    assert run(repo, "fmt") == 0
    assert path.read_text(encoding="utf-8") == CLEAN
    assert run(repo, "fmt", "--check") == 0  # idempotent
    assert run(repo, "validate") == 0
