"""A copy of the example repository shipped at the project's root, for the API's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ("labels", "runs", "corpus", "schema", "pyproject.toml")
IDENTITY = {
    "GIT_AUTHOR_NAME": "Ana",
    "GIT_AUTHOR_EMAIL": "ana@example.org",
    "GIT_COMMITTER_NAME": "Ana",
    "GIT_COMMITTER_EMAIL": "ana@example.org",
    "GIT_AUTHOR_DATE": "2026-06-02T10:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-06-02T10:00:00+00:00",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def copy_example(dest: Path) -> Path:
    """The example's label repository (labels, runs, corpus, schema, pyproject) at ``dest``;
    not a git repository."""
    dest.mkdir(parents=True)
    for name in EXAMPLE:
        src = ROOT / name
        if src.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", ".labelpool-cache")
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)
    return dest
