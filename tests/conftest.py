"""Shared fixtures: the real collections in ../shared/data, temp label repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
CAST = SHARED_DATA / "trec-cast-2021"
VASWANI = SHARED_DATA / "vaswani"
PEPS = SHARED_DATA / "peps-supersession"


def need(path: Path) -> Path:
    """``path`` under ../shared/data, or skip the test saying what is missing."""
    if not path.exists():
        pytest.skip(f"real data not available: {path} is absent (see ../shared/data/README.md)")
    return path


@pytest.fixture
def cast_dir() -> Path:
    return need(CAST)


@pytest.fixture
def peps_dir() -> Path:
    return need(PEPS)


@pytest.fixture
def vaswani_dir() -> Path:
    return need(VASWANI)


PYPROJECT = """\
[project]
name = "labels"
version = "0"

[tool.labelpool]
format = 1
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty label repository (config, labels/, runs/) in a temp folder; not a git repo."""
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "labels").mkdir()
    (tmp_path / "runs").mkdir()
    return tmp_path
