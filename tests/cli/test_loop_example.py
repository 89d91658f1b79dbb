"""The seed's loop on the shipped example: pool the incumbent (bm25) and the challenger (dense)
at 20, judge the batch with the oracle, merge, validate, rescore, compare."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from labelpool import config, labelset, runs, scoring, yamlfile
from labelpool.cli import main
from pool_scenario import committed_example, git

ROOT = Path(__file__).resolve().parents[2]
DEPTH = 20


def trec_top(path: Path, k: int) -> dict[str, list[str]]:
    """Each question's top k in trec_eval order (score descending, then doc id descending),
    read here without labelpool."""
    rows: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 6:
            rows[parts[0]].append((float(parts[4]), parts[2]))
    out = {}
    for qid, pairs in rows.items():
        pairs.sort(key=lambda p: p[1], reverse=True)
        pairs.sort(key=lambda p: -p[0])
        out[qid] = [d for _, d in pairs[:k]]
    return out


def readings(obj: Any) -> list[str]:
    if isinstance(obj, dict):
        assert "cutoff" not in obj or obj["cutoff"] <= DEPTH
        found = [str(v) for k, v in obj.items() if k == "reading"]
        return found + [r for v in obj.values() for r in readings(v)]
    if isinstance(obj, list):
        return [r for v in obj for r in readings(v)]
    return []


def compare_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    # measures read within the pooled depth (AP@100 would read deeper than anyone judged)
    measures = "nDCG@10,P@10,nDCG@20,R@20"
    args = ["compare", "bm25", "dense", "-m", measures, "--k", str(DEPTH), "--format", "json"]
    code = main([*args, "--repo", str(repo)])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return json.loads(out)


@pytest.fixture
def example(tmp_path: Path) -> Path:
    needed = ["labels", "runs", "corpus", "schema", "pyproject.toml"]
    missing = [n for n in needed if not (ROOT / n).exists()]
    assert not missing, f"the shipped example is incomplete here (missing: {missing})"
    assert (ROOT / "corpus" / "ground-truth.qrels").is_file(), "no corpus/ground-truth.qrels"
    return committed_example(tmp_path)


def test_seed_loop_on_the_example(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = example
    # The seed's scenario: against labels pooled from bm25, the comparison cannot be read.
    before = readings(compare_json(repo, capsys))
    assert before and any(r != "meaningful" for r in before), before

    # pending = union of the top 20 minus the judged set, computed here independently
    tops = {s: trec_top(repo / "runs" / f"{s}.trec", DEPTH) for s in ("bm25", "dense")}
    expected = 0
    for path in sorted((repo / "labels").glob("*.yaml")):
        data = yamlfile.load_fast(path)
        judged = set(data.get("judged_ids") or ())
        judged |= {d for cls in data.get("relevant_classes") or () for d in cls}
        union = {d for top in tops.values() for d in top.get(data["id"], [])}
        expected += len(union - judged)
    assert expected > 0

    assert main(["pool", "bm25", "dense", "--depth", str(DEPTH), "--repo", str(repo)]) == 0
    cfg = config.load(repo)
    pooled = labelset.load(cfg)
    assert sum(len(lab.pending_ids) for lab in pooled.values()) == expected
    assert "labelpool pool: batch" in git(repo, "log", "-1", "--format=%s")

    qrels = repo / "corpus" / "ground-truth.qrels"
    args = ["merge", "--oracle", str(qrels), "--oracle-missing", "irrelevant"]
    assert main([*args, "--repo", str(repo)]) == 0
    assert git(repo, "log", "-1", "--format=%an").strip() == "labelpool oracle"
    assert git(repo, "status", "--porcelain", "labels").strip() == ""
    assert main(["validate", "--repo", str(repo)]) == 0

    merged = labelset.load(cfg)
    assert not any(lab.pending for lab in merged.values())
    qids = scoring.scored_qids(merged)
    for system in ("bm25", "dense"):
        run = runs.read_run(runs.resolve(cfg, system))
        _, rate = scoring.unjudged_at(run, merged, qids, DEPTH)
        assert rate == 0.0, system
        for lab in merged.values():
            assert set(tops[system].get(lab.id, [])) <= lab.judged, (system, lab.id)

    after = readings(compare_json(repo, capsys))
    assert after and all(r == "meaningful" for r in after), after
