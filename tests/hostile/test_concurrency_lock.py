"""The repository lock itself (issue 29: one writer at a time): shared by a repository's
worktrees, waited for with ``--wait``, released by the operating system when its holder
dies, refused in one line that names the holder (or says it cannot), never taken through a
symlink, not taken by what writes nothing (``fmt --check``, ``api.pool`` without ``write``).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from tests.hostile.writers_scenario import holding, repository_state

from faults import copy_repo, git_wrapper, run
from labelpool import api, repolock
from labelpool.cli import main
from labelpool.repolock import Busy
from pool_scenario import git, make_repo

HELD = (
    "error: labelpool merge (pid 4242, since 2026-12-05 13:02:11 UTC) is writing this "
    "repository; nothing changed; run again when it ends, or wait with --wait SECONDS\n"
)
ADD = ("add", "new-q", "Where is the new question?")
POOL = ("pool", "a", "b", "--depth", "3")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "r")


def _cli(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main([*args, "--repo", str(repo)])
    return code, capsys.readouterr().err


def test_a_second_writer_is_refused_naming_the_first(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = repository_state(repo)
    commands = [
        ADD,
        ("merge", "--partial"),
        ("pool", "a", "b", "--depth", "3"),
        ("fmt",),
        ("fmt", "--upgrade"),
        ("import", "jsonl", str(repo / "q.jsonl")),
    ]
    (repo / "q.jsonl").write_text('{"id": "q9", "question": "Q?", "relevant_doc_ids": []}\n')
    before = repository_state(repo)
    with holding(repo):
        for command in commands:
            assert _cli(repo, capsys, *command) == (1, HELD), command
    assert repository_state(repo) == before
    assert _cli(repo, capsys, *ADD)[0] == 0  # the lock released: it goes through


def test_two_worktrees_share_the_lock(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = repo.parent / "other"
    git(repo, "worktree", "add", "-q", "-b", "other", str(other))
    with holding(repo):
        assert _cli(other, capsys, *ADD) == (1, HELD)
    assert _cli(other, capsys, *ADD)[0] == 0


def test_wait_blocks_until_the_holder_ends(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done: list[float] = []

    def hold_for_a_second() -> None:
        with holding(repo):
            ready.set()
            time.sleep(1.0)
        done.append(time.monotonic())

    ready = threading.Event()
    holder = threading.Thread(target=hold_for_a_second)
    holder.start()
    ready.wait()
    code, err = _cli(repo, capsys, *ADD, "--wait", "30")
    ended = time.monotonic()
    holder.join()
    assert code == 0, err
    assert done and ended >= done[0]  # it went through once the holder let go
    code, err = _cli(repo, capsys, "add", "q-late", "Late?", "--wait", "0.2")
    assert code == 0, err


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "86401"])
def test_wait_out_of_range_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    code, err = _cli(repo, capsys, *ADD, "--wait", value)
    assert code == 2
    assert err == f"error: --wait must be between 0 and 86,400 seconds, not {float(value)}\n"


def test_a_holder_line_that_says_nothing_usable(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with holding(repo) as lock:
        os.truncate(lock, 0)
        lock.write_bytes(b'{"command": "\\u001b[31mx", "pid": "not a pid"}\n' * 1000)
        code, err = _cli(repo, capsys, *ADD)
    assert code == 1
    assert err == (
        "error: another labelpool command is writing this repository; nothing changed; "
        "run again when it ends, or wait with --wait SECONDS\n"
    )


def test_a_symlink_where_the_lock_goes_is_refused(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = repo / ".git" / "labelpool" / "lock"
    lock.parent.mkdir(exist_ok=True)
    target = repo.parent / "elsewhere"
    lock.symlink_to(target)
    code, err = _cli(repo, capsys, *ADD)
    assert code == 1
    assert err.startswith(f"error: {lock}: cannot take the repository lock (")
    assert "nothing changed" in err
    assert not target.exists()
    assert not (repo / "labels" / "new-q.yaml").exists()


def test_a_killed_writer_leaves_no_stale_lock(repo: Path, tmp_path: Path) -> None:
    """SIGKILL in the middle of a pool: the next writer takes the lock at once."""
    wrapper = git_wrapper(tmp_path / "bin")
    calls = run(copy_repo(repo, tmp_path / "probe"), *POOL, wrapper=wrapper).git_log
    at = next(i for i, c in enumerate(calls, 1) if c.startswith("fast-import"))
    killed = run(repo, *POOL, wrapper=wrapper, kill_git=at)
    assert killed.code == -9, killed.err
    assert b"labelpool pool" in (repo / ".git" / "labelpool" / "lock").read_bytes()
    again = run(repo, *POOL)
    assert again.code == 0, again.err


def test_what_writes_nothing_takes_no_lock(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with holding(repo):
        assert _cli(repo, capsys, "fmt", "--check")[0] == 0
        assert _cli(repo, capsys, "validate")[0] == 0
        report = api.pool(["a", "b"], depth=3, repo=repo)  # nothing written
        assert report.plan.documents > 0
        with pytest.raises(Busy):
            api.pool(["a", "b"], depth=3, repo=repo, write=True, wait=0.2)


def test_a_dead_runs_temporary_index_is_removed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A killed run's ``pool.<pid>.index`` goes with the next run; a live process's stays."""
    folder = repo / ".git" / "labelpool"
    folder.mkdir(exist_ok=True)
    dead, live = folder / "pool.2147483646.index", folder / f"pool.{os.getppid()}.index"
    dead.write_bytes(b"x")
    live.write_bytes(b"x")
    assert _cli(repo, capsys, "pool", "a", "b", "--depth", "3")[0] == 0
    assert not dead.exists() and live.exists()


def test_the_lock_is_where_git_says_the_common_folder_is(repo: Path, tmp_path: Path) -> None:
    """The lock's folder is found without running git: the same folder as
    ``git rev-parse --git-common-dir`` in a repository, a subfolder, a worktree and a
    submodule; none outside a repository."""
    other = tmp_path / "worktree"
    git(repo, "worktree", "add", "-q", "-b", "w", str(other))
    sub_origin = make_repo(tmp_path / "sub-origin")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub_origin), "sub")
    for folder in (repo, repo / "labels", other, other / "labels", repo / "sub" / "labels"):
        said = git(folder, "rev-parse", "--path-format=absolute", "--git-common-dir").strip()
        assert repolock.common_dir(folder.resolve()) == Path(said).resolve(), folder
    outside = tmp_path / "plain"
    outside.mkdir()
    assert repolock.lock_file(outside / "labels") is None


def test_the_holders_name_is_shown_escaped(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The lock file is text anyone who can write ``.git`` can change: its command name is
    cut to 80 characters and printed through the sanitiser."""
    raw = "labelpool \x1b[31mmerge\u202e" + "x" * 200
    with holding(repo, command=raw, pid=7):
        code, err = _cli(repo, capsys, *ADD)
    assert code == 1
    shown = raw[:80].replace("\x1b", "\\x1b").replace("\u202e", "\\u202e")
    assert err.startswith(f"error: {shown} (pid 7, since 2026-12-05 13:02:11 UTC) is writing")


def test_a_token_in_the_environment_is_no_key(repo: Path) -> None:
    """Only the holder's own token, in the line of a lock it holds, hands the lock down: a
    token some process sets by hand opens nothing."""
    env = {"LABELPOOL_LOCK_TOKENS": "0123456789abcdef"}
    with holding(repo):
        out = run(repo, *ADD, extra_env=env)
    assert (out.code, out.err) == (1, HELD)
    assert run(repo, *ADD, extra_env=env).code == 0  # free: taken as usual
