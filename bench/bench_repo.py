"""Generated label repositories and runs for ``bench/run.py``, all from one seed.

A repository of ``n`` questions is a git repository holding:

* ``labels/q000000.yaml`` ... in labelpool's own block style (what ``fmt`` writes): a comment,
  ``id``, ``question``, ``relevant_doc_ids``, ``judged_ids``, ``grades`` (some), a relevance
  class (some), two ``pool`` entries (bm25 and dense at depth 20) and, now and then, an unknown
  key;
* ``runs/bm25.trec``, ``runs/dense.trec``, ``runs/hybrid.trec``: ``n`` x 100 runs written in
  rank order. The three rank the same 150 candidates per question with different noise, so
  their top 20s overlap as real systems' do; the judged set of a question is exactly the
  union of bm25's and dense's top 20 (so ``validate --provenance`` finds nothing) and hybrid
  is a third, unpooled system (``bias`` has two pooled systems to leave out);
* ``pyproject.toml`` with ``[tool.labelpool]``;

and beside it (outside the repository) ``qrels.txt`` (the same judgments as TREC qrels, for
the peers), ``import.qrels`` + ``queries.tsv`` (10 judgments per question, for ``import
trec``). Doc ids are ``D<number>``, drawn from ``50 n`` documents.

The large runs (:data:`LARGE`) are scored against the first questions of a repository: the
question's bm25 top 100 first (so the top ranks are judged), then documents drawn from a
space of several million ids, so that the run holds the wanted number of distinct ids.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SYSTEMS = ("bm25", "dense", "hybrid")
POOLED = ("bm25", "dense")
DEPTH = 100  # depth of the repository's runs
POOL_K = 20
CANDIDATES = 150
POOL_DATE = "2026-06-02"
WORDS = [
    "parcel",
    "refund",
    "warranty",
    "invoice",
    "address",
    "battery",
    "charger",
    "order",
    "coffee",
    "descale",
    "return",
    "damaged",
    "late",
    "cancel",
    "account",
    "password",
    "tenant",
    "policy",
    "shipping",
    "label",
]
PYPROJECT = '[project]\nname = "bench"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n'
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench Maintainer",
    "GIT_AUTHOR_EMAIL": "maintainer@example.org",
    "GIT_COMMITTER_NAME": "Bench Maintainer",
    "GIT_COMMITTER_EMAIL": "maintainer@example.org",
    "GIT_AUTHOR_DATE": "2026-06-02T10:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-06-02T10:00:00+00:00",
}


@dataclass(frozen=True)
class RunShape:
    """A large run: ``questions`` x ``depth`` lines, about ``distinct`` distinct doc ids."""

    name: str
    questions: int
    depth: int
    distinct: int


LARGE = {
    "L": RunShape("L", 6_980, 1_000, 4_830_000),
    "10M": RunShape("10M", 10_000, 1_000, 6_920_000),  # 10,000,000 lines, about 330 MB
    "XL": RunShape("XL", 69_800, 1_000, 48_300_000),  # about 2.95 GB
}


@dataclass(frozen=True)
class Repo:
    """One generated repository and the files beside it."""

    root: Path
    n: int
    base: str  # the commit holding the generated labels and runs

    @property
    def labels(self) -> Path:
        return self.root / "labels"

    @property
    def qrels(self) -> Path:
        return self.root.parent / f"{self.root.name}.qrels"

    @property
    def import_qrels(self) -> Path:
        return self.root.parent / f"{self.root.name}-import.qrels"

    @property
    def queries(self) -> Path:
        return self.root.parent / f"{self.root.name}-queries.tsv"

    def run(self, system: str) -> Path:
        return self.root / "runs" / f"{system}.trec"


def git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``git args`` in ``root`` (fixed author and dates); its stdout."""
    proc = subprocess.run(
        ["git", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV, **(env or {})},
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {root}: {proc.stderr.strip()}")
    return proc.stdout


def qid(i: int) -> str:
    return f"q{i:06d}"


def _distinct_rows(rng: np.random.Generator, rows: int, width: int, space: int) -> np.ndarray:
    """``rows`` x ``width`` integers below ``space``, distinct within each row."""
    out = rng.integers(0, space, size=(rows, width))
    srt = np.sort(out, axis=1)
    for r in np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1)):
        out[r] = rng.choice(space, width, replace=False)
    return out


@dataclass(frozen=True)
class _Rankings:
    docs: np.ndarray  # n x CANDIDATES doc numbers
    latent: np.ndarray  # n x CANDIDATES true relevance
    order: dict[str, np.ndarray]  # system -> n x DEPTH candidate indexes, best first
    score: dict[str, np.ndarray]  # system -> n x DEPTH scores, descending


