"""The hostile suite's position checker (``tests/hostile/cited.py``) catches a position that
does not exist: no such file, a line past the end, a column past the line; it reads a path
the sanitiser escaped, a file at a git revision, and takes no time or address for a cite."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest
from tests.hostile.cited import check_cited, cites

TEXT = "id: q1\nquestion: Q\njudged_ids:\n  - d1\n"  # 4 lines, then the place after the end


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "q1.yaml").write_text(TEXT, encoding="utf-8")
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "\x1b[31mred.trec").write_text("q1 Q0 d1 1 2 s\n", encoding="utf-8")
    (tmp_path / "runs" / "big.trec.gz").write_bytes(gzip.compress(b"q1 Q0 d 1 2 s\n" * 50)[:-9])
    (tmp_path / "labels" / "link.yaml").symlink_to("q1.yaml")
    for args in (
        ["init", "-q", "-b", "main"],
        ["-c", "user.name=A", "-c", "user.email=a@example.org", "add", "-A"],
        ["-c", "user.name=A", "-c", "user.email=a@example.org", "commit", "-q", "-m", "x"],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    return tmp_path


@pytest.mark.parametrize(
    "text",
    [
        "error: labels/q1.yaml:2:12: LP003 control character U+001B\n",
        "labels/q1.yaml:4:5: LP028 warning: ...\n",  # the last column: after the last character
        "labels/q1.yaml:5:1: LP015 end of stream\n",  # the place after the last newline
        "labels/q1.yaml:3: the line alone\n",
        "error: HEAD:labels/q1.yaml:4:3: LP021 ...\n",
        "error: runs/\\x1b[31mred.trec:1:7: doc_id ...\n",  # as the sanitiser prints it
        '{"message": "labels/q1.yaml:1:1: LP022 ..."}\n',
        "plain 12:30 is read as a non-string; served on http://127.0.0.1:8765\n",
        "error: runs/big.trec.gz:50:3: ...\n",  # a line of what a (truncated) gzip holds
        "labels/link.yaml:1:1: LP037 symlink under labels/\n",  # a link's one place
    ],
)
def test_a_real_position_passes(repo: Path, text: str) -> None:
    check_cited(text, cwd=repo)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("error: labels/q1.yaml:15:24: LP003 control character U+001B\n", "has 5 lines"),
        ("labels/q1.yaml:6:1: LP015 ...\n", "has 5 lines"),
        ("labels/q1.yaml:5:2: LP015 ...\n", "line 5 of"),
        ("labels/q1.yaml:2:13: LP003 ...\n", "line 2 of"),
        ("labels/q1.yaml:0:1: ...\n", "has 5 lines"),
        ("error: labels/q2.yaml:1:1: LP022 ...\n", "no such file"),
        ("error: <output>:2:18: LP003 ...\n", "no such file"),
        ("error: HEAD:labels/q1.yaml:9:1: LP021 ...\n", "has 5 lines"),
        ("error: HEAD:labels/gone.yaml:1:1: LP021 ...\n", "no such file"),
        ("error: runs/big.trec.gz:52:1: ...\n", "has 51 lines"),
        ("labels/link.yaml:2:1: LP037 ...\n", "has 1 lines"),
    ],
)
def test_a_position_that_does_not_exist_is_caught(repo: Path, text: str, why: str) -> None:
    """``labels/q1.yaml:15:24`` in a 5-line file: issue 29's finding 6."""
    with pytest.raises(AssertionError, match=why):
        check_cited(text, cwd=repo)


def test_what_counts_as_a_cite() -> None:
    found = [m.group() for m in cites("a labels/q.yaml:3:4: x (in.jsonl:2) HEAD:a/b.yaml:1\n")]
    assert found == ["labels/q.yaml:3:4", "in.jsonl:2", "HEAD:a/b.yaml:1"]
    assert cites("at 12:30:05 on 2026-06-02T10:00:00Z, http://127.0.0.1:8765\n") == []
