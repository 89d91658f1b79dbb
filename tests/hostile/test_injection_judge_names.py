"""A judge's name from a label file or the command line reaches the terminal sanitised:
``--judge``'s refusal lists the known judges (issue 24) through the one error handler, and
``history`` names them through the sanitiser."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests import disputes_scenario as scenario

from labelpool.cli import main

EVIL = "Eve [red]Liam[/red] <eve@example.org>"  # rich markup (the reader refuses controls)


@pytest.fixture
def hostile(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    scenario.build(repo, git=False)
    path = repo / "labels" / "q01.yaml"
    path.write_text(path.read_text().replace(scenario.BO, f"'{EVIL}'"), encoding="utf-8")
    scenario.commit_all(repo)
    return repo


def test_unknown_judge_lists_names_sanitised(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["score", "base", "--judge", "x\x1b[31m::error::", "--repo", str(hostile)])
    err = capsys.readouterr().err
    assert code == 2
    assert "\x1b" not in err
    assert "x\\x1b[31m::error::" in err
    assert f"<bo@example.org>, {EVIL}\n" in err


def test_history_names_judges_sanitised(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "q01", "q01-b", "--repo", str(hostile)]) == 0
    out = capsys.readouterr().out
    assert f"judged by {EVIL}: irrelevant" in out
