"""A one-question label repository for the hostile tests of the rules, bounds, names and pool
writes (``test_crash_bounds``, ``test_crash_deep_folders``, ``test_crash_version_pattern``,
``test_crash_linebreaks``, ``test_crash_pool_writes``, ``test_data_loss_names``).

:data:`LABEL` is a valid label of question ``q1`` (line 9 holds ``grades``, line 12 the pool
entry's ``k``); :data:`RUN` a run of two systems' worth of documents for it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from tests.hostile.cited import cli_in

PYPROJECT = """\
[project]
name = "labels"
version = "0"

[tool.labelpool]
format = 1
"""

LABEL = """\
id: q1
question: Where is my parcel?
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1
  - doc-b#1
grades:
  doc-a#1: 2
pool:
  - system: bm25
    k: 2
    date: '2026-06-02'
"""

RUN = b"q1 Q0 doc-a#1 1 2.0 bm25\nq1 Q0 doc-b#1 2 1.0 bm25\n"
OTHER_RUN = b"q1 Q0 doc-b#1 1 2.0 dense\nq1 Q0 doc-a#1 2 1.0 dense\n"


def make_repo(
    root: Path,
    labels: dict[str, str | bytes] | None = None,
    *,
    runs: dict[str, bytes] | None = None,
    config: str = "",
) -> Path:
    """A label repository at ``root``: ``labels/<name>`` files (default: ``q1.yaml`` =
    :data:`LABEL`), ``runs/<name>`` files (default: ``bm25.trec`` = :data:`RUN`), and
    ``config`` appended to the ``[tool.labelpool]`` table."""
    (root / "labels").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT + config, encoding="utf-8")
    for name, text in (labels if labels is not None else {"q1.yaml": LABEL}).items():
        data = text.encode("utf-8") if isinstance(text, str) else text
        (root / "labels" / name).write_bytes(data)
    for name, data in (runs if runs is not None else {"bm25.trec": RUN}).items():
        (root / "runs" / name).write_bytes(data)
    return root


def git_repo(root: Path) -> Path:
    """``root`` as a git repository with everything committed by a fixed identity."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (
        ["init", "-q", "-b", "main"],
        ["config", "user.name", "Ana"],
        ["config", "user.email", "ana@example.org"],
        ["add", "-A"],
        ["commit", "-q", "-m", "labels"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True, env=env)
    return root


def cli(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> tuple[int, str, str]:
    """``labelpool ARGS`` run in ``root``: (exit code, stdout, stderr); never a traceback, and
    every position it cites exists (:mod:`tests.hostile.cited`)."""
    return cli_in(root, list(args), capsys)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path -> bytes), ``.git`` left out."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(folder).parts
    }
