"""``labelpool judge init-machine NAME``: a valid machine judge's files, never overwriting one;
``labelpool judge`` (the page) unchanged beside it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from labelpool.cli import main
from labelpool.machine import definition
from labelpool.workflows.judge.define import shipped_prompt


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    assert main(["init", str(root)]) == 0
    return root


def test_an_openai_judge_from_the_shipped_prompt(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["judge", "init-machine", "rel", "--model", "qwen2.5:7b", "--repo", str(repo)]) == 0
    out = capsys.readouterr().out
    yaml_file, prompt = repo / "judges" / "rel.yaml", repo / "judges" / "rel.prompt.txt"
    assert prompt.read_text(encoding="utf-8") == shipped_prompt()
    judge = definition.load(repo, "rel")
    assert (judge.kind, judge.model, judge.grades, judge.api_key_env) == (
        "openai",
        "qwen2.5:7b",
        (0, 1, 2, 3),
        "OPENAI_API_KEY",
    )
    digest = hashlib.sha256(yaml_file.read_bytes() + prompt.read_bytes()).hexdigest()
    assert judge.identity == f"rel@sha256:{digest[:12]}"
    assert f"created {prompt}" in out and f"created {yaml_file}" in out  # outside the cwd
    assert judge.identity in out
    assert definition.problems(yaml_file) == []


def test_the_shipped_prompt_asks_for_one_number_on_a_0_to_3_scale() -> None:
    text = shipped_prompt()
    assert text.count("{question}") == 1 and text.count("{passage}") == 1
    for grade in "0123":
        assert f"\n{grade} = " in text
    assert "one number" in text


def test_a_command_judge(repo: Path) -> None:
    assert main(["judge", "init-machine", "emb", "--kind", "command", "--repo", str(repo)]) == 0
    judge = definition.load(repo, "emb")
    assert (judge.kind, judge.command, judge.template) == (
        "command",
        ("python3", "judges/emb.py"),
        "",
    )
    assert not (repo / "judges" / "emb.prompt.txt").exists()


def test_never_overwrites(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "judges").mkdir()
    (repo / "judges" / "rel.prompt.txt").write_text("mine {question} {passage}\n")
    assert main(["judge", "init-machine", "rel", "--repo", str(repo)]) == 1
    assert "rel.prompt.txt exists" in capsys.readouterr().err
    assert (repo / "judges" / "rel.prompt.txt").read_text() == "mine {question} {passage}\n"
    assert not (repo / "judges" / "rel.yaml").exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["../x"], "not a machine judge's name"),
        (["x", "--kind", "llm"], "--kind"),
        (["x", "--model", "bad\x07model"], "cannot write this judge"),
    ],
)
def test_refusals_write_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    assert main(["judge", "init-machine", *args, "--repo", str(repo)]) == 2
    assert words in capsys.readouterr().err
    assert not (repo / "judges").exists() or list((repo / "judges").iterdir()) == []


def test_a_configured_judges_folder(repo: Path) -> None:
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'judges = "machines"\n')
    assert main(["judge", "init-machine", "rel", "--repo", str(repo)]) == 0
    assert (repo / "machines" / "rel.yaml").is_file()
    assert definition.load(repo, "rel", "machines").name == "rel"


def test_judge_is_still_the_page(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "--no-browser", "--port", "0", "--repo", str(repo)]) == 0
    assert "labelpool judge: nothing pending" in capsys.readouterr().out
    assert main(["judge", "--port", "70000", "--repo", str(repo)]) == 2
    assert main(["judge", "no-such-command", "--repo", str(repo)]) == 2
