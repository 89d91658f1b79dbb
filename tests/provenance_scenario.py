"""Small label repositories for the provenance and bias tests: canonical label files, TREC
runs, a git repository, and trec_eval-order top k / qrels read directly."""

from __future__ import annotations

import subprocess
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from labelpool import yamlfile

DATE = "2026-06-02"


def q(s: str) -> str:
    """A scalar as the label format writes it: single-quoted when a reader would misread it."""
    return "'" + s.replace("'", "''") + "'" if yamlfile.needs_quotes(s) else s


def label_text(
    qid: str,
    judged: Iterable[str],
    relevant: Iterable[str] = (),
    pool: Sequence[tuple[str, int | None] | tuple[str, int | None, str]] = (),
    grades: dict[str, int] | None = None,
    classes: Sequence[Sequence[str]] = (),
    question: str | None = None,
) -> str:
    """A canonical label file (sorted lists, offset-2 sequences, quoted where needed)."""
    lines = [f"id: {q(qid)}", f"question: {q(question or 'What about ' + qid + '?')}"]

    def block(key: str, items: Iterable[str]) -> None:
        items = sorted(items)
        if not items:
            lines.append(f"{key}: []")
            return
        lines.append(f"{key}:")
        lines.extend(f"  - {q(d)}" for d in items)

    block("relevant_doc_ids", relevant)
    block("judged_ids", judged)
    if grades:
        lines.append("grades:")
        lines.extend(f"  {q(d)}: {g}" for d, g in sorted(grades.items()))
    if classes:
        lines.append("relevant_classes:")
        for cls in sorted(sorted(c) for c in classes):
            lines.append(f"  - - {q(cls[0])}")
            lines.extend(f"    - {q(d)}" for d in cls[1:])
    if pool:
        lines.append("pool:")
        for entry in pool:
            system, k = entry[0], entry[1]
            if system == "unknown":
                lines += ["  - system: unknown", "    k: null", "    date: null"]
                continue
            lines += [f"  - system: {q(system)}", f"    k: {k}", f"    date: '{DATE}'"]
            if len(entry) == 3:
                lines.append(f"    run: '{entry[2]}'")
    return "\n".join(lines) + "\n"


def write_label(repo: Path, qid: str, **kwargs: object) -> Path:
    path = repo / "labels" / f"{qid}.yaml"
    path.write_text(label_text(qid, **kwargs), encoding="utf-8")  # type: ignore[arg-type]
    return path


def write_run(
    repo: Path, system: str, rankings: dict[str, list[str]], suffix: str = ".trec"
) -> Path:
    """A TREC run whose order is the given lists (descending scores)."""
    rows = []
    for qid, docs in rankings.items():
        for rank, doc in enumerate(docs, 1):
            rows.append(f"{qid} Q0 {doc} {rank} {100 - rank} {system}")
    path = repo / "runs" / f"{system}{suffix}"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


def git_init(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Test Judge")
    git(repo, "config", "user.email", "judge@example.org")
    git(repo, "config", "commit.gpgsign", "false")


def commit_all(repo: Path, message: str = "commit") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def trec_top(path: Path, k: int) -> dict[str, list[str]]:
    """Top k per question in trec_eval order (score desc, doc id desc), computed directly."""
    rows: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for line in path.read_text().splitlines():
        qid, _, d, _, score, *_ = line.split()
        rows[qid].append((float(score), d))
    return {qid: [d for _, d in sorted(r, reverse=True)][:k] for qid, r in rows.items()}


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        qid, _, d, g = line.split()
        qrels[qid][d] = int(g)
    return qrels
