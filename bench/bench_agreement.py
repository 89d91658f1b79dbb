"""The repository of ``labelpool agreement``'s benchmark: ``n`` label files, each with 20
judged documents and two judges' verdicts on every one (issue 24's record: a ``verdicts``
entry per document), the second judge agreeing about four times in five."""

from __future__ import annotations

from pathlib import Path

import numpy as np

DOCS = 20
ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"
WORD = {0: "irrelevant", 1: "relevant"}


def _label(i: int, first: np.ndarray, second: np.ndarray) -> str:
    docs = [f"D{i}-{d:02d}" for d in range(DOCS)]
    counting = np.minimum(first, second)
    lines = [f"id: q{i:06d}\n", f"question: What about question {i}?\n", f"judge: {ANA}\n"]
    relevant = [d for d, g in zip(docs, counting, strict=True) if g >= 1]
    lines.append("relevant_doc_ids:\n" + "".join(f"  - {d}\n" for d in relevant))
    if not relevant:
        lines[-1] = "relevant_doc_ids: []\n"
    lines.append("judged_ids:\n" + "".join(f"  - {d}\n" for d in docs))
    graded = [(d, g) for d, g in zip(docs, counting, strict=True) if g >= 2]
    if graded:
        lines.append("grades:\n" + "".join(f"  {d}: {g}\n" for d, g in graded))
    lines.append("verdicts:\n")
    for d, a, b in zip(docs, first, second, strict=True):
        lines.append(
            f"  {d}:\n    - {{judge: {ANA}, verdict: {WORD.get(int(a), int(a))}}}\n"
            f"    - {{judge: {BO}, verdict: {WORD.get(int(b), int(b))}}}\n"
        )
    lines.append("pool:\n  - system: unknown\n    k: null\n    date: null\n")
    return "".join(lines)


def make_repo(folder: Path, n: int, seed: int) -> Path:
    """The repository at ``folder`` (made once per size and seed; reused when present)."""
    done = folder / ".complete"
    if done.exists():
        return folder
    labels = folder / "labels"
    labels.mkdir(parents=True, exist_ok=True)
    (folder / "runs").mkdir(exist_ok=True)
    (folder / "pyproject.toml").write_text(
        '[tool.labelpool]\nformat = 1\nlabels = "labels"\nruns = "runs"\n', encoding="utf-8"
    )
    rng = np.random.default_rng(seed)
    first = rng.choice(4, size=(n, DOCS), p=[0.6, 0.2, 0.15, 0.05])
    moved = np.clip(first + rng.choice([-1, 1], size=first.shape), 0, 3)
    second = np.where(rng.random(first.shape) < 0.8, first, moved)
    for i in range(n):
        (labels / f"q{i:06d}.yaml").write_text(_label(i, first[i], second[i]), encoding="utf-8")
    done.write_text("", encoding="utf-8")
    return folder
