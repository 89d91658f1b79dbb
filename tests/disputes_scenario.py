"""Label repositories in the record form of several judges (issue 24), written by hand, for
the scoring tests: a dispute whose resolution decides which system wins."""

from __future__ import annotations

import subprocess
from pathlib import Path

ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"
N = 20


def qid(i: int) -> str:
    return f"q{i:02d}"


def label_text(i: int, *, disputed: bool = True) -> str:
    """Question i: ``a`` relevant and ``z`` irrelevant by Ana (the file's judge); ``b`` and
    ``c`` judged relevant by Ana and irrelevant by Bo (open disputes: the lists hold the lowest
    verdict), or agreed relevant by both when not ``disputed``."""
    q = qid(i)
    bo = "irrelevant" if disputed else "relevant"
    lines = [
        f"id: {q}",
        f"question: Question number {i}?",
        f"judge: {ANA}",
        "relevant_doc_ids:",
        f"  - {q}-a",
        *([] if disputed else [f"  - {q}-b", f"  - {q}-c"]),
        "judged_ids:",
        *(f"  - {q}-{d}" for d in "abcz"),
        "verdicts:",
    ]
    for d in "bc":
        lines += [
            f"  {q}-{d}:",
            f"    - {{judge: {ANA}, verdict: relevant}}",
            f"    - {{judge: {BO}, verdict: {bo}}}",
        ]
    lines += ["pool:", "  - system: base", "    k: 10", "    date: '2026-06-02'"]
    return "\n".join(lines) + "\n"


def write_runs(root: Path) -> None:
    """``base`` returns a then z (P@2 0.5 whatever is settled); ``chal`` returns b then c
    (P@2 1 when the disputes are settled relevant, 0 when irrelevant)."""
    for name, docs in (("base", "az"), ("chal", "bc")):
        rows = [
            f"{qid(i)} Q0 {qid(i)}-{d} {r} {10 - r} {name}"
            for i in range(1, N + 1)
            for r, d in enumerate(docs, start=1)
        ]
        (root / "runs" / f"{name}.trec").write_text("\n".join(rows) + "\n", encoding="utf-8")


def build(root: Path, *, disputed: bool = True, git: bool = True) -> Path:
    for i in range(1, N + 1):
        text = label_text(i, disputed=disputed)
        (root / "labels" / f"{qid(i)}.yaml").write_text(text, encoding="utf-8")
    write_runs(root)
    if git:
        commit_all(root)
    return root


def commit_all(root: Path, message: str = "labels") -> None:
    def run(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    if not (root / ".git").exists():
        run("init", "-q", "-b", "main")
        run("config", "user.name", "Ana Lopez")
        run("config", "user.email", "ana@example.org")
    run("add", "-A")
    run("commit", "-q", "-m", message)
