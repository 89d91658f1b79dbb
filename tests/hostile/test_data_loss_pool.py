"""Data loss, ``pool``: killed at every git call and every write, on a full disk, rerun over a
branch it made or someone else made, with a journal left in every state.

0.1.0 created the branch (``git switch -c``), wrote the batch files one by one, then
``git add`` and ``git commit``: killed in between, it left the branch made and the batch half
written or uncommitted, and the rerun refused ("branch ... exists already") with the files
left as they were.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from faults import (
    REAL_GIT,
    copy_repo,
    disk_sweep,
    git_wrapper,
    head,
    kill_matrix,
    run,
    tree_state,
)
from pool_scenario import make_repo

POOL = ("pool", "a", "b", "--depth", "3")


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        [REAL_GIT, *args], cwd=repo, capture_output=True, text=True, env=dict(os.environ)
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("fresh") / "repo")


@pytest.fixture(scope="module")
def pooled(fresh: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    ref = copy_repo(fresh, tmp_path_factory.mktemp("pooled") / "repo")
    done = run(ref, *POOL)
    assert done.code == 0, done.err
    return tree_state(ref, head(fresh))


def test_pool_killed_at_every_git_call_reruns_to_the_same_branch(
    fresh: Path, pooled: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0: killed after `git switch -c`, the rerun refused ("branch exists already") and
    the batch was never written; killed after the writes, it stayed uncommitted."""
    points = kill_matrix(tmp_path, fresh, POOL, pooled, "git")
    assert points >= 8
    branch = str(pooled["branch"])
    assert branch.startswith("labelpool/batch-") and branch.endswith("-a+b")
    assert pooled["status"] == "" and len(pooled["log"]) == 1  # type: ignore[arg-type]


