"""``labelpool pool-info``: which systems built the set and which it can fairly compare."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT
from labelpool.cli import main
from labelpool.model import label_from_data
from labelpool.workflows.audit.poolinfo import pool_info


def info_json(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> Any:
    capsys.readouterr()
    assert main(["pool-info", *args, "--format", "json", "--repo", str(repo)]) == 0
    return json.loads(capsys.readouterr().out)


def test_shipped_example_was_pooled_from_bm25_at_20(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((ROOT / "labels").glob("*.yaml"))
    assert files, "the shipped example labels/ is missing"
    raw = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in files]
    judged = sorted(str(d["id"]) for d in raw if d.get("judged_ids"))
    not_judged = sorted(str(d["id"]) for d in raw if not d.get("judged_ids"))
    assert judged, "the example has judged questions"

    data = info_json(capsys, ROOT)
    assert data["questions"] == len(files)
    assert data["judged"] == len(judged)
    assert data["not_judged"] == not_judged
    assert [s["system"] for s in data["systems"]] == ["bm25"]
    (bm25,) = data["systems"]
    assert bm25["depths"] == [{"k": 20, "questions": len(judged)}]
    assert bm25["min_depth"] == 20 and bm25["questions"] == len(judged)
    assert data["fair"] == ["bm25"] and data["born_from"] == ["bm25"]
    assert data["unknown_origin"] == []
    # runs/ holds challengers the set was not built from: not fair.
    assert "bm25" not in data["runs_not_fair"]
    assert info_json(capsys, ROOT, "--k", "20")["fair"] == ["bm25"]
    deeper = info_json(capsys, ROOT, "--k", "21")
    assert deeper["fair"] == [] and "bm25" in deeper["runs_not_fair"]


def cast_repo(root: Path, cast_dir: Path, *pool_args: str) -> Path:
    repo = root / "cast"
    (repo / "labels").mkdir(parents=True)
    (repo / "runs").mkdir()
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "cast"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n',
        encoding="utf-8",
    )
    topics = json.loads(
        (cast_dir / "2021_manual_evaluation_topics_v1.0.json").read_text(encoding="utf-8")
    )
    with open(repo / "queries.tsv", "w", encoding="utf-8") as out:
        for topic in topics:
            for turn in topic["turn"]:
                text = " ".join(turn["manual_rewritten_utterance"].split())
                out.write(f"{topic['number']}_{turn['number']}\t{text}\n")
    proc = subprocess.run(
        [
            "labelpool",
            "import",
            "trec",
            str(cast_dir / "trec-cast-qrels-docs.2021.qrel"),
            "--queries",
            str(repo / "queries.tsv"),
            *pool_args,
            "--repo",
            str(repo),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return repo


def test_cast_2021_imported_with_unknown_origin(
    cast_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = cast_repo(tmp_path, cast_dir)
    for name in ("bm25.run", "ance.run"):
        (repo / "runs" / name).write_text("", encoding="utf-8")
    data = info_json(capsys, repo)
    assert data["questions"] == 158 and data["judged"] == 158
    assert data["systems"] == [] and data["fair"] == []
    assert len(data["unknown_origin"]) == 158
    assert data["born_from"] == ["unknown"] and data["born_date"] is None
    assert data["runs_not_fair"] == ["ance", "bm25"]
    capsys.readouterr()
    assert main(["pool-info", "--repo", str(repo)]) == 0
    text = capsys.readouterr().out
    assert "unknown origin (158)" in text and "fair to compare at k=10: none" in text


def test_cast_2021_imported_with_a_named_pool(
    cast_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = cast_repo(
        tmp_path,
        cast_dir,
        "--pool-system",
        "bm25",
        "--pool-depth",
        "100",
        "--pool-date",
        "2021-09-01",
    )
    data = info_json(capsys, repo)
    assert data["systems"] == [
        {
            "system": "bm25",
            "questions": 158,
            "depths": [{"k": 100, "questions": 158}],
            "dates": ["2021-09-01"],
            "min_depth": 100,
            "fair": True,
            "fair_by_depth": True,
            "unjudged_rate": None,
            "run": None,
            "disagreement": None,
        }
    ]
    assert data["fair"] == ["bm25"] and data["unknown_origin"] == []
    assert data["born_from"] == ["bm25"] and data["born_date"] == "2021-09-01"
    assert info_json(capsys, repo, "--k", "101")["fair"] == []


def lab(qid: str, pool: list[tuple[str, int | None, str | None]], judged: bool = True) -> Any:
    return label_from_data(
        {
            "id": qid,
            "question": "?",
            "judged_ids": ["d"] if judged else [],
            "pool": [{"system": s, "k": k, "date": d} for s, k, d in pool],
        }
    )


def test_fairness_needs_depth_k_on_every_judged_question() -> None:
    labels = {
        "a": lab("a", [("bm25", 20, "2026-01-01"), ("dense", 10, "2026-03-01")]),
        "b": lab("b", [("bm25", 20, "2026-01-01"), ("dense", 5, "2026-03-01")]),
        "c": lab("c", [("bm25", 10, "2026-02-01"), ("bm25", 30, "2026-04-01")]),
        "d": lab("d", [("unknown", None, None)]),
        "e": lab("e", []),
        "f": lab("f", [("dense", 50, "2026-03-01")], judged=False),
    }
    info = pool_info(labels, k=10, run_systems=("bm25", "dense", "hybrid"))
    assert info.questions == 6 and info.judged == 5
    by = {s.system: s for s in info.systems}
    assert sorted(by) == ["bm25", "dense"]
    assert by["bm25"].questions == 3 and by["bm25"].depths == ((20, 2), (30, 1))
    assert by["bm25"].dates == ("2026-01-01", "2026-02-01", "2026-04-01")
    assert by["dense"].depths == ((5, 1), (10, 1))
    # d and e (unknown, no pool) keep everyone from being fair on every judged question
    assert info.fair == ()
    assert info.unknown_origin == ("d", "e")
    assert info.not_judged == ("f",)
    assert info.born_from == ("bm25",) and info.born_date == "2026-01-01"
    assert info.runs_not_fair == ("bm25", "dense", "hybrid")

    known = {q: v for q, v in labels.items() if q in "ab"}
    assert pool_info(known, k=10).fair == ("bm25",)
    assert pool_info(known, k=5).fair == ("bm25", "dense")
    assert pool_info(known, k=21).fair == ()
    assert pool_info(known, k=10).systems[0].min_depth == 20


POOL = "pool:\n  - system: bm25\n    k: 2\n    date: '2026-01-01'\n"


def test_unjudged_documents_of_a_fair_by_depth_run_are_said_by_cause(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bm25 was pooled at depth 2 on every question, yet half its top 2 is unjudged; the
    reason names what each unjudged document is: q1's x is in no label (the file's rank column
    puts it 3rd, its score 2nd: a pool taken by rank column missed it), q2's e2 is marked
    pooled but never judged, q3's f2 waits in a batch. (It said "the run changed since it was
    pooled, or verdicts are pending", neither of which held for q1.)"""

    def write(bodies: dict[str, str]) -> None:
        for qid, body in bodies.items():
            (repo / "labels" / f"{qid}.yaml").write_text(
                f"id: {qid}\nquestion: {qid}?\n{body}{POOL}", encoding="utf-8"
            )

    q1 = "relevant_doc_ids:\n  - d1\njudged_ids:\n  - d1\n  - d2\n"
    write(
        {
            "q1": q1,
            "q2": "relevant_doc_ids: []\njudged_ids:\n  - e1\npooled_unjudged_ids:\n  - e2\n",
            "q3": "relevant_doc_ids: []\njudged_ids:\n  - f1\npending:\n  - batch: 'b1'\n"
            "    systems:\n      - bm25\n    depth: 2\n    date: '2026-01-02'\n    docs:\n"
            "      - {doc: f2, verdict: null}\n",
        }
    )
    (repo / "runs" / "bm25.trec").write_text(
        "q1 Q0 d1 1 3.0 bm25\nq1 Q0 d2 2 2.0 bm25\nq1 Q0 x 3 2.5 bm25\n"
        "q2 Q0 e1 1 2.0 bm25\nq2 Q0 e2 2 1.0 bm25\n"
        "q3 Q0 f1 1 2.0 bm25\nq3 Q0 f2 2 1.0 bm25\n",
        encoding="utf-8",
    )
    data = info_json(capsys, repo, "--k", "2")
    (bm25,) = data["systems"]
    assert bm25["fair_by_depth"] is True and bm25["fair"] is False
    assert bm25["unjudged_rate"] == pytest.approx(0.5)
    assert bm25["disagreement"] == (
        "pooled at depth >= 2, but 50.0% of the top 2 of runs/bm25.trec is unjudged: "
        "1 document waiting in a batch (verdicts not merged yet); "
        "1 document pooled but marked never judged; "
        "1 document in no label (this is not the ranking pooled to depth 2: the run changed "
        "since, or its top 2 was taken in another order, such as its rank column; labelpool "
        "ranks by score, as trec_eval does)"
    )
    # e2 and f2 judged: x alone is said
    write(
        {
            "q2": "relevant_doc_ids: []\njudged_ids:\n  - e1\n  - e2\n",
            "q3": "relevant_doc_ids: []\njudged_ids:\n  - f1\n  - f2\n",
        }
    )
    (bm25,) = info_json(capsys, repo, "--k", "2")["systems"]
    assert bm25["disagreement"].startswith(
        "pooled at depth >= 2, but 16.7% of the top 2 of runs/bm25.trec is unjudged: "
        "1 document in no label ("
    )


