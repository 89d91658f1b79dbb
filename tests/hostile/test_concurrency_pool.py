"""``pool`` at the same time as another ``pool`` or a ``merge`` in one checkout (issue 29).

Before the repository lock both built their commits in one temporary index and staged their
files in one folder under ``.git/labelpool/``; now the second waits (``--wait``) or is
refused naming the first, and the repository ends as the two commands would leave it run one
after the other (or as the one that ran alone): the same tree, a clean work tree, and no
commit that changes a path outside ``labels/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tests.hostile.writers_scenario import (
    BUSY,
    changed_by_commits,
    copy,
    head_tree,
    judged,
    together,
)

from pool_scenario import committed_example, git

POOL = ("pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "10")
POOL_HYBRID = ("pool", "runs/hybrid.trec", "--depth", "10")
MERGE = ("merge", "--partial")


def _serial(repo: Path, where: Path, *commands: tuple[str, ...]) -> str:
    """The tree ``commands`` leave run one after the other on a copy of ``repo``."""
    work = copy(repo, where)
    for command in commands:
        [(code, _, err)] = together(work, command)
        assert code == 0, (command, err)
    tree = head_tree(work)
    shutil.rmtree(work)
    return tree


def _check(work: Path, base: str, results: list[tuple[int, str, str]]) -> list[int]:
    """One succeeded; any other is refused naming the writer before it, or succeeded after
    it; a clean work tree; no commit outside ``labels/``. The sorted exit codes."""
    codes = sorted(code for code, _, _ in results)
    assert codes in ([0, 0], [0, 1]), results
    for code, _, err in results:
        if code == 1:
            assert BUSY.fullmatch(err), err
    assert git(work, "status", "--porcelain") == ""
    outside = {p for p in changed_by_commits(work, base) if not p.startswith("labels/")}
    assert not outside, sorted(outside)[:5]
    return codes


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed_example(tmp_path_factory.mktemp("concurrent-pool"))


def test_two_pools_at_once(example: Path, tmp_path: Path) -> None:
    base = git(example, "rev-parse", "HEAD").strip()
    lone = _serial(example, tmp_path / "lone", POOL)
    for n in range(6):
        wait = ("--wait", "120") if n % 2 else ()
        work = copy(example, tmp_path / f"try-{n}")
        _check(work, base, together(work, (*POOL, *wait), (*POOL, *wait)))
        assert head_tree(work) == lone, n
        branches = git(work, "for-each-ref", "--format=%(refname:short)", "refs/heads/").split()
        on = git(work, "symbolic-ref", "--short", "HEAD").strip()
        assert on.startswith("labelpool/batch-") and sorted(branches) == sorted([on, "main"])
        shutil.rmtree(work)


def test_pool_and_merge_at_once(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    repo = judged(tmp_path_factory.mktemp("pool-and-merge"))
    base = git(repo, "rev-parse", "HEAD").strip()
    alone = {
        "pool": _serial(repo, tmp_path / "p", POOL_HYBRID),
        "merge": _serial(repo, tmp_path / "m", MERGE),
    }
    both = {
        _serial(repo, tmp_path / "pm", POOL_HYBRID, MERGE),
        _serial(repo, tmp_path / "mp", MERGE, POOL_HYBRID),
    }
    for n in range(6):
        wait = ("--wait", "120") if n % 2 else ()
        work = copy(repo, tmp_path / f"try-{n}")
        results = together(work, (*POOL_HYBRID, *wait), (*MERGE, *wait))
        codes = _check(work, base, results)
        if codes == [0, 1]:
            ran = "pool" if results[0][0] == 0 else "merge"
            assert head_tree(work) == alone[ran], n
        else:
            assert head_tree(work) in both, n
        shutil.rmtree(work)
