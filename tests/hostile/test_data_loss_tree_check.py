"""A commit changes only what it meant to (issue 29): before a labelpool commit moves a
branch, every new commit's tree is compared with its parent's (one ``git diff-tree`` for the
chain) and a change outside the paths the command set out to change is refused.

The commits are built from a temporary index; finding 1's merges committed a tree holding
only the folded label files because another run deleted that index in between. Here the
index is emptied the same way (at ``merge``'s or ``pool``'s ``update-index``, by the
fault-injection seam's git wrapper); and a ``pre-commit`` hook stages a file of its own
while the judging page commits (``git commit --only`` takes what a hook stages).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.hostile.test_concurrency_page import _call, _token
from tests.hostile.writers_scenario import repository_state

from faults import copy_repo, git_wrapper, head, judged_repo, run, tree_state
from judge_scenario import pooled_example, start_server
from pool_scenario import git, make_repo

EMPTY_INDEX = 'rm -f "$("$REAL_GIT" rev-parse --git-dir)"/labelpool/{kind}*.index'
OUTSIDE = "corpus/corpus.jsonl, pyproject.toml, runs/a.trec, runs/b.trec"


def _emptied(repo: Path, tmp: Path, kind: str, *args: str) -> Any:
    """``labelpool ARGS`` with its temporary index deleted just before its first
    ``update-index``: the tree it then writes holds the changed files alone."""
    wrapper = git_wrapper(tmp / "bin")
    calls = run(copy_repo(repo, tmp / "probe"), *args, wrapper=wrapper).git_log
    at = next(i for i, c in enumerate(calls, 1) if c.startswith("update-index -z --index-info"))
    return run(repo, *args, wrapper=wrapper, git_run_at=at, git_run=EMPTY_INDEX.format(kind=kind))


def test_merge_of_an_emptied_index_is_refused(tmp_path: Path) -> None:
    """Before the check: the merge commit deleted every file outside labels/ (exit 0)."""
    repo = judged_repo(tmp_path / "r")
    base = head(repo)
    before, state = tree_state(repo, base), repository_state(repo)
    out = _emptied(repo, tmp_path, "merge", "merge", "--partial")
    assert out.code == 1, out.err
    assert re.fullmatch(
        r"error: merge: the commit it built \([0-9a-f]{12}\) would also change "
        r"corpus/corpus\.jsonl, labels/[a-z-]+\.yaml, .*pyproject\.toml.*, "
        r"which it did not set out to change; nothing changed \(its tree was built wrong: "
        r"another process rewrote its temporary index, or a git hook staged files\); "
        r"run it again\n",
        out.err,
    ), out.err
    assert tree_state(repo, base) == before and repository_state(repo) == state
    assert run(repo, "merge", "--partial").code == 0  # run it again: it goes through
    assert git(repo, "diff", "--name-only", base, "HEAD").split() == [
        "labels/cancel-order.yaml",
        "labels/returns-damaged.yaml",
    ]


def test_pool_of_an_emptied_index_is_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    base = head(repo)
    state = repository_state(repo)
    out = _emptied(repo, tmp_path, "pool", "pool", "a", "b", "--depth", "3")
    assert out.code == 1, out.err
    assert "error: pool: the commit it built (" in out.err
    assert f"would also change {OUTSIDE}, which it did not set out to change; nothing changed" in (
        out.err
    )
    assert repository_state(repo) == state and head(repo) == base
    assert run(repo, "pool", "a", "b", "--depth", "3").code == 0


HOOK = """#!/bin/sh
echo "a hook's own file" > hooked.txt
git add hooked.txt
"""


def test_a_page_commit_a_hook_adds_to_is_undone(tmp_path: Path) -> None:
    """Before the check: the page's commit held the hook's file too (200)."""
    repo = pooled_example(tmp_path)
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    old = head(repo)
    server = start_server(repo)
    try:
        token = _token(server.port)
        _, state = _call(server.port, "GET", "/api/state", token)
        q = state["questions"][0]
        d = q["docs"][0]
        body = {
            "q": q["qid"],
            "batch": state["batch"],
            "doc": d["doc"],
            "expect": d["block"],
            "verdict": "relevant",
        }
        assert _call(server.port, "POST", "/api/verdict", token, body)[0] == 200
        status, answer = _call(server.port, "POST", "/api/commit", token, {})
    finally:
        server.stop()
    assert status == 409, answer
    assert answer["error"] == (
        "the commit also changed hooked.txt, which this page did not write (a git hook "
        "staged it?): undone, nothing changed; commit those files yourself"
    )
    assert head(repo) == old
    assert git(repo, "status", "--porcelain") == (
        f" M labels/{q['qid']}.yaml\n?? hooked.txt\n"  # the verdict stays, not staged
    )
