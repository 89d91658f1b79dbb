"""TREC CAsT 2021's MS MARCO duplicate map against the official qrels, as docs/cast.md says:
504 judged documents are in the map, each its group's canonical id, so ``import duplicates``
proposes nothing and no comparison can move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labelpool.cli import main

QRELS = "trec-cast-qrels-docs.2021.qrel"
TOPICS = "2021_manual_evaluation_topics_v1.0.json"
MAP = "duplicate_files/marco_duplicates.txt"


def test_the_marco_map_joins_no_judged_documents_of_cast_2021(
    tmp_path: Path, cast_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    assert main(["init", str(repo)]) == 0
    args = ["import", "trec", str(cast_dir / QRELS), "--queries", str(cast_dir / TOPICS)]
    assert main([*args, "--repo", str(repo)]) == 0
    capsys.readouterr()
    dups = ["import", "duplicates", str(cast_dir / MAP), "--prefix", "MARCO_"]
    assert main([*dups, "--format", "json", "--no-commit", "--repo", str(repo)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["ids"], report["ids"] - report["outside"]) == (263_960, 504)
    assert report["proposals"] == [] and report["overlapping"] == 0
    canonical: set[str] = set()
    every: set[str] = set()
    for line in (cast_dir / MAP).read_text(encoding="utf-8").splitlines():
        first, _, rest = line.partition(":")
        canonical.add(f"MARCO_{first}")
        every |= {f"MARCO_{i}" for i in [first, *rest.split(",")] if i}
    judged = {line.split()[2] for line in (cast_dir / QRELS).read_text().splitlines()}
    assert judged & every == judged & canonical  # no judged id is another's duplicate
    assert len(judged & canonical) == 504
