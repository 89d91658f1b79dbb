"""Label repositories with several judges per document (issue 24's record), for the
``labelpool agreement`` tests: label files written in the record's form from a table of
verdicts, and TREC runs."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from provenance_scenario import q

ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"
CY = "Cy Park <cy@example.org>"

Verdicts = Sequence[tuple[str, int]]  # (judge, grade); an adjudicator: judge "!NAME"


def _flow(name: str) -> str:
    """A name inside a flow mapping: plain when it is a plain ``Name <email>``, else quoted."""
    if re.fullmatch(r"[A-Za-z][A-Za-z .]* <[A-Za-z0-9._@-]+>", name):
        return name
    return "'" + name.replace("'", "''") + "'"


def _verdict(grade: int) -> str:
    return {0: "irrelevant", 1: "relevant"}.get(grade, str(grade))


def _counting(verdicts: Verdicts) -> int:
    adjudicated = [g for j, g in verdicts if j.startswith("!")]
    return adjudicated[-1] if adjudicated else min(g for _, g in verdicts)


def label_text(qid: str, docs: Mapping[str, Verdicts], judge: str = ANA) -> str:
    """A label whose documents carry ``docs[doc]``: a document with one verdict by ``judge``
    is in the lists only; any other has a ``verdicts`` entry. The lists say the verdict that
    counts (an adjudicator's, else the lowest)."""
    decided = {d: _counting(v) for d, v in docs.items()}
    lines = [f"id: {q(qid)}", f"question: {q('What about ' + qid + '?')}", f"judge: {q(judge)}"]
    relevant = sorted(d for d, g in decided.items() if g >= 1)
    lines += ["relevant_doc_ids:" if relevant else "relevant_doc_ids: []"]
    lines += [f"  - {q(d)}" for d in relevant]
    lines += ["judged_ids:", *(f"  - {q(d)}" for d in sorted(decided))]
    graded = {d: g for d, g in decided.items() if g >= 2}
    if graded:
        lines += ["grades:", *(f"  {q(d)}: {g}" for d, g in sorted(graded.items()))]
    listed = {d: v for d, v in docs.items() if len(v) > 1 or v[0][0] != judge}
    if listed:
        lines.append("verdicts:")
        for doc in sorted(listed):
            lines.append(f"  {q(doc)}:")
            for who, grade in listed[doc]:
                key = "adjudicator" if who.startswith("!") else "judge"
                name = who.lstrip("!")
                lines.append(f"    - {{{key}: {_flow(name)}, verdict: {_verdict(grade)}}}")
    lines += ["pool:", "  - system: unknown", "    k: null", "    date: null"]
    return "\n".join(lines) + "\n"


def make_repo(root: Path, labels: Mapping[str, Mapping[str, Verdicts]], **config: str) -> Path:
    """A label repository at ``root`` holding ``labels`` (question -> document -> verdicts)."""
    (root / "labels").mkdir(parents=True, exist_ok=True)
    (root / "runs").mkdir(exist_ok=True)
    extra = "".join(f'{k} = "{v}"\n' for k, v in config.items())
    (root / "pyproject.toml").write_text(
        f'[tool.labelpool]\nformat = 1\nlabels = "labels"\nruns = "runs"\n{extra}',
        encoding="utf-8",
    )
    for qid, docs in labels.items():
        (root / "labels" / f"{qid}.yaml").write_text(label_text(qid, docs), encoding="utf-8")
    return root


def write_run(root: Path, system: str, rankings: Mapping[str, Sequence[str]]) -> Path:
    rows = [
        f"{qid} Q0 {doc} {rank} {100 - rank} {system}"
        for qid, docs in rankings.items()
        for rank, doc in enumerate(docs, 1)
    ]
    path = root / "runs" / f"{system}.trec"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path
