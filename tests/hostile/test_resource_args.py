"""Resources, argument lists: ``pool`` and ``merge`` over 5,000 label files under
``prlimit --stack=524288`` (the kernel then allows about 128 KiB of arguments).

0.1.0 put every path on git's command line (``git add -- PATH...``, ``git commit -- PATH...``):
"Argument list too long" from about 4,000 paths under this limit (between 56,000 and 75,000
with the default stack), after the files were written: exit 1 with
`error: git: Argument list too long`, the batch or the folded verdicts left uncommitted in
the working tree.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tests.hostile.cited import check_cited

from conftest import skip_unless
from faults import LABELPOOL, REAL_GIT

N = 5000
STACK = "--stack=524288"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        [REAL_GIT, *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout


def _repo(root: Path, pending: bool) -> Path:
    """N questions written as plain files and committed once; each with a one-document
    pending batch (``pending``) or judged once with one document for a run to pool."""
    (root / "labels").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n")
    run_lines = []
    for i in range(N):
        qid = f"q{i:05d}"
        text = (
            f"id: {qid}\nquestion: Question {i}?\nrelevant_doc_ids: []\njudged_ids:\n  - d{i}-0\n"
        )
        text += "pool:\n  - system: s\n    k: 1\n    date: '2026-01-01'\n"
        if pending:
            text += (
                "pending:\n  - batch: '2026-12-02-s@2'\n    systems:\n      - s\n"
                "    depth: 2\n    date: '2026-12-02'\n    docs:\n"
                f"      - {{doc: d{i}-1, verdict: null}}\n"
            )
        (root / "labels" / f"{qid}.yaml").write_text(text)
        run_lines += [f"{qid} Q0 d{i}-0 1 2.0 s\n", f"{qid} Q0 d{i}-1 2 1.0 s\n"]
    (root / "runs" / "s.trec").write_text("".join(run_lines))
    (root.parent / f"{root.name}.qrels").write_text(
        "".join(f"q{i:05d} 0 d{i}-1 {i % 2}\n" for i in range(N))
    )
    for args in (
        ("init", "-q", "-b", "main"),
        ("config", "user.name", "Runner"),
        ("config", "user.email", "runner@example.invalid"),
        ("add", "-A"),
        ("commit", "-q", "-m", "labels"),
    ):
        _git(root, *args)
    return root


def _limited(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["prlimit", STACK, LABELPOOL, *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
    )
    check_cited(done.stdout, done.stderr, repo=repo)  # every position it cites exists
    return done


@pytest.fixture
def prlimit() -> None:
    skip_unless(shutil.which("prlimit"), "prlimit(1) (util-linux) is not installed", kind="os")


@pytest.mark.usefixtures("prlimit")
def test_pool_of_5000_questions_under_a_small_argument_limit(tmp_path: Path) -> None:
    """0.1.0: `error: git: Argument list too long`, exit 1, left on the new branch with
    5,000 batch files written and nothing committed."""
    repo = _repo(tmp_path / "pool", pending=False)
    out = _limited(repo, "pool", "s", "--depth", "2", "--no-text")
    assert out.returncode == 0, out.stderr
    assert _git(repo, "symbolic-ref", "--short", "HEAD").startswith("labelpool/batch-")
    changed = _git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert len(changed) == N and changed[0] == "labels/q00000.yaml"
    assert _git(repo, "status", "--porcelain") == ""
    assert "      - {doc: d4999-1, verdict: null}\n" in (repo / "labels/q04999.yaml").read_text()


@pytest.mark.usefixtures("prlimit")
def test_merge_of_5000_questions_under_a_small_argument_limit(tmp_path: Path) -> None:
    """0.1.0: `error: git: Argument list too long`, exit 1, the 5,000 folded label files
    left uncommitted."""
    repo = _repo(tmp_path / "merge", pending=True)
    qrels = tmp_path / "merge.qrels"
    out = _limited(repo, "merge", "--oracle", str(qrels))
    assert out.returncode == 0, out.stderr
    assert _git(repo, "log", "-1", "--format=%an <%ae>|%s").startswith(
        f"labelpool oracle <oracle@labelpool.invalid>|labelpool merge: {N} verdicts by the oracle"
    )
    assert len(_git(repo, "show", "--name-only", "--format=", "HEAD").split()) == N
    assert _git(repo, "status", "--porcelain") == ""
    assert "pending" not in (repo / "labels/q04999.yaml").read_text()