def test_markdown_and_usage_errors(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    (repo / "labels" / "q.yaml").write_text(
        "id: q\nquestion: Q?\nrelevant_doc_ids:\n  - d\njudged_ids:\n  - d\npool:\n"
        "  - system: '::warning::x'\n    k: 10\n    date: '2026-01-01'\n",
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["pool-info", "--format", "markdown", "--repo", str(repo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### Pool provenance")
    assert "| 1/1 | k=10 on 1 | 2026-01-01 |" in out
    assert not any(line.startswith("::") for line in out.splitlines())
    assert main(["pool-info", "--format", "xml", "--repo", str(repo)]) == 2
    assert main(["pool-info", "--k", "0", "--repo", str(repo)]) == 2


def test_baseline_for_ci_config_first_then_most_pooled_run(tmp_path: Path) -> None:
    """``pool-info --baseline``: ``[tool.labelpool] baseline``, else the system with a run in
    runs/ pooled on the most questions, else nothing."""
    from report_scenario import example_repo, labelpool

    repo = example_repo(tmp_path)
    assert labelpool(repo, "pool-info", "--baseline").stdout == "bm25\n"
    (repo / "runs" / "bm25.trec").rename(tmp_path / "bm25.trec")
    done = labelpool(repo, "pool-info", "--baseline")
    assert (done.returncode, done.stdout) == (0, "")  # no run of a pooled system
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(
            "[tool.labelpool]\n", '[tool.labelpool]\nbaseline = "dense"\n'
        ),
        encoding="utf-8",
    )
    assert labelpool(repo, "pool-info", "--baseline").stdout == "dense\n"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace('baseline = "dense"', "baseline = 3"),
        encoding="utf-8",
    )
    done = labelpool(repo, "pool-info", "--baseline")
    assert done.returncode == 2 and "baseline must be a system name" in done.stderr
