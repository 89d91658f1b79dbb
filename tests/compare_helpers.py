"""Synthetic label repositories and runs for the compare and check tests."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

N_QUESTIONS = 30
DOCS = 10  # every run returns exactly these many documents per question


def qid(i: int) -> str:
    return f"q{i:02d}"


def doc(i: int, j: int) -> str:
    return f"q{i:02d}-d{j}"


def relevant(i: int) -> dict[str, int]:
    """Question i's relevant docs and grades: d0 (grade 2), d1 and, for half, d2."""
    out = {doc(i, 0): 2, doc(i, 1): 1}
    if i % 2 == 0:
        out[doc(i, 2)] = 1
    return out


def bm25(i: int) -> list[str]:
    """The pooled system: relevant docs near the top, varying by question."""
    order = [0, 3, 1, 4, 5, 2, 6, 7, 8, 9]
    shift = i % 3
    order = order[shift:] + order[:shift]
    return [doc(i, j) for j in order]


def degraded(i: int) -> list[str]:
    """The same ten (judged) documents with the relevant ones pushed to the bottom."""
    rel = relevant(i)
    ranked = bm25(i)
    return [d for d in ranked if d not in rel] + [d for d in ranked if d in rel][::-1]


def dense(i: int) -> list[str]:
    """A different system: one judged relevant doc, then nine documents nobody judged."""
    return [doc(i, 0)] + [f"q{i:02d}-x{j}" for j in range(DOCS - 1)]


def write_label(labels_dir: Path, i: int, judged: Sequence[str], system: str, k: int) -> None:
    rel = relevant(i)
    lines = [f"id: {qid(i)}", f"question: Question number {i}?", "relevant_doc_ids:"]
    lines += [f"  - {d}" for d in sorted(d for d in rel if d in judged)]
    lines.append("judged_ids:")
    lines += [f"  - {d}" for d in sorted(judged)]
    graded = {d: g for d, g in rel.items() if g > 1 and d in judged}
    if graded:
        lines.append("grades:")
        lines += [f"  {d}: {g}" for d, g in sorted(graded.items())]
    lines += ["pool:", f"  - system: {system}", f"    k: {k}", "    date: '2026-06-02'"]
    (labels_dir / f"{qid(i)}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_run(path: Path, ranking: Callable[[int], list[str]], tag: str) -> Path:
    rows = []
    for i in range(1, N_QUESTIONS + 1):
        for rank, d in enumerate(ranking(i), start=1):
            rows.append(f"{qid(i)} Q0 {d} {rank} {100 - rank} {tag}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def build_repo(root: Path) -> Path:
    """Labels judged from bm25's top 10 (pool entry bm25 k=10) and four runs in runs/."""
    for i in range(1, N_QUESTIONS + 1):
        write_label(root / "labels", i, bm25(i), "bm25", 10)
    write_run(root / "runs" / "bm25.trec", bm25, "bm25")
    write_run(root / "runs" / "degraded.trec", degraded, "degraded")
    write_run(root / "runs" / "dense.trec", dense, "dense")
    return root


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return proc.stdout


def init_git(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Test Judge")
    git(root, "config", "user.email", "judge@example.org")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "labels and runs")
