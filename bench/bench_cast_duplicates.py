"""TREC CAsT 2021 and the MS MARCO duplicate map (issue 26), a row of ``bench_dedup``'s
quality table: how many judged documents of the official labels the map joins
(``import duplicates --prefix MARCO_``), and how ``compare`` of BM25 and ANCE changes once a
reviewer accepts every proposal (``docs/cast.md``, "The MS MARCO duplicate map")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAST = ROOT.parent / "shared" / "data" / "trec-cast-2021"
CAST_COMPARE = ("compare", "org_manual_bm25", "org_manual_ance", "-m", "nDCG@10,P@10")


@dataclass(frozen=True)
class Quality:
    name: str
    precision: float | None
    recall: float | None
    detail: str


def _lp(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``labelpool ARGS`` in ``repo`` (this interpreter's labelpool): its stdout."""
    import labelpool

    full = {**os.environ, **(env or {})}
    tools = str(Path(labelpool.__file__).resolve().parents[1])
    full["PYTHONPATH"] = os.pathsep.join(p for p in (tools, full.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, "-m", "labelpool", *args],
        cwd=repo,
        env=full,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"labelpool {' '.join(args)}: exit {proc.returncode}: {proc.stderr}")
    return proc.stdout


def _compared(repo: Path) -> str:
    report = json.loads(_lp(repo, *CAST_COMPARE, "--format", "json"))
    return "; ".join(
        f"{c['measure']} {c['baseline_score']['raw']:.3f} -> {c['challenger_score']['raw']:.3f} "
        f"({c['delta']:+.3f}, {c['verdict_code']})"
        for c in report["comparisons"]
    )


def cast_quality(work: Path) -> list[Quality]:
    """TREC CAsT 2021 (the official qrels, 158 turns): how many judged documents the MS MARCO
    duplicate map joins (``import duplicates --prefix MARCO_``), and BM25 vs ANCE ``compare``
    before and after a reviewer accepts every proposal."""
    name = "CAsT 2021, MARCO duplicate map"
    if not CAST.is_dir():
        return [Quality(name, None, None, "../shared/data absent")]
    base = work / "dedup-cast"
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    repo = base / "cast-labels"
    ident = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    who = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid"}
    who |= {"GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid"}
    _lp(base, "init", "cast-labels", env=ident)
    runs = CAST / "baselines" / "document_runs"
    for run in ("org_manual_bm25", "org_manual_ance"):
        shutil.copy(runs / f"{run}.run", repo / "runs")
    queries = CAST / "2021_manual_evaluation_topics_v1.0.json"
    qrels = CAST / "trec-cast-qrels-docs.2021.qrel"
    _lp(repo, "import", "trec", str(qrels), "--queries", str(queries), env=ident)
    env = ident | who
    for args in (["add", "-A"], ["commit", "-qm", "CAsT 2021 qrels"]):
        subprocess.run(["git", *args], cwd=repo, env={**os.environ, **env}, check=True)
    before = _compared(repo)
    dupmap = CAST / "duplicate_files" / "marco_duplicates.txt"
    found = json.loads(
        _lp(repo, "import", "duplicates", str(dupmap), "--prefix", "MARCO_", "--format", "json")
    )
    named = found["ids"] - found["outside"]
    joined = sum(len(p["members"]) for p in found["proposals"])
    if found["proposals"]:  # a reviewer accepts every one: deletes its `proposed:` line
        for path in {Path(p["path"]) for p in found["proposals"]}:
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            kept = [ln for ln in lines if "proposed: {method: duplicate-map" not in ln]
            path.write_text("".join(kept), encoding="utf-8")
        subprocess.run(
            ["git", "commit", "-qam", "accept"], cwd=repo, env={**os.environ, **env}, check=True
        )
        _lp(repo, "merge", env=env)
    after = _compared(repo)
    detail = (
        f"map ids the labels name (judged documents with a duplicate): {named:,} of "
        f"{found['ids']:,}; classes proposed: {len(found['proposals'])}, joining {joined} "
        f"judged documents; overlapping: {found['overlapping']}; BM25 vs ANCE before: {before}; "
        f"after accepting: {'unchanged' if after == before else after}"
    )
    return [Quality(name, None, None, detail)]
