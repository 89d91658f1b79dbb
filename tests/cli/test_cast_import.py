"""TREC CAsT 2021 end to end: real graded qrels and the topics JSON as published (nested
topics, one question per turn) -> 158 label files -> the same qrels back."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.cli import main

QRELS = "trec-cast-qrels-docs.2021.qrel"
TOPICS = "2021_manual_evaluation_topics_v1.0.json"


def qrels_rows(path: Path) -> Counter[tuple[str, str, int]]:
    out: Counter[tuple[str, str, int]] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            qid, _, doc, grade = line.split()
            out[(qid, doc, int(grade))] += 1
    return out


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, cast_dir: Path) -> tuple[Path, Path]:
    work = tmp_path_factory.mktemp("cast")
    queries = cast_dir / TOPICS  # read as published: the nested topics JSON
    repo = work / "repo"
    assert main(["init", str(repo)]) == 0
    code = main(
        ["import", "trec", str(cast_dir / QRELS), "--queries", str(queries), "--repo", str(repo)]
    )
    assert code == 0
    return repo, queries


def test_qids_match_the_topics_turn_numbers(cast_dir: Path) -> None:
    topics = json.loads((cast_dir / TOPICS).read_text(encoding="utf-8"))
    turn_ids = {f"{t['number']}_{turn['number']}" for t in topics for turn in t["turn"]}
    qrels_ids = {qid for qid, _, _ in qrels_rows(cast_dir / QRELS)}
    assert len(qrels_ids) == 158
    assert qrels_ids <= turn_ids


def test_cast_import_writes_158_labels(
    cast_dir: Path, imported: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = imported
    files = sorted((repo / "labels").glob("*.yaml"))
    assert len(files) == 158
    label = yamlfile.load_fast(repo / "labels" / "106_1.yaml")
    topics = json.loads((cast_dir / TOPICS).read_text(encoding="utf-8"))
    turn = topics[0]["turn"][0]
    assert (topics[0]["number"], turn["number"]) == (106, 1)
    assert label["question"] == " ".join(turn["manual_rewritten_utterance"].split())
    rows = {(d, g) for q, d, g in qrels_rows(cast_dir / QRELS) if q == "106_1"}
    assert set(label["judged_ids"]) == {d for d, _ in rows}
    assert set(label["relevant_doc_ids"]) == {d for d, g in rows if g >= 1}
    assert label["grades"] == {d: g for d, g in rows if g >= 2}
    assert label["pool"] == [{"system": "unknown", "k": None, "date": None}]
    assert label["judged_ids"] == sorted(label["judged_ids"])


def test_cast_export_equals_the_original_qrels(
    cast_dir: Path, imported: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    repo, _ = imported
    out = tmp_path / "export.qrels"
    assert main(["export", "trec", "--out", str(out), "--repo", str(repo)]) == 0
    exported = qrels_rows(out)
    assert exported == qrels_rows(cast_dir / QRELS)
    assert sum(exported.values()) == 19334
    assert not any(line.startswith("#") for line in out.read_text(encoding="utf-8").splitlines())


def test_cast_labels_are_formatted_and_validate_clean(
    imported: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    repo, _ = imported
    assert main(["fmt", "--check", "--repo", str(repo)]) == 0
    capsys.readouterr()
    code = main(["validate", "--repo", str(repo)])
    captured = capsys.readouterr()
    assert code == 0, captured.out[-2000:] + captured.err[-2000:]
