"""``labelpool validate --provenance``: a pool entry's top k of its committed run is judged."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from labelpool import config, labelset
from labelpool.workflows.validate import provenance
from provenance_scenario import (
    commit_all,
    git,
    git_init,
    read_qrels,
    trec_top,
    write_label,
    write_run,
)


def audit(repo: Path) -> provenance.ProvenanceReport:
    cfg = config.load(repo)
    labels = labelset.load(cfg)
    return provenance.audit(cfg, labels, labels.paths)


def violations(report: provenance.ProvenanceReport) -> set[tuple[str, str]]:
    """(question, document) pairs named by the findings."""
    out = set()
    for f in report.findings:
        words = f.message.split()
        out.add((words[1].rstrip(":"), words[2]))
    return out


# --------------------------------------------------------------------------- small repos


def test_clean_when_every_pooled_document_is_judged(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["a", "b", "c"], "q2": ["d", "e"]})
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"], pool=[("bm25", 2)])
    write_label(repo, "q2", judged=["d", "e"], relevant=["e"], pool=[("bm25", 5)])
    report = audit(repo)
    assert report.findings == []
    assert report.checked == 2
    assert dict(report.skipped) == {}


def test_unjudged_pooled_document_is_a_finding_at_the_pool_entry(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["a", "b", "c"]})
    write_run(repo, "dense", {"q1": ["c", "a", "z"]})
    # c is dense's first document; only bm25's top 2 (a, b) were judged.
    path = write_label(
        repo, "q1", judged=["a", "b"], relevant=["a"], pool=[("bm25", 2), ("dense", 2)]
    )
    report = audit(repo)
    assert len(report.findings) == 1
    (finding,) = report.findings
    assert finding.rule == provenance.RULE == "LP060"
    assert finding.severity == "error"
    assert finding.path == str(path)
    # The second pool entry starts at its `system:` line.
    lines = path.read_text().splitlines()
    assert lines[finding.line - 1].strip() == "- system: dense"
    assert finding.col == lines[finding.line - 1].index("system") + 1
    assert "question q1" in finding.message
    assert "c is in dense's top 2" in finding.message
    assert str(finding).startswith(f"{path}:{finding.line}:{finding.col}: LP060 ")


def test_every_missing_document_is_named_once_per_entry(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["a", "b", "c", "d"], "q2": ["x"]})
    write_label(repo, "q1", judged=["b"], relevant=["b"], pool=[("bm25", 3)])
    write_label(repo, "q2", judged=["x"], relevant=["x"], pool=[("bm25", 3)])
    report = audit(repo)
    assert violations(report) == {("q1", "a"), ("q1", "c")}  # d is below k; q2 is clean


def test_class_members_count_as_judged(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["faq#1", "pol#2"]})
    write_label(
        repo,
        "q1",
        judged=["pol#2"],
        relevant=["pol#2"],
        classes=[["faq#1", "pol#2"]],
        pool=[("bm25", 2)],
    )
    assert audit(repo).findings == []


def test_pooled_unjudged_ids_are_violations(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["a", "b"]})
    path = write_label(repo, "q1", judged=["a"], relevant=["a"], pool=[("bm25", 2)])
    path.write_text(path.read_text() + "pooled_unjudged_ids:\n  - b\n")
    assert violations(audit(repo)) == {("q1", "b")}


def test_unknown_and_runless_entries_are_skipped_and_counted(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["a"], "q2": ["b"], "q3": ["c"]})
    write_label(repo, "q1", judged=["a"], relevant=["a"], pool=[("unknown", None)])
    write_label(repo, "q2", judged=["z"], relevant=["z"], pool=[("splade", 10)])
    write_label(repo, "q3", judged=["c"], relevant=["c"], pool=[("bm25", 1), ("splade", 5)])
    report = audit(repo)
    assert report.findings == []
    assert report.checked == 1
    assert dict(report.skipped) == {"unknown": 1, "no run": 2}
    assert report.missing_systems == ("splade",)
    note = report.note()
    assert "1 pool entry checked" in note
    assert "1 of unknown origin skipped" in note
    assert "2 skipped (no committed run for: splade)" in note


def test_the_run_suffixes_are_stripped_to_find_the_system(repo: Path) -> None:
    import gzip

    path = write_run(repo, "dense", {"q1": ["a", "b"]}, suffix=".run")
    gz = repo / "runs" / "dense.run.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    path.unlink()
    write_label(repo, "q1", judged=["a"], relevant=["a"], pool=[("dense", 2)])
    assert violations(audit(repo)) == {("q1", "b")}


def test_two_files_for_one_system_is_an_error(repo: Path) -> None:
    write_run(repo, "bm25", {"q1": ["a"]})
    write_run(repo, "bm25", {"q1": ["a"]}, suffix=".jsonl.gz")
    write_label(repo, "q1", judged=["a"], relevant=["a"], pool=[("bm25", 1)])
    with pytest.raises(provenance.ProvenanceError, match="two run files give system 'bm25'"):
        audit(repo)


def test_recorded_blob_is_checked_not_the_current_file(repo: Path) -> None:
    git_init(repo)
    run = write_run(repo, "bm25", {"q1": ["a", "b", "c"]})
    commit_all(repo, "runs")
    pooled_blob = git(repo, "hash-object", str(run))
    # Pooled at 2 from the committed run: a and b judged.
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"], pool=[("bm25", 2, pooled_blob)])
    # The run changed later: c moved up. The pool entry still holds (it names the old blob).
    write_run(repo, "bm25", {"q1": ["c", "a", "b"]})
    commit_all(repo, "labels; bm25 retrained")
    report = audit(repo)
    assert report.findings == []
    assert report.checked == 1
    # Without the recorded blob, the current file is checked: c is in its top 2.
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"], pool=[("bm25", 2)])
    assert violations(audit(repo)) == {("q1", "c")}


def test_recorded_blob_can_be_the_one_that_violates(repo: Path) -> None:
    git_init(repo)
    run = write_run(repo, "bm25", {"q1": ["x", "a", "b"]})
    commit_all(repo, "runs v1")
    old_blob = git(repo, "hash-object", str(run))
    write_run(repo, "bm25", {"q1": ["a", "b", "x"]})
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"], pool=[("bm25", 2, old_blob)])
    commit_all(repo, "runs v2")
    assert violations(audit(repo)) == {("q1", "x")}


def test_a_blob_git_does_not_have_is_skipped_and_counted(repo: Path) -> None:
    git_init(repo)
    write_run(repo, "bm25", {"q1": ["a", "b"]})
    write_label(repo, "q1", judged=["a"], relevant=["a"], pool=[("bm25", 2, "0" * 40)])
    commit_all(repo)
    report = audit(repo)
    assert report.findings == []
    assert dict(report.skipped) == {"blob missing": 1}
    assert "recorded run blob is not in git" in report.note()


def test_each_run_is_read_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from labelpool import runs

    for i in range(20):
        write_label(repo, f"q{i:02d}", judged=["a"], relevant=["a"], pool=[("bm25", 1 + i % 3)])
    write_run(repo, "bm25", {f"q{i:02d}": ["a", "b", "c"] for i in range(20)})
    reads: list[Path] = []
    real = runs.read_run

    def counting(path: Path, name: str | None = None) -> runs.Run:
        reads.append(path)
        return real(path, name)

    monkeypatch.setattr(runs, "read_run", counting)
    report = audit(repo)
    assert len(reads) == 1
    # k = 1 + i % 3: entries with k >= 2 miss b, those with k = 3 miss c too.
    assert len(report.findings) == sum(min(1 + i % 3, 3) - 1 for i in range(20))


# --------------------------------------------------------------------------- CAsT 2021


def test_cast2021_violations_match_a_direct_computation(repo: Path, cast_dir: Path) -> None:
    """Labels from the real qrels claiming bm25's top 10: the unjudged ones are named."""
    qrels = read_qrels(cast_dir / "trec-cast-qrels-docs.2021.qrel")
    src = cast_dir / "baselines" / "document_runs" / "org_manual_bm25.run"
    (repo / "runs" / "bm25.run").write_bytes(src.read_bytes())
    for qid, docs in qrels.items():
        write_label(
            repo,
            qid,
            judged=docs,
            relevant=[d for d, g in docs.items() if g > 0],
            grades={d: g for d, g in docs.items() if g > 1},
            pool=[("bm25", 10)],
        )
    top = trec_top(src, 10)
    expected = {(qid, d) for qid in qrels for d in top.get(qid, []) if d not in qrels[qid]}
    assert len(expected) > 100  # real collections miss part of a baseline's top 10
    started = time.perf_counter()
    report = audit(repo)
    elapsed = time.perf_counter() - started
    assert violations(report) == expected
    assert report.checked == len(qrels) == 158
    assert elapsed < 60  # a hang guard, not a benchmark


