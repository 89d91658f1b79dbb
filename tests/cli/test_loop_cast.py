"""The loop on TREC CAsT 2021 (real runs, real graded qrels).

Labels hold what one baseline's top 10 had judged (``org_manual_bm25``; its unjudged top-10
documents are listed as ``pooled_unjudged_ids``); ``pool`` adds a second baseline
(``org_manual_ance``) at 10; ``merge`` takes verdicts from the real qrels as the oracle.

Missing documents stay pending (``--partial``) rather than ``--oracle-missing irrelevant``:
the reference never judged them, so calling them irrelevant would invent judgments and hide
exactly the unjudged rate this tool reports. The equality below holds either way for these
measures (an unjudged document scores as a non-relevant one), so the honest choice costs
nothing here.

After the merge, the second baseline's scores on the merged labels equal its scores on the
real qrels restricted to the judged documents, computed with pytrec_eval.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import pytrec_eval

from labelpool import config, labelset, runs, scoring
from labelpool.batch import quote
from labelpool.cli import main
from labelpool.scoring.measures import parse
from pool_scenario import git, init_git

FIRST = "org_manual_bm25"
SECOND = "org_manual_ance"
K = 10
MEASURES = {"nDCG@10": "ndcg_cut_10", "P@10": "P_10", "RR@10": None}


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        q, _, d, g = line.split()
        out[q][d] = int(g)
    return dict(out)


def label_text(qid: str, judged: dict[str, int], unjudged: list[str]) -> str:
    rel = sorted(d for d, g in judged.items() if g > 0)
    lines = [f"id: {quote(qid)}", f"question: CAsT 2021 turn {qid}"]
    lines += ["relevant_doc_ids:", *(f"  - {d}" for d in rel)] if rel else ["relevant_doc_ids: []"]
    lines += ["judged_ids:", *(f"  - {d}" for d in sorted(judged))]
    grades = {d: g for d, g in sorted(judged.items()) if g > 1}
    if grades:
        lines += ["grades:", *(f"  {d}: {g}" for d, g in grades.items())]
    if unjudged:
        lines += ["pooled_unjudged_ids:", *(f"  - {d}" for d in sorted(unjudged))]
    lines += ["pool:", f"  - system: {FIRST}", f"    k: {K}", "    date: '2021-06-01'"]
    return "\n".join(lines) + "\n"


def test_cast_loop(cast_dir: Path, tmp_path: Path) -> None:
    qrels_path = cast_dir / "trec-cast-qrels-docs.2021.qrel"
    run_dir = cast_dir / "baselines" / "document_runs"
    first_run = runs.read_run(run_dir / f"{FIRST}.run")
    qrels = read_qrels(qrels_path)

    repo = tmp_path / "cast"
    (repo / "labels").mkdir(parents=True)
    (repo / "runs").mkdir()
    (repo / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n")
    top_first = first_run.top(K)
    for qid, grades in qrels.items():
        top = top_first.get(qid, [])
        judged = {d: grades[d] for d in top if d in grades}
        if not judged:
            continue
        unjudged = [d for d in top if d not in grades]
        (repo / "labels" / f"{qid}.yaml").write_text(label_text(qid, judged, unjudged))
    n_labels = len(list((repo / "labels").iterdir()))
    assert n_labels > 100
    init_git(repo)

    second = str(run_dir / f"{SECOND}.run")
    assert main(["pool", second, "--depth", str(K), "--no-text", "--repo", str(repo)]) == 0
    assert main(["merge", "--oracle", str(qrels_path), "--partial", "--repo", str(repo)]) == 0
    assert git(repo, "status", "--porcelain").strip() == ""
    assert main(["validate", "--allow-pending", "--repo", str(repo)]) == 0

    cfg = config.load(repo)
    merged = labelset.load(cfg)
    second_run = runs.read_run(Path(second))
    # every document of the second baseline's top 10 the reference knows is judged now
    top_second = second_run.top(K)
    for qid, lab in merged.items():
        for d in top_second.get(qid, []):
            assert (d in lab.judged) == (d in qrels.get(qid, {})), (qid, d)
            assert (d in lab.pending_ids) == (d not in qrels.get(qid, {})), (qid, d)

    ours = scoring.score(second_run, merged, parse(MEASURES), k=K)
    restricted = {
        qid: {d: g for d, g in qrels[qid].items() if d in lab.judged} for qid, lab in merged.items()
    }
    ranked = {
        qid: {d: float(len(docs) - i) for i, d in enumerate(docs)}
        for qid, docs in ((q, second_run.ranking(q)) for q in merged)
        if docs
    }
    wanted = {m for m in MEASURES.values() if m} | {"recip_rank"}
    reference = pytrec_eval.RelevanceEvaluator(restricted, wanted).evaluate(ranked)
    qids = [str(q) for q in ours.qids]
    compared = 0
    for name, key in MEASURES.items():
        values = ours.per_query[name]["raw"]
        for i, qid in enumerate(qids):
            if qid not in reference:
                continue
            if key is None:  # RR@10: pytrec_eval's recip_rank over the top 10 only
                top = second_run.ranking(qid)[:K]
                rel = [d for d in top if restricted[qid].get(d, 0) > 0]
                want = 1.0 / (top.index(rel[0]) + 1) if rel else 0.0
            else:
                want = reference[qid][key]
            assert values[i] == pytest.approx(want, abs=1e-9), (name, qid)
            compared += 1
    assert compared >= 3 * 100
