"""``gitio.relative_paths`` (one resolve per folder) is ``path.resolve()`` relative to the top,
with symlinked folders and symlinked label files."""

from __future__ import annotations

from pathlib import Path

from labelpool import gitio


def test_relative_is_resolve_per_file(tmp_path: Path) -> None:
    top = tmp_path / "repo"
    real = top / "data" / "labels"
    real.mkdir(parents=True)
    (top / "labels").symlink_to(real)  # the configured folder is a symlink
    (real / "a.yaml").write_text("a\n")
    (real / "target.yaml").write_text("t\n")
    (real / "link.yaml").symlink_to(real / "target.yaml")  # a symlinked label file
    paths = [
        base / name
        for base in (top / "labels", real, top / "data" / ".." / "labels")
        for name in ("a.yaml", "link.yaml", "missing.yaml")
    ]
    want = [p.resolve().relative_to(top.resolve()).as_posix() for p in paths]
    assert gitio.relative_paths(top, paths) == want
    assert gitio.relative_paths(top, [top / "labels" / "link.yaml"]) == ["data/labels/target.yaml"]
