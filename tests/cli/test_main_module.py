"""``python -m labelpool`` is the same command line as ``labelpool``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "labelpool", "rules"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("LP001")


def test_python_dash_m_keeps_the_exit_code(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "labelpool", "validate", "--no-such-option"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
