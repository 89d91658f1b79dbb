"""Issue 29, finding 6: an error cited a position that does not exist (``labels/q1.yaml:15:24``
in a file of fewer lines), from ``pool`` of a run whose name held an ESC: a finding on the
text pool was about to write, cited against the file on disk.

Now a system name validate would refuse in a label file is refused before anything is
written, naming the run file it comes from; a problem found in a text about to be written
cites the file without a position and says where in that text. Every call here goes through
``labels_scenario.cli``, which checks every cited position (``tests/hostile/cited.py``).
Each docstring says what the code before issue 29 did (``pool RUN --depth 5`` in a git
repository holding :data:`~tests.hostile.labels_scenario.LABEL`, 13 lines).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, git_repo, make_repo, snapshot

from faults import run

RUN = b"q1 Q0 doc-a#1 1 3.0 t\nq1 Q0 doc-c#1 2 2.0 t\nq1 Q0 doc-b#1 3 1.0 t\n"
JUDGED_RUN = b"q1 Q0 doc-a#1 1 3.0 t\nq1 Q0 doc-b#1 2 2.0 t\n"  # nothing left to judge


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, run: bytes = RUN) -> str:
    """stderr of ``pool runs/NAME.trec --depth 5`` refused (exit 1), nothing changed."""
    root = git_repo(make_repo(tmp_path / "r", runs={f"{name}.trec": run}))
    before = snapshot(root)
    head = git(root, "rev-parse", "HEAD")
    code, out, err = cli(capsys, root, "pool", f"runs/{name}.trec", "--depth", "5")
    assert (code, out) == (1, "")
    assert snapshot(root) == before
    assert git(root, "rev-parse", "HEAD") == head
    assert git(root, "branch", "--format=%(refname:short)").split() == ["main"]
    return err


def refusal(shown: str, problem: str) -> str:
    return (
        f"error: runs/{shown}.trec: system name '{shown}' {problem}; validate would refuse it "
        "in the label files, so nothing is written (rename the run file)\n"
    )


def test_a_run_named_with_an_escape_sequence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 1, ``error: .../labels/q1.yaml:15:24: LP003 control character U+001B``:
    line 15 of the text with the batch, cited in the 13-line file."""
    err = refused(capsys, tmp_path, "\x1b[31mred")
    assert err == refusal("\\x1b[31mred", "holds the control character U+001B (LP003)")


def test_a_run_named_with_a_right_to_left_override(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 1, ``.../labels/q1.yaml:15:28: LP004 bidirectional control character
    U+202E`` in the 13-line file."""
    err = refused(capsys, tmp_path, "evil\u202etxt")
    assert err == refusal("evil\\u202etxt", "holds the bidirectional control U+202E (LP004)")


def test_a_run_named_with_a_line_separator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 1, ``.../labels/q1.yaml:24:3: LP015 mapping values are not allowed in
    this context``: line 24 of the text with the batch (the name's U+2028 a line break to
    YAML), cited in the 13-line file."""
    err = refused(capsys, tmp_path, "a\u2028b")
    assert err == refusal(
        "a\\u2028b", "holds the line break U+2028, and a batch names it on one line"
    )


def test_a_run_named_with_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    """Before: exit 70, ``error: internal error: UnicodeEncodeError: 'utf-8' codec can't
    encode character '\\udcff' ...`` (a bug). A subprocess (``faults.run``, which checks the
    cited positions too): the name is printed as the terminal's stderr prints it."""
    root = git_repo(make_repo(tmp_path / "r", runs={"b\udcffd.trec": RUN}))
    before = snapshot(root)
    done = run(root, "pool", str(root / "runs" / "b\udcffd.trec"), "--depth", "5")
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        f"error: {root}/runs/b\\udcffd.trec: system name 'b\\udcffd' holds the byte 0xFF, which "
        "is not UTF-8 (LP002); validate would refuse it in the label files, so nothing is "
        "written (rename the run file)\n"
    )
    assert snapshot(root) == before


def test_pool_entries_of_a_complete_question_name_no_escape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing left to judge: pool writes the question's ``pool`` entry. Before: exit 1,
    ``error: <string>:2:14: LP003 control character U+001B``, a position in no file."""
    err = refused(capsys, tmp_path, "\x1b[31mred", JUDGED_RUN)
    assert err == refusal("\\x1b[31mred", "holds the control character U+001B (LP003)")
