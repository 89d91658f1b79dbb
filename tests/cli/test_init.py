"""``labelpool init DIR``: a usable label repository, never overwriting anything."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import tomllib
import yaml

from labelpool import config
from labelpool.cli import main

PACKAGE_DATA = Path(__file__).resolve().parents[2] / "tools" / "labelpool" / "data"


def test_init_scaffolds_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "labels-repo"
    assert main(["init", str(target)]) == 0
    out = capsys.readouterr().out
    pyproject = tomllib.loads((target / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["labelpool"]["format"] == 1
    cfg = config.load(target)
    assert cfg.labels_dir == target / "labels" and cfg.runs_dir == target / "runs"
    assert (target / "labels" / ".gitkeep").is_file() and (target / "runs" / ".gitkeep").is_file()
    assert (target / ".gitattributes").read_text(encoding="utf-8") == "labels/** text eol=lf\n"
    hooks = yaml.safe_load((target / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert hooks == {
        "repos": [
            {
                "repo": "https://github.com/labelpool/labelpool",
                "rev": "v0.1.0",
                "hooks": [{"id": "labelpool-validate"}],
            }
        ]
    }
    schema = target / "schema" / "label.schema.json"
    packaged = PACKAGE_DATA / "label.schema.json"
    if packaged.is_file():
        assert schema.read_bytes() == packaged.read_bytes()
        assert json.loads(schema.read_text(encoding="utf-8"))["type"] == "object"
    workflow = target / ".github" / "workflows" / "labels.yml"
    if (PACKAGE_DATA / "workflow.yml").is_file():
        assert workflow.read_bytes() == (PACKAGE_DATA / "workflow.yml").read_bytes()
    else:
        assert not workflow.exists()
    assert f"created {target / 'pyproject.toml'}" in out


def test_init_refuses_a_non_empty_folder_and_force_never_overwrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "existing"
    target.mkdir()
    (target / "pyproject.toml").write_text("[project]\nname = 'mine'\n", encoding="utf-8")
    code = main(["init", str(target)])
    captured = capsys.readouterr()
    assert code == 2 and "not empty" in captured.err and "--force" in captured.err
    assert not (target / "labels").exists()

    assert main(["init", str(target), "--force"]) == 0
    out = capsys.readouterr().out
    assert (target / "pyproject.toml").read_text(encoding="utf-8") == "[project]\nname = 'mine'\n"
    assert f"skipped {target / 'pyproject.toml'} (exists; left unchanged)" in out
    assert (target / ".gitattributes").is_file() and (target / "labels" / ".gitkeep").is_file()

    # a second forced run creates nothing and skips everything
    assert main(["init", str(target), "--force"]) == 0
    assert "0 created" in capsys.readouterr().out


def test_init_refuses_a_file_as_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    assert main(["init", str(target), "--force"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_initialised_repository_works_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    target = tmp_path / "repo"
    assert main(["init", str(target)]) == 0
    subprocess.run(["git", "init", "-q", str(target)], check=True)
    monkeypatch.chdir(target / "labels")
    assert main(["add", "where-is-my-order", "Where is my order?"]) == 0
    assert main(["fmt", "--check"]) == 0
    capsys.readouterr()
    code = main(["validate"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    attr = subprocess.run(
        ["git", "check-attr", "eol", "labels/where-is-my-order.yaml"],
        cwd=target,
        capture_output=True,
        text=True,
        check=True,
    )
    assert attr.stdout.strip().endswith("eol: lf")
