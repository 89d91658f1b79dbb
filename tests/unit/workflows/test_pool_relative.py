"""``pool._relative`` (one resolve per folder) is ``path.resolve()`` relative to the top, with
symlinked folders and symlinked label files."""

from __future__ import annotations

from pathlib import Path

from labelpool.workflows.pool import write as pool


def test_relative_is_resolve_per_file(tmp_path: Path) -> None:
    top = tmp_path / "repo"
    real = top / "data" / "labels"
    real.mkdir(parents=True)
    (top / "labels").symlink_to(real)  # the configured folder is a symlink
    (real / "a.yaml").write_text("a\n")
    (real / "target.yaml").write_text("t\n")
    (real / "link.yaml").symlink_to(real / "target.yaml")  # a symlinked label file
    folders: dict[Path, Path] = {}
    for base in (top / "labels", real, top / "data" / ".." / "labels"):
        for name in ("a.yaml", "link.yaml", "missing.yaml"):
            path = base / name
            want = path.resolve().relative_to(top.resolve()).as_posix()
            assert pool._relative(path, top.resolve(), folders) == want
    assert pool._relative(top / "labels" / "link.yaml", top.resolve(), folders) == (
        "data/labels/target.yaml"
    )
