"""The repositories the report's tests open: the shipped example and CAsT 2021.

CAsT 2021 (``../shared/data``, never copied: the runs are symbolic links): the labels hold
what ``org_manual_bm25``'s top 10 had judged, imported with ``labelpool import trec``
(a document of that top 10 that NIST never judged is imported as "pooled, never judged",
grade -1, so it counts as unjudged); the five baseline runs sit in ``runs/``.
"""

from __future__ import annotations

from pathlib import Path

from judge_scenario import labelpool
from pool_scenario import committed_example, init_git

CAST_BASELINE = "org_manual_bm25"
CAST_RUNS = (
    "org_manual_bm25",
    "org_manual_ance",
    "org_manual_ance_bert",
    "org_convdr",
    "org_convdr_bert",
)


def example_repo(where: Path) -> Path:
    """The shipped example in a fresh git repository."""
    return committed_example(where)


def _bm25_top10_qrels(cast: Path) -> str:
    grades: dict[tuple[str, str], str] = {}
    for line in (cast / "trec-cast-qrels-docs.2021.qrel").read_text().splitlines():
        q, _, d, g = line.split()
        grades[(q, d)] = g
    turns = {q for q, _ in grades}
    rows = []
    run = cast / "baselines" / "document_runs" / f"{CAST_BASELINE}.run"
    for line in run.read_text().splitlines():
        q, _, d, rank = line.split()[:4]
        if q in turns and int(rank) <= 10:
            rows.append(f"{q} 0 {d} {grades.get((q, d), '-1')}\n")
    return "".join(rows)


def cast_repo(where: Path, cast: Path) -> Path:
    """CAsT 2021 as a label repository (see the module's docstring)."""
    repo = where / "cast"
    (repo / "labels").mkdir(parents=True)
    (repo / "runs").mkdir()
    (repo / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    for name in CAST_RUNS:
        (repo / "runs" / f"{name}.run").symlink_to(
            cast / "baselines" / "document_runs" / f"{name}.run"
        )
    qrels = where / "bm25-top10.qrel"
    qrels.write_text(_bm25_top10_qrels(cast), encoding="utf-8")
    done = labelpool(
        repo,
        "import",
        "trec",
        str(qrels),
        "--queries",
        str(cast / "2021_manual_evaluation_topics_v1.0.json"),
        "--pool-system",
        CAST_BASELINE,
        "--pool-depth",
        "10",
        "--pool-date",
        "2021-06-01",
    )
    assert done.returncode == 0, done.stderr
    init_git(repo)
    return repo
