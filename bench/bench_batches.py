"""The commands that write a batch: ``pool``, ``merge`` (one judge; two judges of 20 documents
each) and ``diff`` of the merge, cold and warm, on one generated repository.

``pool`` writes a batch on a branch of its own (kept as ``bench-pooled``); one judge fills
every verdict and commits (:func:`judge_commit`, made once, tagged ``bench-judged``); ``merge``
folds it (tagged ``bench-merged`` for ``diff``). Every sample starts from the generated commit
(``bench_state.reset``). Warm rows run the command once untimed with the same cache first
(the label index filled), then measure it.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import bench_seats
from bench_measure import Measurement, measure
from bench_repo import Repo, git
from bench_state import Bench, drop_branch, reset

JUDGE = ("Jo Judge", "jo.judge@example.org")
JUDGE_ENV = {
    "GIT_AUTHOR_NAME": JUDGE[0],
    "GIT_AUTHOR_EMAIL": JUDGE[1],
    "GIT_COMMITTER_NAME": JUDGE[0],
    "GIT_COMMITTER_EMAIL": JUDGE[1],
}
POOL_ARGS = ("pool", "bm25", "dense", "hybrid", "--depth", "30", "--no-text")
POOL = "pool bm25 dense hybrid --depth 30"
MERGE = "merge (one judge)"
DIFF = "diff base merged"
VERDICTS = ["irrelevant"] * 7 + ["relevant"] * 2 + ["2"]
WARM = " (warm)"


def fill_verdicts(labels: Path, seed: int) -> int:
    """Every ``verdict: null`` of ``labels/`` given a verdict (seeded); files changed."""
    rng = random.Random(seed)
    pattern = re.compile(r"verdict: null")
    changed = 0
    for path in sorted(labels.iterdir()):
        text = path.read_text(encoding="utf-8")
        if "verdict: null" in text:
            filled = pattern.sub(lambda _: f"verdict: {rng.choice(VERDICTS)}", text)
            path.write_text(filled, encoding="utf-8")
            changed += 1
    return changed


def pool_merge_diff(b: Bench, repo: Repo) -> None:
    n = repo.n
    if b.wants("pool"):
        for suffix, warm in (("", False), (WARM, True)):
            m = measure(
                POOL + suffix,
                b.lp(*POOL_ARGS, "--branch", "bench-pool"),
                repo.root,
                b.repeat,
                cold=not warm,
                fill=warm,
                before=lambda: drop_branch(repo, "bench-pool"),
                after=lambda: keep_pooled(repo),
            )
            b.put(n, m)
    if not (b.wants("merge") or b.wants("diff")):
        return
    pooled = b.results.get((n, POOL))
    # a pool that failed (or timed out) just now is not started again for the judge
    judged = judge_commit(b, repo) if pooled is None or pooled.ok else None
    if judged is None:
        for name in (MERGE, DIFF):
            if b.wants(name.split()[0]):
                b.put(n, Measurement(name, ok=False, note="pool failed: no batch to judge"))
        return
    merged_tag = "bench-merged"

    def before_merge() -> None:
        reset(repo)
        git(repo.root, "checkout", "-q", "-f", "-B", "bench-merge", judged)

    def after_merge() -> None:
        if git(repo.root, "rev-parse", "HEAD").strip() != judged:
            git(repo.root, "tag", "-f", merged_tag, "HEAD")
        drop_branch(repo, "bench-merge")

    if b.wants("merge") or not git(repo.root, "tag", "--list", merged_tag).strip():
        for suffix, warm in (("", False), (WARM, True)) if b.wants("merge") else (("", False),):
            m = measure(
                MERGE + suffix,
                b.lp("merge"),
                repo.root,
                b.repeat if b.wants("merge") else 1,
                cold=not warm,
                fill=warm,
                before=before_merge,
                after=after_merge,
            )
            if b.wants("merge"):
                b.put(n, m)
    if b.wants("diff"):
        if not git(repo.root, "tag", "--list", merged_tag).strip():
            b.put(n, Measurement(DIFF, ok=False, note="merge failed: nothing to diff"))
            return
        cmd = b.lp("diff", repo.base, merged_tag)
        b.put(n, measure(DIFF, cmd, repo.root, b.repeat))
        b.put(n, measure(DIFF + WARM, cmd, repo.root, b.repeat, cold=False, fill=True))


def merge_two_judges(b: Bench, repo: Repo) -> None:
    """``merge`` of two judges' verdicts, 20 documents each (``bench_seats.py``), beside the
    same floors as the one judge's merge."""
    cache = tempfile.mkdtemp(prefix="lp-bench-cache-")
    reset(repo)
    run = bench_seats.seats_run(repo, b.work / f"seats-{repo.n}.trec")
    env = {**os.environ, "LABELPOOL_CACHE_DIR": cache}
    judged = bench_seats.judged_by_two(repo, run, b.lp, env)
    shutil.rmtree(cache, ignore_errors=True)
    if judged is None:
        b.put(repo.n, Measurement(bench_seats.NAME, ok=False, note="pool --judges 2 failed"))
        return

    def before() -> None:
        reset(repo)
        git(repo.root, "checkout", "-q", "-f", "-B", "bench-merge-2", judged)

    cmd = b.lp("merge")
    after: Callable[[], None] = lambda: drop_branch(repo, "bench-merge-2")  # noqa: E731
    b.put(repo.n, measure(bench_seats.NAME, cmd, repo.root, b.repeat, before=before, after=after))


def keep_pooled(repo: Repo) -> None:
    """Keep the batch ``pool`` just made (``bench-pooled``), for the judge to fill."""
    if git(repo.root, "branch", "--list", "bench-pool").strip():
        git(repo.root, "branch", "-q", "-f", "bench-pooled", "bench-pool")
    drop_branch(repo, "bench-pool")


def judge_commit(b: Bench, repo: Repo) -> str | None:
    """A pooled batch with every verdict filled, committed by one judge (made once)."""
    tag = "bench-judged"
    if git(repo.root, "tag", "--list", tag).strip():
        return git(repo.root, "rev-parse", tag).strip()
    if not git(repo.root, "branch", "--list", "bench-pooled").strip():
        reset(repo)
        cache = tempfile.mkdtemp(prefix="lp-bench-cache-")
        env = {**os.environ, "LABELPOOL_CACHE_DIR": cache}
        cmd = b.lp(*POOL_ARGS, "--branch", "bench-pool")
        code = subprocess.call(cmd, cwd=repo.root, env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(cache, ignore_errors=True)
        if code != 0:
            reset(repo)
            return None
        keep_pooled(repo)
    git(repo.root, "checkout", "-q", "-f", "-B", "bench-judge", "bench-pooled")
    fill_verdicts(repo.labels, b.seed)
    git(repo.root, "add", "--", "labels")
    git(repo.root, "commit", "-q", "-m", "verdicts", env=JUDGE_ENV)
    git(repo.root, "tag", "-f", tag, "HEAD")
    commit = git(repo.root, "rev-parse", "HEAD").strip()
    drop_branch(repo, "bench-judge")
    return commit
