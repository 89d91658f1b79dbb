"""Long work shows a progress bar on stderr when stderr is a terminal, and nothing otherwise.

The work is made long without mocks: a ``git`` wrapper first on ``PATH`` sleeps before running
the real git (the seam ``tests/faults.py`` uses), so ``labelpool diff HEAD`` takes well over
the one second after which the bar appears. stderr is a real pseudo-terminal (``pty``) in one
run and a pipe in the other.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from api_scenario import copy_example


@pytest.fixture
def slow_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    copy_example(repo)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "LABELPOOL_CACHE_DIR": str(tmp_path / "cache"),
    }
    for var in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "COLUMNS"):
        env.pop(var, None)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    wrapper = tmp_path / "bin"
    wrapper.mkdir()
    real = shutil.which("git")
    assert real
    (wrapper / "git").write_text(f'#!/bin/sh\nsleep 0.4\nexec {real} "$@"\n', encoding="utf-8")
    (wrapper / "git").chmod(0o755)
    env["PATH"] = f"{wrapper}{os.pathsep}{env['PATH']}"
    return repo, env


def _labelpool(*args: str) -> list[str]:
    return [sys.executable, "-m", "labelpool", *args]


def test_progress_bar_on_a_terminal(slow_repo: tuple[Path, dict[str, str]]) -> None:
    repo, env = slow_repo
    leader, follower = pty.openpty()
    started = time.monotonic()
    proc = subprocess.Popen(
        _labelpool("diff", "HEAD"),
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out, _ = proc.communicate(timeout=60)
    os.close(leader)
    assert proc.returncode == 0
    assert time.monotonic() - started > 1.0  # long work: the bar had its second
    assert b"comparing labels" in seen  # the bar's description, drawn on the terminal
    assert b"comparing labels" not in out  # never on stdout
    assert out.startswith(b"labels HEAD -> working tree: no semantic change")


def test_no_progress_bar_on_a_pipe(slow_repo: tuple[Path, dict[str, str]]) -> None:
    repo, env = slow_repo
    done = subprocess.run(
        _labelpool("diff", "HEAD"), cwd=repo, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stderr == b""  # a log or a pipe gets nothing
