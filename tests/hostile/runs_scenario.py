"""A label repository with one judged question, and ``labelpool score`` run on a run file in it
(shared by the hostile run-file tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.cited import check_cited

from labelpool.cli import main

PYPROJECT = '[project]\nname = "labels"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n'
LABEL = "id: q1\nquestion: Q\nrelevant_doc_ids:\n  - d1\njudged_ids:\n  - d1\n  - d2\n"
GOOD = b"q1 Q0 d1 1 2 s\nq1 Q0 d2 2 1 s\n"
GOOD_CSV = "P@10,all,1,0.0"  # system, measure... of GOOD: P@10 0.1, no document unjudged


def label_repo(root: Path) -> Path:
    """``root`` made a label repository holding question q1 (d1 relevant, d2 not)."""
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    (root / "labels" / "q1.yaml").write_text(LABEL, encoding="utf-8")
    return root


def score(
    capsys: pytest.CaptureFixture[str], root: Path, name: str, data: bytes
) -> tuple[int, str, str, Path]:
    """(exit code, stdout, stderr, run path) of ``labelpool score`` on ``data`` as ``name``."""
    path = root / "runs" / name
    path.write_bytes(data)
    code = main(["score", str(path), "-m", "P@10", "--format", "csv", "--repo", str(root)])
    out = capsys.readouterr()
    check_cited(out.out, out.err, repo=root)  # every position it cites exists
    return code, out.out, out.err, path
