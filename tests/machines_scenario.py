"""Label repositories holding machine verdicts in the record form (issue 25), written by hand,
for the scoring tests: documents only a machine judged decide which system wins."""

from __future__ import annotations

from pathlib import Path

from tests.disputes_scenario import ANA, commit_all, qid

MACHINE = "umbrela@sha256:0123456789ab"
N = 20


def label_text(i: int) -> str:
    """Question i, Ana the file's judge: ``a`` relevant and ``z`` irrelevant by Ana alone;
    ``b`` and ``c`` relevant by the machine alone; ``d`` irrelevant by Ana and relevant by the
    machine (Ana's counts); ``e`` relevant by both."""
    q = qid(i)
    lines = [
        f"id: {q}",
        f"question: Question number {i}?",
        f"judge: {ANA}",
        "relevant_doc_ids:",
        *(f"  - {q}-{d}" for d in "abce"),
        "judged_ids:",
        *(f"  - {q}-{d}" for d in "abcdez"),
        "verdicts:",
        f"  {q}-b:",
        f"    - {{judge: {MACHINE}, kind: machine, verdict: relevant}}",
        f"  {q}-c:",
        f"    - {{judge: {MACHINE}, kind: machine, verdict: relevant}}",
        f"  {q}-d:",
        f"    - {{judge: {ANA}, verdict: irrelevant}}",
        f"    - {{judge: {MACHINE}, kind: machine, verdict: relevant}}",
        f"  {q}-e:",
        f"    - {{judge: {ANA}, verdict: relevant}}",
        f"    - {{judge: {MACHINE}, kind: machine, verdict: relevant}}",
        "pool:",
        "  - system: base",
        "    k: 10",
        "    date: '2026-06-02'",
    ]
    return "\n".join(lines) + "\n"


def write_runs(root: Path) -> None:
    """``base`` returns a then z (P@2 0.5 under people and all); ``chal`` returns b then c
    (P@2 1 where the machine's verdicts count, unjudged under people)."""
    for name, docs in (("base", "az"), ("chal", "bc")):
        rows = [
            f"{qid(i)} Q0 {qid(i)}-{d} {r} {10 - r} {name}"
            for i in range(1, N + 1)
            for r, d in enumerate(docs, start=1)
        ]
        (root / "runs" / f"{name}.trec").write_text("\n".join(rows) + "\n", encoding="utf-8")


def build(root: Path, *, git: bool = True) -> Path:
    for i in range(1, N + 1):
        (root / "labels" / f"{qid(i)}.yaml").write_text(label_text(i), encoding="utf-8")
    write_runs(root)
    if git:
        commit_all(root)
    return root