def _rankings(rng: np.random.Generator, n: int) -> _Rankings:
    docs = _distinct_rows(rng, n, CANDIDATES, 50 * n)
    latent = rng.standard_normal((n, CANDIDATES))
    noise = {s: rng.standard_normal((n, CANDIDATES)) for s in POOLED}
    raw = {
        "bm25": latent + 1.0 * noise["bm25"],
        "dense": latent + 0.8 * noise["dense"],
    }
    raw["hybrid"] = (raw["bm25"] + raw["dense"]) / 2 + 0.3 * rng.standard_normal((n, CANDIDATES))
    order, score = {}, {}
    for s in SYSTEMS:
        idx = np.argsort(-raw[s], axis=1, kind="stable")[:, :DEPTH]
        order[s] = idx
        # strictly decreasing scores with 4 decimals: no ties, so every tool's order is the
        # order written
        top = np.floor((np.take_along_axis(raw[s], idx, axis=1) * 10 + 100) * 10_000)
        score[s] = top.astype(np.int64) - np.arange(DEPTH, dtype=np.int64)
    return _Rankings(docs, latent, order, score)


def _label_text(i: int, rng: np.random.Generator, rk: _Rankings) -> tuple[str, list[str]]:
    """The label file of question ``i`` and its qrels lines."""
    q = qid(i)
    picked = {int(c) for s in POOLED for c in rk.order[s][i, :POOL_K]}
    judged = sorted(picked, key=lambda c: f"D{rk.docs[i, c]}")
    grade: dict[str, int] = {}
    for c in judged:
        value = rk.latent[i, c]
        doc = f"D{rk.docs[i, c]}"
        # about 30% relevant, a third of those graded 2 or 3; every tenth question none
        relevant = value > 1.44 and i % 10 != 0
        grade[doc] = 0 if not relevant else 3 if value > 2.3 else 2 if value > 1.82 else 1
    names = list(grade)
    relevant = [d for d in names if grade[d] >= 1]
    words = " ".join(WORDS[int(w)] for w in rng.integers(0, len(WORDS), 4 + i % 8))
    lines = [
        f"# generated by bench/run.py (question {i})\n",
        f"id: {q}\n",
        f"question: How do I {words}?\n",
    ]
    if relevant:
        lines.append("relevant_doc_ids:\n" + "".join(f"  - {d}\n" for d in relevant))
    else:
        lines.append("relevant_doc_ids: []\n")
    lines.append("judged_ids:\n" + "".join(f"  - {d}\n" for d in names))
    graded = [d for d in relevant if grade[d] > 1]
    if graded:
        lines.append("grades:\n" + "".join(f"  {d}: {grade[d]}\n" for d in graded))
    same = [d for d in relevant if grade[d] == 1]
    if len(same) >= 2 and i % 3 == 0:  # near-duplicates of one grade: qrels stay the same
        lines.append(f"relevant_classes:\n  - - {same[0]}\n    - {same[1]}\n")
    lines.append(
        "pool:\n"
        + "".join(f"  - system: {s}\n    k: {POOL_K}\n    date: '{POOL_DATE}'\n" for s in POOLED)
    )
    if i % 17 == 0:
        lines.append("owner: support-team\n")
    qrels = [f"{q} 0 {d} {grade[d]}\n" for d in names]
    return "".join(lines), qrels


def _write_run(path: Path, system: str, rk: _Rankings, first: int = 0) -> None:
    with path.open("w", encoding="utf-8") as out:
        for i in range(first, rk.docs.shape[0]):
            q = qid(i)
            docs = rk.docs[i, rk.order[system][i]].tolist()
            scores = rk.score[system][i].tolist()
            out.write(
                "".join(
                    f"{q} Q0 D{d} {r} {s // 10_000}.{s % 10_000:04d} {system}\n"
                    for r, (d, s) in enumerate(zip(docs, scores, strict=True), start=1)
                )
            )


def make_repo(folder: Path, n: int, seed: int) -> Repo:
    """Generate the repository of ``n`` questions in ``folder`` (which must not exist)."""
    rng = np.random.default_rng([seed, n])
    rk = _rankings(rng, n)
    root = folder
    (root / "labels").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    repo = Repo(root, n, "")
    qrels: list[str] = []
    for i in range(n):
        text, rows = _label_text(i, rng, rk)
        (root / "labels" / f"{qid(i)}.yaml").write_text(text, encoding="utf-8")
        qrels += rows
    repo.qrels.write_text("".join(qrels), encoding="utf-8")
    for s in SYSTEMS:
        _write_run(repo.run(s), s, rk)
    _write_import(repo, rng, rk)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", GIT_ENV["GIT_AUTHOR_NAME"])
    git(root, "config", "user.email", GIT_ENV["GIT_AUTHOR_EMAIL"])
    quiet_git(root)
    git(root, "add", "pyproject.toml", "labels", "runs")
    git(root, "commit", "-q", "-m", "generated labels and runs")
    np.save(root.parent / f"{root.name}-bm25.npy", rk.docs[np.arange(n)[:, None], rk.order["bm25"]])
    return Repo(root, n, git(root, "rev-parse", "HEAD").strip())


