"""``docs/api.md``: every Python block runs in-process, in order, in a copy of the example
repository (a block that no longer runs fails here; a block that writes makes its own
repository in a temporary folder). ``tests/docs/test_doc_blocks.py`` runs each block again
as a whole program in a fresh interpreter and compares what it prints with the page."""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
from pathlib import Path

import pytest

from api_scenario import IDENTITY, ROOT, copy_example

DOC = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def test_the_page_has_a_block_per_call() -> None:
    text = "\n".join(blocks())
    for call in ("api.load(", "api.score(", "api.compare(", "api.pool(", "write=True"):
        assert call in text, call


def test_every_python_block_of_docs_api_md_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in IDENTITY.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the blocks' mkdtemp() go here
    monkeypatch.chdir(copy_example(tmp_path / "example"))
    namespace: dict[str, object] = {"__name__": "docs_api"}
    for i, code in enumerate(blocks(), start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"docs/api.md block {i}", "exec"), namespace)
        assert printed.getvalue().strip(), f"block {i} printed nothing"
