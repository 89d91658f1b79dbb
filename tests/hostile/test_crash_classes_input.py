"""Hostile input to ``classes propose`` (within a question and ``--corpus``) and ``import
duplicates``: empty texts, one-word texts, a 10 MB text, ids with ``#``, corpus lines that are
not JSON, not UTF-8, not an object or without an id, a duplicate map with a malformed line.
Each is a ``path:line`` error (exit 1, nothing written) or a counted skip, never a traceback
(exit 70): :func:`tests.hostile.cited.cli_in` checks both and every position cited.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.labels_scenario import cli, git_repo, make_repo, snapshot

TEXT = "Items damaged in transit may be returned within thirty days of delivery for a refund"
MIB = 1 << 20


def _label(docs: list[str]) -> str:
    listed = "".join(f"  - {json.dumps(d)}\n" for d in sorted(docs))
    return (
        "id: q1\nquestion: Can I send it back?\n"
        f"relevant_doc_ids:\n  - {json.dumps(sorted(docs)[0])}\n"
        f"judged_ids:\n{listed}"
        f"grades:\n  {json.dumps(sorted(docs)[0])}: 2\n"
        "pool:\n  - system: unknown\n    k: null\n    date: null\n"
    )


def _repo(tmp_path: Path, texts: dict[str, str], judged: list[str] | None = None) -> Path:
    """A committed repository with question q1 judging ``judged`` (default: every corpus id)
    and a corpus of ``texts``."""
    docs = judged if judged is not None else sorted(texts)
    root = make_repo(tmp_path / "repo", {"q1.yaml": _label(docs)}, config='corpus = "c.jsonl"\n')
    rows = "".join(json.dumps({"_id": d, "text": t}) + "\n" for d, t in texts.items())
    (root / "c.jsonl").write_text(rows, encoding="utf-8")
    return git_repo(root)


def _branch(root: Path) -> str:
    return subprocess.run(
        ["git", "branch", "--show-current"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()


def _propose(
    capsys: pytest.CaptureFixture[str], root: Path, *args: str
) -> tuple[int, dict[str, Any], str]:
    code, out, err = cli(capsys, root, "classes", "propose", "--format", "json", *args)
    return code, (json.loads(out) if code == 0 else {}), err


MODES = pytest.mark.parametrize("mode", [[], ["--corpus"]], ids=["within", "corpus"])


@MODES
def test_empty_texts_are_counted_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    root = _repo(tmp_path, {"a#1": "", "b#1": "   \n\t ", "c#1": "?!", "d#1": TEXT})
    code, report, err = _propose(capsys, root, *mode)
    assert code == 0, err
    assert report["proposals"] == []
    skipped = {(s["document"], s["reason"]) for s in report["skipped"]}
    assert skipped == {("a#1", "no words"), ("b#1", "no words"), ("c#1", "no words")}
    code, out, _ = cli(capsys, root, "classes", "propose", "--verbose", *mode)
    assert code == 0 and "a#1" in out and "no words" in out


@MODES
def test_one_word_texts_are_compared_as_one_shingle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    root = _repo(tmp_path, {"a#1": "Returns", "b#1": "returns.", "c#1": "Refunds"})
    code, report, err = _propose(capsys, root, *mode, "--branch", "cls")
    assert code == 0, err
    members = [p["members"] for p in report["proposals"]]
    assert members == [["a#1", "b#1"]]
    assert cli(capsys, root, "validate", "--allow-pending")[0] == 0


@MODES
def test_a_10_mb_text_is_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    words = [f"w{i % 5000}x{i // 5000}" for i in range(10 * MIB // 9)]
    big = " ".join(words)
    assert len(big) >= 10 * MIB
    near = " ".join(words[:-50])
    root = _repo(tmp_path, {"a#1": big, "b#1": near, "c#1": TEXT})
    code, report, err = _propose(capsys, root, *mode, "--branch", "cls")
    assert code == 0, err
    (proposal,) = report["proposals"]
    assert proposal["members"] == ["a#1", "b#1"]
    text = (root / "labels" / "q1.yaml").read_text(encoding="utf-8")
    assert max(len(line) for line in text.splitlines()) < 400  # the comment stays one short line
    assert cli(capsys, root, "validate", "--allow-pending")[0] == 0


@MODES
def test_ids_with_hashes_are_written_quoted_and_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    ids = ["#lead", "a#b#c", "x#", "plain"]
    root = _repo(tmp_path, dict.fromkeys(ids, TEXT))
    code, report, err = _propose(capsys, root, *mode, "--branch", "cls")
    assert code == 0, err
    (proposal,) = report["proposals"]
    assert proposal["members"] == sorted(ids)
    assert cli(capsys, root, "validate", "--allow-pending")[0] == 0
    code, out, _ = cli(capsys, root, "validate", "--format", "json")
    assert code == 1 and "LP062" in out  # read back as one proposal of four ids, not a comment


BAD_LINES = [
    (b"{not json\n", "not JSON"),
    (b'{"_id": "z#1", "text": "caf\xe9"}\n', "not JSON"),  # invalid UTF-8
    (b'["_id", "z#1"]\n', "not a JSON object"),
    (b'{"text": "no id"}\n', "no string `_id`"),
    (b'{"_id": 7, "text": "a number"}\n', "no string `_id`"),
]


@MODES
@pytest.mark.parametrize(("line", "said"), BAD_LINES, ids=[s for _, s in BAD_LINES])
def test_a_bad_corpus_line_is_a_path_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str], line: bytes, said: str
) -> None:
    root = _repo(tmp_path, {"a#1": TEXT, "b#1": TEXT})
    with (root / "c.jsonl").open("ab") as fh:
        fh.write(line)
    subprocess.run(["git", "commit", "-qam", "bad line"], cwd=root, check=True)
    before = snapshot(root)
    code, out, err = cli(capsys, root, "classes", "propose", *mode)
    assert (code, out) == (1, "")
    assert "c.jsonl:3:" in err and said in err
    assert snapshot(root) == before and _branch(root) == "main"


def test_a_corpus_text_that_is_not_a_string_is_read_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, {"a#1": TEXT})
    with (root / "c.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"_id": "b#1", "text": None, "title": TEXT}) + "\n")
        fh.write(json.dumps({"_id": "c#1", "text": {"nested": [1, 2]}}) + "\n")
    label = _label(["a#1", "b#1", "c#1"])
    (root / "labels" / "q1.yaml").write_text(label, encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "odd texts"], cwd=root, check=True)
    code, report, err = _propose(capsys, root, "--branch", "cls")
    assert code == 0, err
    assert [p["members"] for p in report["proposals"]] == [["a#1", "b#1"]]


MAPS = [
    (b"a#1:b#1\njust-one-id\n", 2, "expected canonical:dup1"),
    (b"a#1:b#1\na#1\tb#1\tc#1\n", 2, "two tab-separated ids"),
    (b"a#1:b#1,,c#1\n", 1, "an empty id"),
    (b"a#1:b#1\n:b#1\n", 2, "an empty id"),
    (b"a#1:b #1\n", 1, "holds a space"),
    (b"a#1:b#1\nc\xff:d\n", 2, "not UTF-8"),
]


@pytest.mark.parametrize(("data", "line", "said"), MAPS, ids=[s for _, _, s in MAPS])
def test_a_malformed_duplicate_map_line_is_a_path_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, line: int, said: str
) -> None:
    root = _repo(tmp_path, {"a#1": TEXT, "b#1": "other words entirely here", "c#1": "x"})
    dups = tmp_path / "dups.txt"
    dups.write_bytes(data)
    before = snapshot(root)
    code, out, err = cli(capsys, root, "import", "duplicates", str(dups))
    assert (code, out) == (1, "")
    assert f"dups.txt:{line}" in err and said in err
    assert snapshot(root) == before and _branch(root) == "main"


def test_a_duplicate_map_canonical_without_duplicates_is_a_group_of_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """MS MARCO's map: "the original document id followed by a list of its duplicate document
    ids (0 or many ...)": ``d0:`` is a line of the format, not an error."""
    root = _repo(tmp_path, {"a#1": TEXT, "b#1": "other words entirely here", "#c": "x"})
    dups = tmp_path / "dups.txt"
    dups.write_bytes(b"a#1:\r\nb#1:#c\n\n")
    code, out, err = cli(
        capsys, root, "import", "duplicates", str(dups), "--format", "json", "--branch", "d"
    )
    assert code == 0, err
    report = json.loads(out)
    assert [p["members"] for p in report["proposals"]] == [["#c", "b#1"]]
    assert report["ids"] == 3 and report["outside"] == 0
    assert cli(capsys, root, "validate", "--allow-pending")[0] == 0
