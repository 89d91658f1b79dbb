"""Two ``labelpool merge`` in one checkout at once (issue 29, finding 1).

0.2.0 before the repository lock, on the example pooled ``bm25+dense@10`` with every verdict
filled by one judge, 8 tries: in 2 or 3 the merge commit's tree held only ``labels/`` and
deleted the repository's other files (left on disk, staged as added): both runs built their
commits in one temporary index, ``.git/labelpool/merge.index``, and one run deleted it
between the other's ``read-tree`` and ``update-index``, which then wrote a tree of the folded
label files alone. In the other tries the second merge failed with a raw OS error
(``merge.stage: Directory not empty``), git's ``index.lock`` text, or "branch moved during
merge", none saying that another merge was running.

Now: 20 tries, the two merges started together; each time one merges and the other is
refused naming it (or, started late or with ``--wait``, merges nothing after it); the work
tree is clean, the tree is a lone merge's, and no commit changes a path outside ``labels/``.
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
    labelpool,
    together,
)

from pool_scenario import git

TRIES = 20


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """The judged example, its commit, and the tree and commit count of a lone merge."""
    where = tmp_path_factory.mktemp("concurrent-merge")
    repo = judged(where)
    lone = copy(repo, where / "lone")
    proc = labelpool(lone, "merge")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    base = git(repo, "rev-parse", "HEAD").strip()
    commits = len(git(lone, "rev-list", f"{base}..HEAD").split())
    assert commits >= 1
    return repo, head_tree(lone), commits


def test_two_merges_at_once(scenario: tuple[Path, str, int], tmp_path: Path) -> None:
    repo, lone_tree, lone_commits = scenario
    base = git(repo, "rev-parse", "HEAD").strip()
    outcomes = {"one refused": 0, "one after the other": 0}
    for n in range(TRIES):
        wait = ("--wait", "120") if n % 2 else ()  # every other try: the second one waits
        work = copy(repo, tmp_path / f"try-{n}")
        results = together(work, ("merge", *wait), ("merge", *wait))
        codes = sorted(code for code, _, _ in results)
        refused = [err for code, _, err in results if code == 1]
        if codes == [0, 1]:
            assert BUSY.fullmatch(refused[0]), (n, refused[0])
            assert BUSY.fullmatch(refused[0])["cmd"] == "merge"  # type: ignore[index]
            outcomes["one refused"] += 1
        else:
            assert codes == [0, 0], (n, results)
            outcomes["one after the other"] += 1
        assert git(work, "status", "--porcelain") == "", n
        assert head_tree(work) == lone_tree, n  # the labels (and every other file) as alone
        assert len(git(work, "rev-list", f"{base}..HEAD").split()) == lone_commits, n
        outside = {p for p in changed_by_commits(work, base) if not p.startswith("labels/")}
        assert not outside, (n, sorted(outside)[:5])
        assert sorted(p.name for p in (work / ".git" / "labelpool").iterdir()) == ["lock"]
        shutil.rmtree(work)
    # without --wait the second is refused (unless it started after the first ended); with
    # it, it merges nothing after the first
    assert outcomes["one refused"] + outcomes["one after the other"] == TRIES
    assert outcomes["one after the other"] >= TRIES // 2, outcomes
