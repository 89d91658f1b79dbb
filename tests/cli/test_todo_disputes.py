"""``labelpool todo`` lists open disputes by question (issue 24), text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from tests import disputes_scenario as scenario

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "todo-report.schema.json").read_text())


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(folder))
    return folder


def two_questions(repo: Path) -> None:
    """q01 with two open disputes, q02 whose judges agree, q03 adjudicated."""
    labels = repo / "labels"
    (labels / "q01.yaml").write_text(scenario.label_text(1), encoding="utf-8")
    (labels / "q02.yaml").write_text(scenario.label_text(2, disputed=False), encoding="utf-8")
    settled = scenario.label_text(3).replace(
        "    - {judge: Bo Chen <bo@example.org>, verdict: irrelevant}\n",
        "    - {judge: Bo Chen <bo@example.org>, verdict: irrelevant}\n"
        "    - {adjudicator: Cy Park <cy@example.org>, verdict: irrelevant}\n",
    )
    (labels / "q03.yaml").write_text(settled, encoding="utf-8")
    scenario.commit_all(repo)


def test_todo_lists_open_disputes(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    two_questions(repo)
    monkeypatch.chdir(repo)
    assert main(["todo"]) == 0
    out = capsys.readouterr().out
    assert out == (
        "no pending batch: nothing to judge\n"
        "open disputes: 2 documents in 1 question\n"
        "  q01  q01-b, q01-c\n"
        "adjudicate: labelpool pool --adjudicate makes the batch that settles them\n"
    )
    assert main(["todo", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["disputes"] == [
        {"id": "q01", "path": str(Path("labels") / "q01.yaml"), "docs": ["q01-b", "q01-c"]}
    ]


def test_todo_without_disputes_is_unchanged(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "labels" / "q02.yaml").write_text(scenario.label_text(2, disputed=False))
    monkeypatch.chdir(repo)
    assert main(["todo"]) == 0
    assert capsys.readouterr().out == "no pending batch: nothing to judge\n"
    assert main(["todo", "--format", "json"]) == 0
    assert "disputes" not in json.loads(capsys.readouterr().out)
