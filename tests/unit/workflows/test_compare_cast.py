"""compare on TREC CAsT 2021: labels judged from one baseline's top 10 cannot rank another.

The label repository is built in a temp folder from the real qrels: for every question on
which the pooled baseline's whole top 10 was judged in CAsT (so that its pool entry
``{system, k: 10}`` is true), ``judged_ids`` are those ten documents with their CAsT grades.
Comparing a second baseline against it must read ``uninterpretable`` (its top 10 is mostly
unjudged), and every per-question score must equal pytrec_eval's on the same restricted qrels.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import jsonschema
import pytest
import pytrec_eval

from labelpool import config, labelset, yamlfile
from labelpool.cli import main
from labelpool.runs import read_run
from labelpool.scoring.measures import parse
from labelpool.workflows.evaluate.compare import compare

POOLED = "org_manual_bm25"
OTHER = "org_manual_ance"
SCHEMA = Path(__file__).resolve().parents[3] / "schema" / "compare-report.schema.json"
TREC = {
    "P@10": "P_10",
    "R@10": "recall_10",
    "nDCG@10": "ndcg_cut_10",
    "AP@100": "map_cut_100",
    "Success@10": "success_10",
}


def _qrels(cast: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(dict)
    with (cast / "trec-cast-qrels-docs.2021.qrel").open(encoding="utf-8") as fh:
        for line in fh:
            qid, _, doc, grade = line.split()
            out[qid][doc] = int(grade)
    return out


def _scalar(s: str) -> str:
    """``s`` as YAML text, single-quoted when a 1.1 or 1.2 reader would misread it (106_1)."""
    return "'" + s.replace("'", "''") + "'" if yamlfile.needs_quotes(s) else s


def _build(cast: Path, root: Path) -> tuple[dict[str, dict[str, int]], Path, Path]:
    runs = cast / "baselines" / "document_runs"
    pooled, other = runs / f"{POOLED}.run", runs / f"{OTHER}.run"
    qrels = _qrels(cast)
    top = read_run(pooled).top(10)
    restricted: dict[str, dict[str, int]] = {}
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    for qid in sorted(qrels):
        docs = top.get(qid, [])
        if not docs or any(d not in qrels[qid] for d in docs):
            continue  # the pooled system's top 10 was not all judged here
        judged = {d: qrels[qid][d] for d in docs}
        restricted[qid] = judged
        rel = sorted(d for d, g in judged.items() if g >= 1)
        lines = [f"id: {_scalar(qid)}", f"question: {_scalar('CAsT turn ' + qid)}"]
        if rel:
            lines += ["relevant_doc_ids:", *(f"  - {_scalar(d)}" for d in rel)]
        else:
            lines += ["relevant_doc_ids: []"]  # required by the schema: compare checks it
        lines += ["judged_ids:", *(f"  - {_scalar(d)}" for d in sorted(judged))]
        graded = {d: g for d, g in judged.items() if g > 1}
        if graded:
            lines += ["grades:", *(f"  {_scalar(d)}: {g}" for d, g in sorted(graded.items()))]
        lines += ["pool:", f"  - system: {POOLED}", "    k: 10", "    date: '2021-09-01'"]
        (root / "labels" / f"{qid}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return restricted, pooled, other


def test_second_baseline_reads_uninterpretable(
    cast_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    restricted, pooled, other = _build(cast_dir, tmp_path)
    assert len(restricted) >= 30
    argv = ["compare", str(pooled), str(other), "-m", "R@10 nDCG@10", "--format", "json"]
    assert main([*argv, "--repo", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)
    assert doc["built_by"] == [POOLED]
    for c in doc["comparisons"]:
        assert c["questions"] == len(restricted)
        assert c["baseline_unjudged"] == 0.0
        assert c["challenger_unjudged"] > 0.5
        assert c["reading"] == "uninterpretable" and c["verdict_code"] == "uninterpretable"
        assert c["pooled"] == {POOLED: len(restricted), OTHER: 0}
        assert c["judge_cost"]["documents"] > 0
        assert c["judge_cost"]["questions"] <= len(restricted)
        assert c["verdict"].startswith("uninterpretable: challenger unjudged")
        assert c["sign_can_flip"] is True


def test_per_question_scores_equal_pytrec_eval(cast_dir: Path, tmp_path: Path) -> None:
    restricted, pooled, other = _build(cast_dir, tmp_path)
    cfg = config.load(tmp_path)
    labels = labelset.load(cfg)
    runs = [read_run(pooled), read_run(other)]
    result = compare(cfg, labels, runs, measures=parse([*TREC, "RR@10"]), draws=2000, resamples=500)
    ev = pytrec_eval.RelevanceEvaluator(restricted, set(TREC.values()))
    rr = pytrec_eval.RelevanceEvaluator(restricted, {"recip_rank"})

    def trec_run(path: Path, cut: int | None = None) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = defaultdict(dict)
        rows: dict[str, list[tuple[float, str]]] = defaultdict(list)
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                qid, _, d, _, score, _ = line.split()
                if qid in restricted:
                    rows[qid].append((float(score), d))
        for qid, pairs in rows.items():
            # trec_eval order: score descending, doc id descending
            pairs.sort(reverse=True)
            for s, d in pairs[:cut] if cut else pairs:
                out[qid][d] = s
        return dict(out)

    expected = {}
    for name, path in ((POOLED, pooled), (OTHER, other)):
        full = ev.evaluate(trec_run(path))
        cut = rr.evaluate(trec_run(path, 10))
        expected[name] = (full, cut)
    checked = 0
    for c in result.comparisons:
        assert c.qids == tuple(sorted(restricted))
        for name, values in (
            (c.baseline, c.baseline_per_query),
            (c.challenger, c.challenger_per_query),
        ):
            full, cut = expected[name]
            for qid, value in zip(c.qids, values, strict=True):
                if c.measure == "RR@10":
                    want = cut.get(qid, {}).get("recip_rank", 0.0)
                else:
                    want = full.get(qid, {}).get(TREC[c.measure], 0.0)
                assert value == pytest.approx(want, abs=1e-9), (name, c.measure, qid)
                checked += 1
        assert c.delta == pytest.approx(
            sum(c.challenger_per_query) / len(c.qids) - sum(c.baseline_per_query) / len(c.qids)
        )
    assert checked == 2 * 6 * len(restricted)
