"""Fault injection, the one test seam (ARCHITECTURE.md, "Fault injection").

* git calls: :func:`git_wrapper` writes a ``git`` script into a folder the test puts first on
  ``PATH``. It counts its calls in a file; at call ``FAULT_GIT_KILL_AT`` it kills its parent
  (the labelpool process) with SIGKILL before git runs; at call ``FAULT_GIT_RUN_AT`` it first
  runs the shell command ``FAULT_GIT_RUN`` (which reaches the real git as ``$REAL_GIT``), e.g.
  to move a branch behind labelpool's back; otherwise it execs the real git.
* writes: ``tools/labelpool/atomic.py`` ends the process with ``os._exit(137)`` at its N-th
  write when ``LABELPOOL_TEST_KILL_WRITE=N`` (after the data is in the unnamed temporary file,
  before it takes the target's place).

:func:`run` runs the installed ``labelpool`` console script as a subprocess with either fault.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.hostile.cited import check_cited

REAL_GIT = shutil.which("git") or "/usr/bin/git"
LABELPOOL = shutil.which("labelpool") or "labelpool"

WRAPPER = """#!/bin/sh
n=$(cat "$FAULT_GIT_COUNTER" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$FAULT_GIT_COUNTER"
printf '%s\n' "$*" >> "$FAULT_GIT_COUNTER.log"
if [ "$n" = "${FAULT_GIT_KILL_AT:-0}" ]; then
    kill -9 "$PPID"
    exit 137
fi
if [ "$n" = "${FAULT_GIT_RUN_AT:-0}" ]; then
    REAL_GIT="$FAULT_REAL_GIT" sh -c "$FAULT_GIT_RUN"
fi
exec "$FAULT_REAL_GIT" "$@"
"""


def git_wrapper(folder: Path) -> Path:
    """The wrapper script as ``folder/git`` (executable); returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "git"
    script.write_text(WRAPPER, encoding="utf-8")
    script.chmod(0o755)
    return folder


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str
    git_calls: int  # calls the wrapper saw (0 without it)
    git_log: tuple[str, ...] = ()  # their arguments, one line each


def run(
    repo: Path,
    *args: str,
    wrapper: Path | None = None,
    kill_git: int | None = None,
    kill_write: int | None = None,
    git_run_at: int | None = None,
    git_run: str | None = None,
    extra_env: dict[str, str] | None = None,
    repo_option: bool = True,
) -> Outcome:
    """``labelpool ARGS --repo REPO`` (``ARGS`` alone without ``repo_option``) as a
    subprocess, with the faults asked for."""
    env = dict(os.environ)
    env.pop("LABELPOOL_TEST_KILL_WRITE", None)
    env["LABELPOOL_CACHE_DIR"] = str(repo.parent / f"{repo.name}.cache")  # never shared
    env.update(extra_env or {})
    counter: Path | None = None
    if wrapper is not None:
        counter = wrapper / "calls"
        counter.unlink(missing_ok=True)
        Path(f"{counter}.log").unlink(missing_ok=True)
        env["PATH"] = f"{wrapper}{os.pathsep}{env.get('PATH', '')}"
        env["FAULT_REAL_GIT"] = REAL_GIT
        env["FAULT_GIT_COUNTER"] = str(counter)
        env["FAULT_GIT_KILL_AT"] = str(kill_git or 0)
        env["FAULT_GIT_RUN_AT"] = str(git_run_at or 0)
        env["FAULT_GIT_RUN"] = git_run or ""
    if kill_write is not None:
        env["LABELPOOL_TEST_KILL_WRITE"] = str(kill_write)
    argv = [*args, "--repo", str(repo)] if repo_option else list(args)
    proc = subprocess.run(
        [LABELPOOL, *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    calls = int(counter.read_text().strip() or 0) if counter and counter.exists() else 0
    log = Path(f"{counter}.log")
    lines = tuple(log.read_text().splitlines()) if counter and log.exists() else ()
    check_cited(proc.stdout, proc.stderr, repo=repo)  # every position it cites exists
    return Outcome(proc.returncode, proc.stdout, proc.stderr, calls, lines)


def tree_state(repo: Path, base: str) -> dict[str, object]:
    """What an interrupted-then-rerun command must match: every file under ``labels/`` byte
    for byte, stray files anywhere in the work tree, the branch, the index and working-tree
    status, each commit since ``base`` as (author, committer, subject, trailers), and what
    ``.git/labelpool/`` holds (journals, staged files; not the repository lock's file)."""

    def git(*a: str) -> str:
        return subprocess.run(
            [REAL_GIT, *a], cwd=repo, capture_output=True, text=True, check=True
        ).stdout

    files = {
        p.relative_to(repo).as_posix(): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts
    }
    log = git(
        "log",
        "--format=%an <%ae>|%cn <%ce>|%s|%(trailers:key=Co-authored-by,valueonly,separator=;)",
        f"{base}..HEAD",
    )
    return {
        "files": files,
        "branch": git("symbolic-ref", "-q", "--short", "HEAD").strip(),
        "status": git("--no-optional-locks", "status", "--porcelain", "--untracked-files=all"),
        "log": log.splitlines(),
        # the repository lock stays (empty) between runs: not state a run leaves
        "labelpool_dir": sorted(
            p.name for p in (repo / ".git" / "labelpool").glob("*") if p.name != "lock"
        )
        if (repo / ".git" / "labelpool").is_dir()
        else [],
    }


ALICE = {
    "GIT_AUTHOR_NAME": "Alice Judge",
    "GIT_AUTHOR_EMAIL": "alice@example.invalid",
}
BOB = {"GIT_AUTHOR_NAME": "Bob Reviewer", "GIT_AUTHOR_EMAIL": "bob@example.invalid"}


def set_verdict(path: Path, doc: str, verdict: str) -> None:
    """Fill the verdict of ``doc`` in a pending batch of the label file ``path``."""
    text = path.read_text(encoding="utf-8")
    doc_yaml = f"'{doc}'" if doc in ("no", "1239") else doc
    old = f"- {{doc: {doc_yaml}, verdict: null}}"
    assert text.count(old) == 1, (doc, text)
    path.write_text(text.replace(old, f"- {{doc: {doc_yaml}, verdict: {verdict}}}"))


def judged_repo(root: Path) -> Path:
    """The pool scenario (tests/pool_scenario.py) with a batch of ``a`` and ``b`` at depth 3
    on its branch, and verdicts of two judges committed: Alice (with a co-author) judges two
    documents of ``returns-damaged``, Bob one of ``returns-damaged`` and one of
    ``cancel-order``; ``1239`` stays unjudged (merge needs ``--partial``)."""
    from pool_scenario import cli, git, make_repo

    repo = make_repo(root)
    assert cli(repo, "pool", "a", "b", "--depth", "3") == 0
    rd, co = repo / "labels" / "returns-damaged.yaml", repo / "labels" / "cancel-order.yaml"
    set_verdict(rd, "faq-shipping#damaged", "relevant")
    set_verdict(rd, "policy-returns-v2#sec-2", "irrelevant")
    git(
        repo,
        "commit",
        "-q",
        "-am",
        "alice judges\n\nCo-authored-by: Carol Second <carol@example.invalid>",
        env=ALICE,
    )
    set_verdict(rd, "tenant-acme#returns", "2")
    set_verdict(co, "no", "0")
    git(repo, "commit", "-q", "-am", "bob judges", env=BOB)
    return repo


def copy_repo(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, symlinks=True)
    return dst


def head(repo: Path) -> str:
    return subprocess.run(
        [REAL_GIT, "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()


def kill_matrix(
    tmp: Path, base_repo: Path, args: tuple[str, ...], want: dict[str, object], fault: str
) -> int:
    """Kill ``labelpool ARGS`` at each git call (``fault="git"``) or write (``"write"``) in
    turn, check the state it leaves (every file old or new, none added), rerun it, and
    compare with ``want``; the number of kill points (the run that outlives the last one must
    finish the job itself). Kills that leave the same state (:func:`fingerprint`) are rerun
    once."""
    base = head(base_repo)
    before = tree_state(base_repo, base)["files"]
    assert isinstance(before, dict)
    after = want["files"]
    assert isinstance(after, dict)
    wrapper = git_wrapper(tmp / "bin")
    rerun: set[str] = set()
    n = 0
    while True:
        n += 1
        repo = copy_repo(base_repo, tmp / f"{fault}-{n}")
        if fault == "git":
            killed = run(repo, *args, wrapper=wrapper, kill_git=n)
        else:
            killed = run(repo, *args, kill_write=n)
        state = tree_state(repo, base)
        if killed.code not in (-9, 137):  # the run outlived the last kill point
            assert killed.code == 0, killed.err
            assert state == want
            shutil.rmtree(repo)
            return n - 1
        files = state["files"]
        assert isinstance(files, dict)
        assert set(files) == set(before), (fault, n, "a file appeared or went")
        for name, data in files.items():
            assert data in (before[name], after[name]), (fault, n, name, "torn or foreign")
        mark = fingerprint(repo)
        if mark not in rerun:  # a state seen before was rerun already: same input, same run
            rerun.add(mark)
            again = run(repo, *args)
            assert again.code == 0, (fault, n, again.err)
            assert tree_state(repo, base) == want, (fault, n)
        shutil.rmtree(repo)


def fingerprint(repo: Path) -> str:
    """Everything a rerun reads: the work tree, the index entries (not their stat data), the
    refs, ``HEAD`` and ``.git/labelpool/`` (but its temporary ``*.index``, which every run
    deletes before use); not the object store, where a killed run can only have added
    unreachable objects."""
    digest = hashlib.sha256()
    for p in sorted(repo.rglob("*")):
        rel = p.relative_to(repo)
        inside = rel.parts[:2] == (".git", "labelpool") and p.suffix != ".index"
        if p.is_file() and (".git" not in rel.parts or inside):
            digest.update(str(rel).encode() + b"\0" + p.read_bytes() + b"\0")
    for args in (
        ("ls-files", "-s", "-z"),
        ("for-each-ref", "--format=%(refname) %(objectname)"),
        ("symbolic-ref", "-q", "HEAD"),
        ("rev-parse", "HEAD"),
    ):
        out = subprocess.run(
            [REAL_GIT, "--no-optional-locks", *args], cwd=repo, capture_output=True, check=False
        )
        digest.update(out.stdout + b"\0")
    return digest.hexdigest()


@contextmanager
def mounted_tmpfs(mnt: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``mnt`` for the ``with`` block (root only; skipped per
    the skip rule where mounting is impossible)."""
    from conftest import skip_unless

    mnt.mkdir(parents=True)
    can = os.geteuid() == 0 and shutil.which("mount") is not None
    skip_unless(can, "mounting a tmpfs needs root and mount(8)", kind="os")
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)],
        capture_output=True,
        check=False,
    )
    skip_unless(proc.returncode == 0, f"mount -t tmpfs failed: {proc.stderr!r}", kind="os")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(mnt: Path, leave: int = 0) -> None:
    """Fill the file system at ``mnt`` (a file ``filler``), then free ``leave`` bytes."""
    with open(mnt / "filler", "wb", buffering=0) as fh:
        for chunk in (b"\0" * 65536, b"\0" * 512, b"\0"):
            try:
                while True:
                    fh.write(chunk)
            except OSError:
                pass
        if leave:
            fh.truncate(max(fh.tell() - leave, 0))


def disk_sweep(
    tmp: Path, base_repo: Path, args: tuple[str, ...], want: dict[str, object]
) -> list[int]:
    """Run ``labelpool ARGS`` on a copy of ``base_repo`` on a tmpfs with 0, 8, 16, ... KiB
    free until it succeeds: each run that fails must exit 1 naming the full disk and leave
    the repository as it was (files, branch, log, status, no journal); the one that succeeds
    must leave ``want``. Returns the exit codes, one per free size tried."""
    base = head(base_repo)
    before = tree_state(base_repo, base)
    codes: list[int] = []
    with mounted_tmpfs(tmp / "mnt", "2m") as mnt:
        for pages in range(0, 64, 2):
            repo = copy_repo(base_repo, mnt / "repo")
            fill(mnt, leave=pages * 4096)
            out = run(repo, *args)
            codes.append(out.code)
            state = tree_state(repo, base)
            (mnt / "filler").unlink()
            if out.code == 0:
                assert state == want, pages
                return codes
            assert out.code == 1, (pages, out.err)
            assert out.err.startswith("error: ") and "internal error" not in out.err, out.err
            full = "No space left on device|Out of diskspace|couldn.t write"
            assert re.search(full, out.err), out.err
            assert state == before, (pages, out.err)
            shutil.rmtree(repo)
    raise AssertionError("never succeeded with 256 KiB free")