# --------------------------------------------------------------------------- the CLI


def test_validate_provenance_on_the_command_line(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from labelpool.cli import main

    monkeypatch.chdir(repo)
    write_run(repo, "bm25", {"q1": ["a", "b", "c"], "q2": ["d", "e"]})
    write_label(repo, "q1", judged=["a", "c"], relevant=["a"], pool=[("bm25", 3)])
    write_label(repo, "q2", judged=["d", "e"], relevant=["d"], pool=[("bm25", 2)])
    write_label(repo, "q3", judged=["x"], relevant=["x"], pool=[("unknown", None)])

    # Without the option, the labels are valid.
    capsys.readouterr()
    assert main(["validate", "--no-cache"]) == 0, capsys.readouterr()
    capsys.readouterr()

    assert main(["validate", "--no-cache", "--provenance"]) == 1
    out = capsys.readouterr()
    lines = [line for line in out.out.splitlines() if "LP060" in line]
    assert lines == [
        "labels/q1.yaml:9:5: LP060 question q1: b is in bm25's top 3 but not judged "
        "(pool entry 1 says that top 3 was judged in full)"
    ]
    assert "provenance: 2 pool entries checked; 1 of unknown origin skipped" in out.err
    assert "Traceback" not in out.err

    # Only the named files are checked.
    assert main(["validate", "--no-cache", "--provenance", "labels/q2.yaml"]) == 0
    assert "provenance: 1 pool entry checked" in capsys.readouterr().err

    assert main(["validate", "--no-cache", "--provenance", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(f["path"], f["line"], f["rule"]) for f in data if f["rule"] == "LP060"] == [
        ("labels/q1.yaml", 9, "LP060")
    ]


def test_validate_provenance_with_a_broken_run_fails_cleanly(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from labelpool.cli import main

    (repo / "runs" / "bm25.trec").write_text("q1 Q0 a 1 high bm25\n")
    write_label(repo, "q1", judged=["a"], relevant=["a"], pool=[("bm25", 1)])
    capsys.readouterr()
    assert main(["validate", "--no-cache", "--provenance", "--repo", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "bm25.trec:1" in err
    assert "Traceback" not in err


def test_lp060_is_registered() -> None:
    from labelpool.rules.registry import all_rules

    assert all_rules()["LP060"].severity == "error"
