"""Injection, ``labelpool agreement``: a judge name, a question pattern or a ``--judges`` value
carrying control or bidi characters, a workflow command, rich markup or markdown never reaches
the terminal raw.

A label file cannot hold a raw control or bidi character (LP003/LP004 refuse it, naming the
character escaped); the command line can, and a judge name can hold ``::error::``, ``[red]``,
``|`` and ``<``: each shows escaped in text, markdown and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.injection_scenario import BIDI, COMMAND, ESC, MARKUP, no_raw_control

from agreement_scenario import ANA, make_repo
from labelpool.cli import main

HOSTILE = f"{COMMAND} {MARKUP} | a <eve@example.org>"


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["agreement", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("char", [ESC, BIDI, "\x9b31m", "a\u2028b"])
def test_a_control_in_a_judge_name_is_refused_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    repo = make_repo(tmp_path / "r", {"q1": {"d1": [(ANA, 1), (f"Eve {char} <e@x.org>", 0)]}})
    code, out, err = run("--repo", str(repo), capsys=capsys)
    assert code == 1 and out == ""
    assert "error: " in err and ("LP003" in err or "LP004" in err or "LP0" in err)
    no_raw_control(out, err)


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_a_hostile_judge_name_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    docs = {"d1": [(ANA, 2), (HOSTILE, 0)], "d2": [(HOSTILE, 1), (ANA, 0)]}
    repo = make_repo(tmp_path / "r", {"q1": docs})
    code, out, err = run("--repo", str(repo), "--format", fmt, capsys=capsys)
    assert code == 0, err
    no_raw_control(out, err)
    if fmt == "text":
        assert "\\x3a:error::forged [red]alert" in out  # the line that starts with the name
    elif fmt == "markdown":
        assert "\\[red\\]alert \\| a &lt;eve@example.org&gt;" in out
    else:
        assert HOSTILE in [r["judge"] for r in json.loads(out)["per_judge"]]


def test_command_line_values_are_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "r", {"q1": {"d1": [(ANA, 2), ("Bo <bo@x.org>", 0)]}})
    code, out, err = run("--repo", str(repo), "--judges", f"{ESC},{BIDI}", capsys=capsys)
    assert code == 2 and "\\x1b[31mred" in err
    no_raw_control(out, err)
    code, out, err = run("--repo", str(repo), "--question-pattern", f"q\x1b{BIDI}", capsys=capsys)
    assert code == 0 and "\\x1b" in out and "\\u202e" in out
    no_raw_control(out, err)
    code, out, err = run("--repo", str(repo), "--question-pattern", f"q{ESC}", capsys=capsys)
    assert code == 2 and "RE2 refuses" in err  # [31mred: a class never closed
    no_raw_control(out, err)