def test_pool_killed_at_every_write_reruns_to_the_same_branch(
    fresh: Path, pooled: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0: a kill inside a write left `.cancel-order.yaml.XXXX.tmp` in labels/ and the
    branch made with nothing committed on it."""
    points = kill_matrix(tmp_path, fresh, POOL, pooled, "write")
    # the run cache (runs a and b), the label cache, three staged files, the journal, the
    # reserve, three moves into labels/
    assert points == 11


def test_pool_no_commit_killed_at_every_write_converges(fresh: Path, tmp_path: Path) -> None:
    """0.1.0: a kill inside a write left a `.tmp` file in labels/."""
    ref = copy_repo(fresh, tmp_path / "ref")
    assert run(ref, *POOL, "--no-commit").code == 0
    want = tree_state(ref, head(fresh))
    assert want["branch"] == "main" and want["log"] == []
    points = kill_matrix(tmp_path, fresh, (*POOL, "--no-commit"), want, "write")
    assert points == 6  # the run cache (runs a and b), the label cache, three label files


def test_pool_as_the_disk_fills_up_is_all_or_nothing(
    fresh: Path, pooled: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0, on a tmpfs with 8 KiB free: `error: git switch -c ...: unable to write symref
    for HEAD: No space left on device` and a repository whose HEAD git could not read; with
    32 to 40 KiB free: exit 1 on the new branch, the batch written but not committed."""
    codes = disk_sweep(tmp_path, fresh, POOL, pooled)
    assert codes[0] == 1 and codes[-1] == 0 and len(codes) >= 3


def test_rerun_over_the_same_branch_switches_to_it(
    fresh: Path, pooled: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0: `error: branch 'labelpool/batch-...' exists already; name another with
    --branch`, exit 1, even when the branch holds exactly this batch."""
    repo = copy_repo(fresh, tmp_path / "repo")
    assert run(repo, *POOL).code == 0
    git(repo, "switch", "-q", "main")
    again = run(repo, *POOL)
    assert again.code == 0, again.err
    assert tree_state(repo, head(fresh)) == pooled


def test_rerun_over_another_branch_of_that_name_is_refused(fresh: Path, tmp_path: Path) -> None:
    """0.1.0: the same refusal (exit 1) naming the branch; kept."""
    repo = copy_repo(fresh, tmp_path / "repo")
    probe = copy_repo(fresh, tmp_path / "probe")
    assert run(probe, *POOL).code == 0
    name = git(probe, "symbolic-ref", "--short", "HEAD").strip()
    git(repo, "branch", name)  # a branch of that name at main: another tree
    before = tree_state(repo, head(repo))
    out = run(repo, *POOL)
    assert out.code == 1
    assert out.err == f"error: branch {name!r} exists already; name another with --branch\n"
    assert tree_state(repo, head(repo)) == before


def _kill_at(fresh: Path, repo: Path, tmp_path: Path, call: str) -> None:
    wrapper = git_wrapper(tmp_path / "bin")
    probe = copy_repo(fresh, tmp_path / "probe")
    calls = run(probe, *POOL, wrapper=wrapper).git_log
    at = next(i for i, c in enumerate(calls, 1) if c.startswith(call))
    assert run(repo, *POOL, wrapper=wrapper, kill_git=at).code == -9


def test_pool_journal_with_branch_made_is_finished(
    fresh: Path, pooled: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0 had no journal: killed after `git switch -c`, the rerun refused and the batch
    was never written."""
    repo = copy_repo(fresh, tmp_path / "repo")
    _kill_at(fresh, repo, tmp_path, "symbolic-ref HEAD refs/heads/")
    assert (repo / ".git" / "labelpool" / "pool.json").is_file()
    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "main"
    again = run(repo, *POOL)
    assert again.code == 0, again.err
    assert "finished the pool a kill interrupted (.git/labelpool/pool.json)" in again.err
    assert tree_state(repo, head(fresh)) == pooled


def test_pool_journal_without_branch_is_discarded(
    fresh: Path, pooled: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0 had no journal: killed before `git switch -c`, nothing had changed; kept."""
    repo = copy_repo(fresh, tmp_path / "repo")
    _kill_at(fresh, repo, tmp_path, "update-ref")
    journal = repo / ".git" / "labelpool" / "pool.json"
    assert journal.is_file()
    again = run(repo, *POOL)
    assert again.code == 0 and "finished" not in again.err
    assert not journal.exists()
    assert tree_state(repo, head(fresh)) == pooled


def test_pool_journal_with_branch_moved_names_it(fresh: Path, tmp_path: Path) -> None:
    """0.1.0: no journal; the rerun refused with "exists already" whatever the branch held."""
    repo = copy_repo(fresh, tmp_path / "repo")
    _kill_at(fresh, repo, tmp_path, "symbolic-ref HEAD refs/heads/")
    name = git(repo, "for-each-ref", "--format=%(refname)", "refs/heads/labelpool").strip()
    git(repo, "update-ref", name, "main")  # someone moved the new branch
    out = run(repo, *POOL)
    journal = repo / ".git" / "labelpool" / "pool.json"
    assert out.code == 1
    assert out.err.startswith(f"error: {journal}: an interrupted pool cannot be finished: ")
    assert (
        "its paths: labels/cancel-order.yaml, labels/login.yaml, labels/returns-damaged.yaml"
        in out.err
    )
    assert journal.is_file()


def test_pool_keeps_changes_outside_labels(fresh: Path, tmp_path: Path) -> None:
    """0.1.0: `git switch -c` kept them too; kept: a staged run file and an untracked note
    stay as they were on the new branch."""
    repo = copy_repo(fresh, tmp_path / "repo")
    (repo / "notes.txt").write_text("untracked\n")
    (repo / "corpus" / "extra.txt").write_text("x\n")
    git(repo, "add", "corpus/extra.txt")
    out = run(repo, *POOL)
    assert out.code == 0, out.err
    assert git(repo, "status", "--porcelain") == "A  corpus/extra.txt\n?? notes.txt\n"
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == [
        "labels/cancel-order.yaml",
        "labels/login.yaml",
        "labels/returns-damaged.yaml",
    ]
