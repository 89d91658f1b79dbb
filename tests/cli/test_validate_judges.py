"""``labelpool validate`` checks the machine judges' files beside the label files: LP050-LP053
at path:line:col, through the same findings (text and JSON), on its own and from pre-commit's
file lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labelpool.cli import main

GOOD = "kind: openai\nmodel: m\nprompt: rel.prompt.txt\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    assert main(["init", str(root)]) == 0
    monkeypatch.chdir(root)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    (root / "labels" / "q1.yaml").write_text(
        "id: q1\nquestion: Why?\nrelevant_doc_ids: []\njudged_ids: []\n", encoding="utf-8"
    )
    judges = root / "judges"
    judges.mkdir()
    (judges / "rel.yaml").write_text(GOOD, encoding="utf-8")
    (judges / "rel.prompt.txt").write_text("{question}\n{passage}\n", encoding="utf-8")
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["validate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_good_judges_pass_and_count(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys)
    assert (code, out) == (0, "")
    assert "2 file(s), 0 error(s)" in err  # one label, one judge


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (GOOD + "temperature: 9\n", "judges/rel.yaml:4:14: LP050 temperature: 9 is greater"),
        (GOOD + "token: abc\n", "judges/rel.yaml:4:8: LP051 token: a secret"),
        (GOOD.replace("rel.prompt", "gone.prompt"), "judges/rel.yaml:3:9: LP052 prompt: gone"),
        (GOOD + "command: [x]\n", "judges/rel.yaml:4:1: LP053 command: not a field"),
        (GOOD + "x: &a 1\n", "judges/rel.yaml:4:4: LP00"),
    ],
)
def test_bad_judges_fail_at_their_place(
    repo: Path, capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    (repo / "judges" / "rel.yaml").write_text(text, encoding="utf-8")
    code, out, _ = _run(capsys)
    assert code == 1
    assert out.startswith(line), out
    assert "abc" not in out


def test_json_and_a_key_never_shown(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "judges" / "rel.yaml").write_text(GOOD + "api_key: sk-planted-abcdefghijklmnop\n")
    code, out, err = _run(capsys, "--format", "json")
    assert code == 1
    rows = json.loads(out)
    assert [(r["path"], r["line"], r["rule"]) for r in rows] == [("judges/rel.yaml", 4, "LP051")]
    assert "sk-planted" not in out + err


def test_paths_from_pre_commit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "judges" / "rel.prompt.txt").write_text("no placeholders\n", encoding="utf-8")
    code, out, err = _run(capsys, "labels/q1.yaml", "judges/rel.prompt.txt")
    assert code == 1
    assert out.startswith("judges/rel.yaml:3:9: LP052 prompt: rel.prompt.txt has no {question}")
    assert "2 file(s)" in err
    code, out, err = _run(capsys, "judges/rel.yaml")  # a judge file alone: no label checked
    assert code == 1 and "1 file(s)" in err
    code, out, err = _run(capsys, "labels/q1.yaml")  # a label file alone: no judge checked
    assert (code, out) == (0, "") and "1 file(s)" in err


def test_a_configured_judges_folder(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "judges").rename(repo / "machines")
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'judges = "machines"\n')
    (repo / "machines" / "rel.yaml").write_text(GOOD + "seed: -1\n")
    code, out, _ = _run(capsys)
    assert code == 1 and out.startswith("machines/rel.yaml:4:7: LP050 seed")


def test_the_rules_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for rule in ("LP050", "LP051", "LP052", "LP053"):
        assert f"\n{rule}  a machine judge" in out
