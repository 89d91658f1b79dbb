"""The repository root and `[tool.labelpool]`: found from any folder, bad settings named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from labelpool.cli import main


def test_commands_work_from_a_subfolder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "labels" / "deep").mkdir()
    monkeypatch.chdir(repo / "labels" / "deep")
    assert main(["validate"]) == 0


def test_outside_a_label_repository_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--repo", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not inside a label repository" in err
    assert "use --repo DIR, or see `labelpool init --help`" in err and "repo=" not in err


@pytest.mark.parametrize("command", [["validate"], ["score", "x.trec"], ["pool-info"]])
def test_labels_that_is_a_file_is_named(
    repo: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree(repo / "labels")
    (repo / "labels").write_text("not a folder\n", encoding="utf-8")
    assert main([*command, "--repo", str(repo)]) == 2
    err = capsys.readouterr().err
    assert "labels" in err and "is not a folder" in err and "Traceback" not in err


def test_versions_that_is_a_folder_is_named(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "corpus" / "versions.yaml").mkdir(parents=True)
    assert main(["validate", "--repo", str(repo)]) == 2
    err = capsys.readouterr().err
    assert "versions" in err and "is not a file" in err


def test_format_other_than_1_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace("format = 1", "format = 2"),
        encoding="utf-8",
    )
    assert main(["validate", "--repo", str(repo)]) == 2
    assert "format" in capsys.readouterr().err
