"""check: the CI regression gate in real temp git repositories (exit 0, 1, 3; 2 usage)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from compare_helpers import build_repo, degraded, dense, git, init_git, write_run
from conftest import skip_unless
from labelpool.cli import main


@pytest.fixture
def gitrepo(repo: Path) -> Path:
    build_repo(repo)
    init_git(repo)
    return repo


def _check(repo: Path, *args: str) -> int:
    return main(["check", *args, "--repo", str(repo)])


def test_unchanged_run_passes(gitrepo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(gitrepo, str(gitrepo / "runs/bm25.trec"), "--against", "HEAD") == 0
    out = capsys.readouterr().out
    assert "check: ok against HEAD:runs/bm25.trec" in out


def test_degraded_working_copy_fails_against_head(
    gitrepo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_run(gitrepo / "runs" / "bm25.trec", degraded, "bm25")
    code = _check(gitrepo, str(gitrepo / "runs/bm25.trec"), "--against", "HEAD", "--format", "json")
    assert code == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["check"]["status"] == "regression" and doc["check"]["exit_code"] == 1
    assert doc["labels_commit"] == git(gitrepo, "rev-parse", "HEAD").strip()
    failing = {r.split(":")[0] for r in doc["check"]["reasons"]}
    assert {"nDCG@10", "RR@10", "AP@100"} <= failing
    assert "R@10" not in failing  # the same ten documents: recall is unchanged
    c = next(c for c in doc["comparisons"] if c["measure"] == "nDCG@10")
    assert c["baseline"] == "bm25@HEAD" and c["challenger"] == "bm25"
    assert c["pooled"] == {"bm25@HEAD": 30, "bm25": 30}  # the reference counts as bm25
    assert c["ci95"][1] < 0 and c["reading"] == "meaningful"


def test_committed_degradation_against_an_older_revision(
    gitrepo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_run(gitrepo / "runs" / "bm25.trec", degraded, "bm25")
    git(gitrepo, "commit", "-q", "-am", "worse ranking")
    run = str(gitrepo / "runs/bm25.trec")
    assert _check(gitrepo, run, "--against", "HEAD~1", "-m", "nDCG@10") == 1
    assert _check(gitrepo, run, "--against", "HEAD", "-m", "nDCG@10") == 0
    capsys.readouterr()


def test_budget_tolerates_a_small_loss(gitrepo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_run(gitrepo / "runs" / "bm25.trec", degraded, "bm25")
    run = str(gitrepo / "runs/bm25.trec")
    assert _check(gitrepo, run, "--against", "HEAD", "-m", "RR@10", "--budget", "0.9") == 0
    assert _check(gitrepo, run, "--against", "HEAD", "-m", "RR@10", "--budget", "0.01") == 1
    capsys.readouterr()


def test_not_meaningful_comparison_exits_3_and_says_what_to_judge(
    gitrepo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_run(gitrepo / "runs" / "bm25.trec", dense, "bm25")
    code = _check(gitrepo, str(gitrepo / "runs/bm25.trec"), "--against", "HEAD", "-m", "nDCG@10")
    assert code == 3
    out = capsys.readouterr().out
    assert "check: not-meaningful" in out
    assert "uninterpretable (challenger unjudged 90% vs 0%)" in out
    assert "judge 270 documents over 30 questions" in " ".join(out.split())


def test_reference_run_file(gitrepo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # REF is a file when one exists at that path (no git needed for it)
    bm25 = str(gitrepo / "runs/bm25.trec")
    worse = str(gitrepo / "runs/degraded.trec")
    assert _check(gitrepo, worse, "--against", bm25, "-m", "nDCG@10") == 1
    assert _check(gitrepo, bm25, "--against", worse, "-m", "nDCG@10") == 0  # an improvement
    capsys.readouterr()


def test_outside_git_a_reference_file_still_works(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_repo(repo)
    worse = str(repo / "runs/degraded.trec")
    assert _check(repo, worse, "--against", str(repo / "runs/bm25.trec"), "-m", "RR@10") == 1
    assert _check(repo, worse, "--against", "HEAD", "-m", "RR@10") == 2
    assert "not in a git repository" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--against", "no-such-rev"], "neither a run file nor a git revision"),
        (["--against", "HEAD", "--budget", "-1"], "--budget"),
        (["--against", "HEAD", "-m", "nope@1"], "unknown measure"),
        (["--against", "HEAD", "--k", "0"], "--k"),
    ],
)
def test_usage_errors_exit_2(
    gitrepo: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    assert _check(gitrepo, str(gitrepo / "runs/bm25.trec"), *args) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_run_absent_at_revision_exits_2(gitrepo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = gitrepo / "runs" / "new.trec"
    shutil.copy(gitrepo / "runs" / "bm25.trec", new)
    assert _check(gitrepo, str(new), "--against", "HEAD") == 2
    assert "runs/new.trec does not exist at" in capsys.readouterr().err


def test_console_script_exit_codes(gitrepo: Path) -> None:
    exe = shutil.which("labelpool")
    skip_unless(exe is not None, "the labelpool console script is not on PATH", "os")
    assert exe is not None
    write_run(gitrepo / "runs" / "bm25.trec", degraded, "bm25")
    proc = subprocess.run(
        [exe, "check", "runs/bm25.trec", "--against", "HEAD", "-m", "nDCG@10"],
        cwd=gitrepo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert "check: regression" in proc.stdout


def _with_tail(ranking, tail: str):  # type: ignore[no-untyped-def]
    """A ranking followed by 20 documents nobody judged (ranks 11-30)."""
    return lambda i: ranking(i) + [f"q{i:02d}-{tail}{j}" for j in range(20)]


def test_unchanged_long_run_passes_with_default_measures(
    gitrepo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from compare_helpers import bm25

    write_run(gitrepo / "runs" / "bm25.trec", _with_tail(bm25, "t"), "bm25")
    git(gitrepo, "commit", "-q", "-am", "deeper run")
    run = str(gitrepo / "runs/bm25.trec")
    # AP@100 reads ranks 11-30, unjudged on both sides (relabel), but nothing changed
    assert _check(gitrepo, run, "--against", "HEAD", "--format", "json") == 0
    doc = json.loads(capsys.readouterr().out)
    ap = next(c for c in doc["comparisons"] if c["measure"] == "AP@100")
    assert ap["reading"] == "relabel" and doc["check"]["status"] == "ok"
    # a change below rank 10 only: the top-10 measures are fine, AP@100 cannot be read
    write_run(gitrepo / "runs" / "bm25.trec", _with_tail(bm25, "other"), "bm25")
    assert _check(gitrepo, run, "--against", "HEAD", "--format", "json") == 3
    doc = json.loads(capsys.readouterr().out)
    assert doc["check"]["status"] == "not-meaningful"
    assert [r.split(":")[0] for r in doc["check"]["reasons"]] == ["AP@100"]
