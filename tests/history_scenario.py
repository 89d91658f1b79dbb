"""A real git label repository with two judging batches merged for two reviewers.

Used by test_history.py and test_diff.py. Commits (oldest first), each by its own author:

0. Importer  2026-11-01  "add questions q1 q2"                (nothing judged)
1. Alice     2026-12-01  "merge batch 2026-12-01-bm25@20 ..."  (q1: a relevant, b c irrelevant;
                                                                q2: x irrelevant; pool bm25@20)
2. Formatter 2026-12-02  "labelpool fmt over the whole set"    (quotes q1's ids: no meaning change)
3. Bob       2026-12-05  "merge batch 2026-12-05-bm25+dense@20 ..." (q1: b flipped to relevant,
                                                                d relevant grade 2, e irrelevant;
                                                                q2: y irrelevant; pool dense@20)
4. Carol     2026-12-06  "reword q2"                          (q2's question text edited)
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

PYPROJECT = """\
[project]
name = "labels"
version = "0"

[tool.labelpool]
format = 1
"""

BATCH1 = "2026-12-01-bm25@20"
BATCH2 = "2026-12-05-bm25+dense@20"


def git(repo: Path, *args: str, author: tuple[str, str, str] | None = None) -> str:
    env = dict(os.environ)
    if author is not None:
        name, mail, date = author
        env.update(
            GIT_AUTHOR_NAME=name,
            GIT_AUTHOR_EMAIL=mail,
            GIT_AUTHOR_DATE=date,
            GIT_COMMITTER_DATE=date,
        )
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return proc.stdout


def commit_all(repo: Path, subject: str, author: tuple[str, str, str]) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", subject, author=author)
    return git(repo, "rev-parse", "HEAD").strip()


def label(
    qid: str,
    question: str,
    judged: list[str],
    relevant: list[str],
    grades: dict[str, int] | None = None,
    pool: list[tuple[str, int, str]] = (),  # type: ignore[assignment]
    quote: bool = False,
) -> str:
    q = (lambda s: f"'{s}'") if quote else (lambda s: s)
    lines = [f"id: {qid}", f"question: {question}"]
    lines.append("relevant_doc_ids:" + ("" if relevant else " []"))
    lines += [f"  - {q(d)}" for d in relevant]
    lines.append("judged_ids:" + ("" if judged else " []"))
    lines += [f"  - {q(d)}" for d in judged]
    if grades:
        lines.append("grades:")
        lines += [f"  {q(d)}: {g}" for d, g in grades.items()]
    lines.append("pool:" + ("" if pool else " []"))
    for system, k, date in pool:
        lines += [f"  - system: {system}", f"    k: {k}", f"    date: '{date}'"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Scenario:
    repo: Path
    imported: str
    batch1: str
    fmt: str
    batch2: str
    reword: str


ALICE = ("Alice Judge", "alice@example.org", "2026-12-01T10:00:00+00:00")
BOB = ("Bob Reviewer", "bob@example.org", "2026-12-05T15:30:00+00:00")
Q1 = "My parcel arrived damaged. Can I send it back?"
Q2 = "How long does a refund take?"
Q2_EDITED = "How many days does a refund take?"


def build(root: Path, ignore_fmt: bool = True) -> Scenario:
    repo = root / "labels-repo"
    (repo / "labels").mkdir(parents=True)
    (repo / "runs").mkdir()
    (repo / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.org")
    labels = repo / "labels"

    (labels / "q1.yaml").write_text(label("q1", Q1, [], []), encoding="utf-8")
    (labels / "q2.yaml").write_text(label("q2", Q2, [], []), encoding="utf-8")
    imported = commit_all(
        repo, "add questions q1 q2", ("Importer", "imp@example.org", "2026-11-01T09:00:00+00:00")
    )

    bm25 = ("bm25", 20, "2026-12-01")
    (labels / "q1.yaml").write_text(
        label("q1", Q1, ["doc-a", "doc-b", "doc-c"], ["doc-a"], pool=[bm25]), encoding="utf-8"
    )
    (labels / "q2.yaml").write_text(label("q2", Q2, ["doc-x"], [], pool=[bm25]), encoding="utf-8")
    batch1 = commit_all(repo, f"merge batch {BATCH1}: verdicts by Alice Judge", ALICE)

    (labels / "q1.yaml").write_text(
        label("q1", Q1, ["doc-a", "doc-b", "doc-c"], ["doc-a"], pool=[bm25], quote=True),
        encoding="utf-8",
    )
    fmt = commit_all(
        repo,
        "labelpool fmt over the whole set",
        ("Formatter", "fmt@example.org", "2026-12-02T08:00:00+00:00"),
    )
    if ignore_fmt:
        (repo / ".git-blame-ignore-revs").write_text(
            f"# bulk reformatting\n{fmt}\n", encoding="utf-8"
        )

    dense = ("dense", 20, "2026-12-05")
    q1_judged = ["doc-a", "doc-b", "doc-c", "doc-d", "doc-e"]
    (labels / "q1.yaml").write_text(
        label(
            "q1",
            Q1,
            q1_judged,
            ["doc-a", "doc-b", "doc-d"],
            grades={"doc-d": 2},
            pool=[bm25, dense],
            quote=True,
        ),
        encoding="utf-8",
    )
    (labels / "q2.yaml").write_text(
        label("q2", Q2, ["doc-x", "doc-y"], [], pool=[bm25, dense]), encoding="utf-8"
    )
    batch2 = commit_all(repo, f"merge batch {BATCH2}: verdicts by Bob Reviewer", BOB)

    (labels / "q2.yaml").write_text(
        label(
            "q2", "How many days does a refund take?", ["doc-x", "doc-y"], [], pool=[bm25, dense]
        ),
        encoding="utf-8",
    )
    reword = commit_all(
        repo, "reword q2", ("Carol Editor", "carol@example.org", "2026-12-06T12:00:00+00:00")
    )
    return Scenario(repo, imported, batch1, fmt, batch2, reword)
