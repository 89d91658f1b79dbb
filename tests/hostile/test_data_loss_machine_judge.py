"""Data loss, ``judge --machine``: killed at every git call and every write, a rerun finishes
the batch with no verdict lost or given twice, the same files and commits as a run never
interrupted.

A machine run keeps each answer in the response cache first, then writes a file's verdicts
together (one atomic write once every document of it asked has its answer, or after a few
seconds: then a kill may leave a file with some of its documents filled): every entry must
hold nothing or the verdict the uninterrupted run gives it (never another, never a torn
file), and the rerun must not ask what the response cache holds.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faults import copy_repo, fingerprint, git_wrapper, head, run, tree_state
from labelpool.workflows.merge.collect import read_label
from machine_scenario import QUIET_TOY, machine_repo
from pool_scenario import git

ARGS = ("judge", "--machine", "toy", "--concurrency", "2")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return machine_repo(tmp_path_factory.mktemp("machine") / "repo", program=QUIET_TOY)


@pytest.fixture(scope="module")
def want(base: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    ref = copy_repo(base, tmp_path_factory.mktemp("ref") / "repo")
    done = run(ref, *ARGS)
    assert done.code == 0, done.err
    state = tree_state(ref, head(base))
    assert state["status"] == "" and len(state["log"]) == 1  # type: ignore[arg-type]
    return state


def _verdicts(files: dict[str, bytes]) -> dict[tuple[str, str, str], object]:
    out = {}
    for name, data in files.items():
        if not name.startswith("labels/") or b"\npending:" not in data:
            continue
        _d, _t, batches = read_label(Path(name), data.decode("utf-8"))
        for b in batches:
            for e in b.entries:
                out[(name, b.batch, e.doc)] = e.verdict
    return out


def _matrix(
    tmp: Path, base: Path, want: dict[str, object], fault: str, args: tuple[str, ...] = ARGS
) -> int:
    start = head(base)
    final = _verdicts(want["files"])  # type: ignore[arg-type]
    before = tree_state(base, start)["files"]
    assert isinstance(before, dict)
    wrapper = git_wrapper(tmp / "bin")
    seen: set[str] = set()
    n = 0
    while True:
        n += 1
        repo = copy_repo(base, tmp / f"{fault}-{n}")
        if fault == "git":
            killed = run(repo, *args, wrapper=wrapper, kill_git=n)
        else:
            killed = run(repo, *args, kill_write=n)
        state = tree_state(repo, start)
        if killed.code not in (-9, 137):
            assert killed.code == 0, killed.err
            assert state == want
            shutil.rmtree(repo)
            return n - 1
        files = state["files"]
        assert isinstance(files, dict) and set(files) == set(before), (fault, n)
        for key, verdict in _verdicts(files).items():  # nothing torn, nothing foreign
            assert verdict is None or verdict == final[key], (fault, n, key, verdict)
        mark = fingerprint(repo)
        if mark not in seen:
            seen.add(mark)
            again = run(repo, *args)
            assert again.code == 0, (fault, n, again.err)
            assert tree_state(repo, start) == want, (fault, n)
        shutil.rmtree(repo)


def test_killed_at_every_git_call(base: Path, want: dict[str, object], tmp_path: Path) -> None:
    points = _matrix(tmp_path, base, want, "git")
    assert points >= 5


def test_killed_at_every_write(base: Path, want: dict[str, object], tmp_path: Path) -> None:
    points = _matrix(tmp_path, base, want, "write")
    assert points >= 2  # one write a file with documents to judge (two files here)


CALIBRATE = (*ARGS, "--calibrate")


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The batch judged by Ana in returns-damaged (every verdict 1) and merged."""
    repo = machine_repo(tmp_path_factory.mktemp("judged") / "repo", program=QUIET_TOY)
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("verdict: null}", "verdict: 1}"),
        encoding="utf-8",
    )
    ana = {
        "GIT_AUTHOR_NAME": "Ana Lopez",
        "GIT_AUTHOR_EMAIL": "ana@example.org",
        "GIT_COMMITTER_NAME": "Ana Lopez",
        "GIT_COMMITTER_EMAIL": "ana@example.org",
    }
    git(repo, "commit", "-qam", "ana judges", env=ana)
    merged = run(repo, "merge", extra_env=ana)
    assert "Ana Lopez <ana@example.org>: 3 verdicts" in merged.out, merged.out + merged.err
    return repo


def test_calibration_killed_at_every_git_call_and_write(judged: Path, tmp_path: Path) -> None:
    ref = copy_repo(judged, tmp_path / "ref")
    done = run(ref, *CALIBRATE)
    assert done.code == 0, done.err
    want = tree_state(ref, head(judged))
    assert want["status"] == "" and len(want["log"]) == 1  # type: ignore[arg-type]
    assert _matrix(tmp_path / "git", judged, want, "git", CALIBRATE) >= 3
    assert _matrix(tmp_path / "write", judged, want, "write", CALIBRATE) >= 3
