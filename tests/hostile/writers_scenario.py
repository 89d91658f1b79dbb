"""Writers at the same time (issue 29, finding 1): the shipped example pooled
``bm25+dense@10`` in a temp git repository, every pending verdict filled by one judge
(the example's ground truth, else ``0``) and committed as that judge; a copy per try
(``cp -a``), and the ``labelpool`` commands started as processes together.

Also what the checks share: the repository lock's refusal line, the paths each commit since
a base changes, the state a refused writer must leave.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pool_scenario import committed_example, git

JUDGE = {"GIT_AUTHOR_NAME": "Jo Judge", "GIT_AUTHOR_EMAIL": "jo.judge@example.invalid"}
BUSY = re.compile(
    r"error: labelpool (?P<cmd>[a-z ()]+) \(pid [0-9]+, since "
    r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} UTC\) is writing this repository; "
    r"nothing changed; run again when it ends, or wait with --wait SECONDS\n"
)
PENDING = re.compile(r"^(\s*- \{doc: )(.+?)(, verdict: )null\}$")


def ground_truth(repo: Path) -> dict[tuple[str, str], int]:
    grades: dict[tuple[str, str], int] = {}
    for line in (repo / "corpus" / "ground-truth.qrels").read_text().splitlines():
        parts = line.split()
        if len(parts) == 4:
            grades[(parts[0], parts[2])] = int(parts[3])
    return grades


def fill_all(repo: Path) -> int:
    """Every pending verdict of every label file filled (ground truth, else 0); how many."""
    truth = ground_truth(repo)
    filled = 0
    for path in sorted((repo / "labels").glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            m = PENDING.match(line)
            if m is not None:
                doc = m.group(2).strip("'\"")
                grade = truth.get((path.stem, doc), 0)
                lines[i] = f"{m.group(1)}{m.group(2)}{m.group(3)}{grade}}}"
                filled += 1
        path.write_text("\n".join(lines), encoding="utf-8")
    return filled


def labelpool(repo: Path, *args: str) -> subprocess.Popen[str]:
    """``labelpool ARGS`` started in ``repo`` (not waited for)."""
    env = dict(os.environ)
    env["LABELPOOL_CACHE_DIR"] = str(repo.parent / f"{repo.name}.cache")
    return subprocess.Popen(
        [sys.executable, "-m", "labelpool", *args],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def together(repo: Path, *commands: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """Start every command at once in ``repo``; ``(exit code, stdout, stderr)`` of each."""
    procs = [labelpool(repo, *c) for c in commands]
    out = []
    for p in procs:
        o, e = p.communicate(timeout=300)
        out.append((p.returncode, o, e))
    return out


def pooled(where: Path) -> Path:
    """The example, committed, pooled ``bm25+dense@10`` on its batch branch."""
    repo = committed_example(where)
    proc = labelpool(repo, "pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "10")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return repo


def judged(where: Path) -> Path:
    """:func:`pooled`, every pending verdict filled by one judge and committed as theirs."""
    repo = pooled(where)
    assert fill_all(repo) > 0
    git(repo, "commit", "-q", "-am", "every verdict", env=JUDGE)
    return repo


def copy(src: Path, dst: Path) -> Path:
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)
    return dst


def head_tree(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD^{tree}").strip()


def changed_by_commits(repo: Path, base: str) -> set[str]:
    """Every path a commit since ``base`` (on ``HEAD``) changes against its parent."""
    commits = git(repo, "rev-list", f"{base}..HEAD").split()
    paths: set[str] = set()
    for c in commits:
        out = git(repo, "diff-tree", "-r", "--name-only", "--no-commit-id", "-z", c)
        paths |= {p for p in out.split("\0") if p}
    return paths


def repository_state(repo: Path) -> dict[str, object]:
    """What a refused writer must leave as it was: every file outside ``.git`` (bytes and
    mode), the refs, ``HEAD``, the index entries, ``.git/labelpool/`` but the lock."""
    files = {
        p.relative_to(repo).as_posix(): (p.read_bytes(), p.stat().st_mode)
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts
    }
    scratch = repo / ".git" / "labelpool"
    return {
        "files": files,
        "refs": git(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        "head": git(repo, "symbolic-ref", "-q", "HEAD"),
        "index": git(repo, "ls-files", "-s"),
        "status": git(repo, "status", "--porcelain", "--untracked-files=all"),
        "scratch": sorted(p.name for p in scratch.glob("*") if p.name != "lock")
        if scratch.is_dir()
        else [],
    }


@contextmanager
def holding(repo: Path, command: str = "labelpool merge", pid: int = 4242) -> Iterator[Path]:
    """The repository lock of ``repo`` held by this process for the ``with`` block, its
    line naming ``command`` and ``pid`` since 2026-12-05 13:02:11 UTC."""
    common = git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir").strip()
    lock = Path(common) / "labelpool" / "lock"
    lock.parent.mkdir(exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        line = {"command": command, "pid": pid, "since": "2026-12-05T13:02:11Z"}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(line) + "\n").encode(), 0)
        yield lock
    finally:
        os.close(fd)
