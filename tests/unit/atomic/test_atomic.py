"""The one writer: whole or not at all, no temporary file, the fault-injection seam."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from labelpool import atomic


def test_write_bytes_replaces_keeping_the_mode_and_leaves_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "label.yaml"
    path.write_text("old\n")
    path.chmod(0o640)
    atomic.write_bytes(path, b"new\n")
    assert path.read_bytes() == b"new\n"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["label.yaml"]


def test_write_new_refuses_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    atomic.write_new(path, "one\n")
    with pytest.raises(FileExistsError):
        atomic.write_new(path, "two\n")
    assert path.read_text() == "one\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.yaml"]


def test_a_failed_write_names_the_target(tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "x.yaml"
    with pytest.raises(OSError) as info:
        atomic.write_text(target, "x\n")
    assert info.value.filename == str(target)


def test_move_and_flush(tmp_path: Path) -> None:
    staged, target = tmp_path / "staged", tmp_path / "target.yaml"
    target.write_text("old\n")
    atomic.write_new(staged, b"new\n", mode_of=target, durable=False)
    atomic.flush()
    atomic.move(staged, target, durable=False)
    assert target.read_text() == "new\n" and not staged.exists()


@pytest.mark.parametrize("n", [1, 2])
def test_the_kill_seam_ends_the_process_before_write_n_takes_effect(tmp_path: Path, n: int) -> None:
    code = (
        "from labelpool import atomic\n"
        f"atomic.write_text({str(tmp_path / 'a.yaml')!r}, 'A')\n"
        f"atomic.write_text({str(tmp_path / 'b.yaml')!r}, 'B')\n"
    )
    env = dict(os.environ, LABELPOOL_TEST_KILL_WRITE=str(n))
    proc = subprocess.run([sys.executable, "-c", code], env=env, check=False)
    assert proc.returncode == 137
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"][: n - 1]