def quiet_git(root: Path) -> None:
    """No automatic ``git gc`` or maintenance in the background of later measurements (each
    labelpool commit of 10,000 files leaves enough loose objects to start one)."""
    git(root, "config", "gc.auto", "0")
    git(root, "config", "maintenance.auto", "false")


def open_repo(folder: Path, n: int) -> Repo:
    """A repository generated earlier (``--keep``)."""
    quiet_git(folder)
    return Repo(folder, n, git(folder, "rev-list", "--max-parents=0", "HEAD").strip())


def _write_import(repo: Repo, rng: np.random.Generator, rk: _Rankings) -> None:
    """qrels with 10 judgments per question (``import trec``) and the question texts."""
    rows, texts = [], []
    grades = rng.choice([0, 0, 0, 1, 2], size=(repo.n, 10))
    for i in range(repo.n):
        q = qid(i)
        docs = rk.docs[i, rk.order["hybrid"][i, :10]].tolist()
        rows += [f"{q} 0 D{d} {g}\n" for d, g in zip(docs, grades[i].tolist(), strict=True)]
        texts.append(f"{q}\tWhat is the answer to question {i}?\n")
    repo.import_qrels.write_text("".join(rows), encoding="utf-8")
    repo.queries.write_text("".join(texts), encoding="utf-8")


def make_large_run(repo: Repo, shape: RunShape, path: Path, seed: int, sep: str = " ") -> None:
    """``shape`` against ``repo``'s first questions (see the module docstring)."""
    if path.exists():
        return
    n = min(shape.questions, repo.n)
    bm25 = np.load(repo.root.parent / f"{repo.root.name}-bm25.npy", mmap_mode="r")
    head = min(DEPTH, shape.depth)
    tail = shape.depth - head
    # draws of the tail, and the space they come from, for about shape.distinct distinct ids
    space = _space_for(max(1, shape.distinct - n * head // 2), n * tail)
    offset = 50 * repo.n
    rng = np.random.default_rng([seed, shape.questions, shape.depth])
    tmp = path.with_name(path.name + ".tmp")
    ids: list[np.ndarray] = [np.unique(bm25[:n, :head])]
    lines = size = largest = 0
    with tmp.open("w", encoding="utf-8") as out:
        step = 500
        for start in range(0, n, step):
            rows = min(step, n - start)
            more = _distinct_rows(rng, rows, tail, space) + offset if tail else None
            if more is not None:
                ids.append(np.unique(more))
            parts = []
            for r in range(rows):
                i = start + r
                q = qid(i)
                docs = [f"D{d}" for d in bm25[i, :head].tolist()]
                if more is not None:
                    docs += [f"D{d}" for d in more[r].tolist()]
                parts.append(
                    "".join(
                        f"{q}{sep}Q0{sep}{d}{sep}{k}{sep}{(shape.depth - k) / 100:.2f}{sep}big\n"
                        for k, d in enumerate(docs, start=1)
                    )
                )
                lines += len(docs)
                largest = max(largest, len(parts[-1]))
            text = "".join(parts)
            size += len(text)
            out.write(text)
    distinct = len(np.unique(np.concatenate(ids)))
    info = {"lines": lines, "bytes": size, "max_question_bytes": largest, "distinct": distinct}
    _info_path(path).write_text(json.dumps(info), encoding="utf-8")
    tmp.replace(path)


def _info_path(run: Path) -> Path:
    return run.with_name(run.name + ".json")


def run_info(run: Path) -> dict[str, int]:
    """Lines, bytes, distinct doc ids and the largest question's bytes of a large run."""
    data: dict[str, int] = json.loads(_info_path(run).read_text(encoding="utf-8"))
    return data


def _space_for(distinct: int, draws: int) -> int:
    """The size of a space from which ``draws`` uniform draws give ``distinct`` distinct values."""
    if distinct >= draws:
        return max(draws * 1000, 1)
    lo, hi = float(distinct), float(distinct) * 1000
    for _ in range(60):
        mid = (lo + hi) / 2
        if mid * (1 - np.exp(-draws / mid)) < distinct:
            lo = mid
        else:
            hi = mid
    return int(hi)
