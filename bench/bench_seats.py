"""``labelpool merge`` of two judges' verdicts (issue 24): the benchmark repository of ``n``
questions, ``pool --judges 2 --assign A,B`` of 20 unjudged documents per question, each seat
filled and committed by its judge, then merged.

The 20 documents of a question are bm25's best not yet judged (the generated labels judge the
union of bm25's and dense's top 20), written as a run (``seats.trec``, beside the repository)
and pooled at depth 20: every question gets two seats of exactly 20 documents. Judge A's
verdicts are about 65% irrelevant, 25% relevant, 10% grade 2; judge B gives another verdict
on about one document in five, so the merge writes both verdicts of every document into the
record (the files' older judged documents name no judge) and finds disputes. Verdicts are a
hash of (question, document): the same for every seed and size.
"""

from __future__ import annotations

import re
import subprocess
import zlib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from bench_repo import POOL_K, Repo, git

DOCS = 20
JUDGES = (("Ana Lopez", "ana@example.org"), ("Bo Chen", "bo@example.org"))
NAME = f"merge ({len(JUDGES)} judges x {DOCS} docs)"
TAG = "bench-judged-2"
_LINE = re.compile(r"^      - \{doc: ([^,]+), verdict: null\}$", re.MULTILINE)
_OTHER = {"irrelevant": "relevant", "relevant": "2", "2": "irrelevant"}


def seats_run(repo: Repo, path: Path) -> Path:
    """A run of each question's ``DOCS`` best bm25 documents that no label judges yet."""
    if path.exists():
        return path
    top: dict[str, dict[str, list[str]]] = {"bm25": defaultdict(list), "dense": defaultdict(list)}
    for system, ranked in top.items():
        with repo.run(system).open(encoding="utf-8") as fh:
            for line in fh:
                q, _, doc, *_ = line.split(" ", 3)
                ranked[q].append(doc)
    out = []
    for q, docs in top["bm25"].items():
        judged = set(docs[:POOL_K]) | set(top["dense"][q][:POOL_K])
        new = [d for d in docs[POOL_K:] if d not in judged][:DOCS]
        out += [f"{q} Q0 {d} {k} {DOCS + 1 - k} seats\n" for k, d in enumerate(new, start=1)]
    path.write_text("".join(out), encoding="utf-8")
    return path


def _verdict(judge: int, text_key: str) -> str:
    h = zlib.crc32(text_key.encode("utf-8")) % 100
    first = "irrelevant" if h < 65 else "relevant" if h < 90 else "2"
    if judge == 0 or zlib.crc32(f"B:{text_key}".encode()) % 100 >= 20:
        return first
    return _OTHER[first]


def _filled(seat: int, q: str, doc: str) -> str:
    return f"      - {{doc: {doc}, verdict: {_verdict(seat - 1, q + ':' + doc)}}}"


def _fill(labels: Path, seat: int) -> None:
    """Fill every null verdict of ``seat`` (1-based) in the label files."""
    for path in sorted(labels.iterdir()):
        text = path.read_text(encoding="utf-8")
        if "verdict: null" not in text:
            continue
        parts = re.split(r"(?m)^(    seat: \d+\n)", text)
        out, current = [], 0
        for part in parts:
            m = re.fullmatch(r"    seat: (\d+)\n", part)
            if m:
                current = int(m.group(1))
            elif current == seat:
                part = _LINE.sub(lambda d, q=path.stem: _filled(seat, q, d.group(1)), part)
            out.append(part)
        path.write_text("".join(out), encoding="utf-8")


def _as(judge: tuple[str, str]) -> dict[str, str]:
    name, email = judge
    return {
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email,
    }


def judged_by_two(
    repo: Repo, run: Path, lp: Callable[..., list[str]], env: dict[str, str]
) -> str | None:
    """The commit of both seats judged (made once, tagged ``bench-judged-2``): pooled by the
    real ``pool --judges 2 --assign``, then each seat filled and committed by its judge."""
    if git(repo.root, "tag", "--list", TAG).strip():
        return git(repo.root, "rev-parse", TAG).strip()
    assign = ",".join(f"{n} <{e}>" for n, e in JUDGES)
    git(repo.root, "checkout", "-q", "-f", "-B", "bench-seats-base", repo.base)
    cmd = lp("pool", str(run), "--depth", str(DOCS), "--no-text", "--judges", str(len(JUDGES)))
    cmd += ["--assign", assign, "--branch", "bench-seats"]
    done = subprocess.run(cmd, cwd=repo.root, env=env, stdout=subprocess.DEVNULL, check=False)
    if done.returncode != 0:
        return None
    git(repo.root, "checkout", "-q", "-f", "bench-seats")
    for seat, judge in enumerate(JUDGES, start=1):
        _fill(repo.labels, seat)
        git(repo.root, "add", "--", "labels")
        git(repo.root, "commit", "-q", "-m", f"seat {seat}: verdicts", env=_as(judge))
    git(repo.root, "tag", "-f", TAG, "HEAD")
    commit = git(repo.root, "rev-parse", "HEAD").strip()
    git(repo.root, "checkout", "-q", "-f", "main")
    git(repo.root, "branch", "-q", "-D", "bench-seats", "bench-seats-base")
    return commit
