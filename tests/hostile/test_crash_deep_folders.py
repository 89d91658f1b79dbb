"""A folder 1,100 levels deep under ``labels/``: every command that lists ``labels/`` walks it
without recursion (Python 3.11's ``os.walk`` recursed into ``RecursionError``).

Label files are the direct children of ``labels/``; symlinks are looked for all the way down
(LP037). Each docstring says what 0.1.0 did with the same tree. The trees are removed by the
fixture bottom-up (``shutil.rmtree`` recurses too, and pytest's clean-up uses it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, make_repo

DEPTH = 1100


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _chain(top: Path, depth: int) -> Path:
    """``top/a/a/...`` ``depth`` folders deep, made one by one relative to its parent (an
    absolute path per level would cost time squared; ``os.makedirs`` recurses)."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("a", dir_fd=fd)
            child = os.open("a", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
    finally:
        os.close(fd)
    return top.joinpath(*["a"] * depth)


def _unchain(top: Path) -> None:
    """Remove ``top/a/a/...`` in linear time: each level is moved up beside ``top/a`` before
    its parent goes (``shutil.rmtree`` recurses, pytest's clean-up uses it)."""
    current = top / "a"
    n = 0
    while True:
        for entry in os.scandir(current):
            if entry.name != "a" or not entry.is_dir(follow_symlinks=False):
                os.unlink(entry.path)
        child = current / "a"
        if not child.is_dir():
            os.rmdir(current)
            return
        n += 1
        moved = top / f"level-{n}"
        os.rename(child, moved)
        os.rmdir(current)
        current = moved


@pytest.fixture(scope="module")
def deep_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """One repository for the module (removing 1,100 folders takes seconds here)."""
    root = make_repo(tmp_path_factory.mktemp("deep"))
    bottom = _chain(root / "labels", DEPTH)
    yield root, bottom
    _unchain(root / "labels")


@pytest.fixture
def deep(deep_tree: tuple[Path, Path]) -> Iterator[tuple[Path, Path]]:
    """(repository root, the deepest folder) with :data:`DEPTH` folders under labels/; what
    a test puts in the deepest folder is removed after it."""
    yield deep_tree
    for entry in os.scandir(deep_tree[1]):
        os.unlink(entry.path)


def test_validate_walks_a_folder_1100_deep(
    deep: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``internal error: RecursionError: maximum recursion depth exceeded``."""
    root, _ = deep
    code, out, err = cli(capsys, root, "validate")
    assert (code, out) == (0, "")
    assert err == "labelpool validate: 1 file(s), 0 error(s), 0 warning(s)\n"


def test_symlink_at_the_bottom_is_lp037_with_its_path(
    deep: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``RecursionError`` (the symlink never reported)."""
    root, bottom = deep
    os.symlink("../elsewhere.yaml", bottom / "link.yaml")
    code, out, err = cli(capsys, root, "validate")
    shown = "labels/" + "a/" * DEPTH + "link.yaml"
    assert (code, out) == (
        1,
        f"{shown}:1:1: LP037 symlink under labels/; store the label file itself\n",
    )
    assert err == "labelpool validate: 2 file(s), 1 error(s), 0 warning(s)\n"


def test_label_file_at_the_bottom_is_not_a_label(
    deep: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``RecursionError``. Labels are direct children of labels/: a file deep
    down (even a broken one) is neither read nor reported."""
    root, bottom = deep
    (bottom / "q9.yaml").write_text("id: [broken\n", encoding="utf-8")
    code, out, err = cli(capsys, root, "validate")
    assert (code, out) == (0, "")
    assert err == "labelpool validate: 1 file(s), 0 error(s), 0 warning(s)\n"


def test_validate_provenance_walks_a_folder_1100_deep(
    deep: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``RecursionError``."""
    root, _ = deep
    code, out, err = cli(capsys, root, "validate", "--provenance")
    assert (code, out) == (0, "")
    assert err.splitlines() == [
        "provenance: 1 pool entry checked",
        "labelpool validate: 1 file(s), 0 error(s), 0 warning(s)",
    ]


def test_score_and_fmt_beside_a_folder_1100_deep(
    deep: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 for both (they list labels/ one level only; kept)."""
    root, _ = deep
    code, out, _ = cli(capsys, root, "score", "runs/bm25.trec", "-m", "P@10", "--format", "csv")
    assert code == 0
    assert out.splitlines()[-1].startswith("bm25,all,1,0.0,")
    code, out, _ = cli(capsys, root, "fmt", "--check")
    assert (code, out) == (0, "0 file(s) would be reformatted, 1 unchanged, 0 unreadable\n")
