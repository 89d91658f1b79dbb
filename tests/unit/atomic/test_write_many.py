"""``atomic.write_many``: many files, one sync per chunk, each file old or new, no temporary
file left, after an error or a kill at any write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from labelpool import atomic


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("chunk", [0, 1, 2, 5])
def test_every_file_written_modes_kept_nothing_else(tmp_path: Path, chunk: int) -> None:
    old = tmp_path / "f1.yaml"
    old.write_text("old\n")
    old.chmod(0o640)
    items = [(tmp_path / f"f{i}.yaml", f"new {i}\n".encode()) for i in range(5)]
    atomic.write_many(items, chunk=chunk)
    for path, data in items:
        assert path.read_bytes() == data
    assert old.stat().st_mode & 0o777 == 0o640
    assert _names(tmp_path) == [f"f{i}.yaml" for i in range(5)]


def test_a_failed_write_names_its_target_and_keeps_the_earlier_ones(tmp_path: Path) -> None:
    bad = tmp_path / "missing-folder" / "x.yaml"
    items = [(tmp_path / "a.yaml", b"A"), (bad, b"X"), (tmp_path / "c.yaml", b"C")]
    with pytest.raises(OSError) as info:
        atomic.write_many(items, chunk=1)
    assert info.value.filename == str(bad)
    assert _names(tmp_path) == ["a.yaml"]


def test_a_failed_chunk_changes_nothing_of_it(tmp_path: Path) -> None:
    bad = tmp_path / "missing-folder" / "x.yaml"
    (tmp_path / "a.yaml").write_text("old\n")
    with pytest.raises(OSError):
        atomic.write_many([(tmp_path / "a.yaml", b"new\n"), (bad, b"X")], chunk=4)
    assert (tmp_path / "a.yaml").read_text() == "old\n"
    assert _names(tmp_path) == ["a.yaml"]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_killed_at_write_n_each_file_is_old_or_new(tmp_path: Path, n: int) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.yaml").write_text(f"old {name}\n")
    items = [(str(tmp_path / f"{name}.yaml"), f"new {name}\n") for name in ("a", "b", "c", "d")]
    code = (
        "from pathlib import Path\n"
        "from labelpool import atomic\n"
        f"atomic.write_many([(Path(p), t.encode()) for p, t in {items!r}], chunk=3)\n"
    )
    env = dict(os.environ, LABELPOOL_TEST_KILL_WRITE=str(n))
    proc = subprocess.run([sys.executable, "-c", code], env=env, check=False)
    assert proc.returncode == 137
    assert _names(tmp_path) == ["a.yaml", "b.yaml", "c.yaml"]  # d is the 4th write
    for i, name in enumerate(("a", "b", "c")):
        want = "new" if i < n - 1 else "old"
        assert (tmp_path / f"{name}.yaml").read_text() == f"{want} {name}\n"
