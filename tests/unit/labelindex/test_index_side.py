"""The label index's side file (issue 27): a few new rows are written beside the index, not
the whole index again; a side file torn, flipped, of another version or adding to another
index is never trusted (its files parsed again); past a share of the index's rows the index is
rewritten whole and the side file removed."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

import labelpool
from labelpool import config, labelset
from labelpool.labelindex import files, store

N = 60  # label files: 5% of them is 3 rows


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True)


def label(qid: str, doc: str) -> str:
    return f"id: {qid}\nquestion: Where?\nrelevant_doc_ids: [{doc}]\njudged_ids: [{doc}, x]\n"


@pytest.fixture
def many(repo: Path) -> Path:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.invalid")
    for i in range(N):
        (repo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", f"d{i}"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "labels")
    return repo


class Counting:
    def __init__(self) -> None:
        self.parsed: list[str] = []

    def __call__(self, path: Path, raw: bytes) -> Any:
        self.parsed.append(path.name)
        return {"text": raw.decode("utf-8")}


def parsed(repo: Path) -> list[str]:
    """The label files the index had to parse (the data of every file checked)."""
    parse = Counting()
    reading = files.read(labelset.label_files(repo / "labels"), parse, tag="count")
    for e in reading.entries:
        assert e.data == {"text": e.path.read_text(encoding="utf-8")}
        reading.mark_checked(e)
    reading.save()
    return sorted(parse.parsed)


def index(cache: Path) -> tuple[Path, Path]:
    (main,) = cache.glob("index-*.arrow")
    return main, store.side_of(main)


def edit(repo: Path, i: int, doc: str) -> None:
    (repo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", doc))


def test_a_few_new_rows_go_to_the_side_file(many: Path, cache: Path) -> None:
    assert len(parsed(many)) == N
    main, side = index(cache)
    before = main.read_bytes()
    assert not side.exists()
    edit(many, 1, "new1")
    assert parsed(many) == ["q1.yaml"]
    assert main.read_bytes() == before and side.exists()  # the index as it was
    assert parsed(many) == []  # the side file read
    edit(many, 2, "new2")
    assert parsed(many) == ["q2.yaml"]
    assert parsed(many) == []
    edit(many, 1, "d1")  # back to a blob of the index
    assert parsed(many) == []
    cfg = config.load(many)
    through = labelset.load(cfg)
    assert dict(through.labels) == dict(labelset.load(cfg, use_cache=False).labels)
    assert dict(labelset.load(cfg).labels) == dict(through.labels)  # the label reading's side


def test_past_its_share_the_index_is_rewritten(many: Path, cache: Path) -> None:
    parsed(many)
    main, side = index(cache)
    before = main.read_bytes()
    for i in range(3):  # 5% of 60 rows
        edit(many, i, f"new{i}")
        assert parsed(many) == [f"q{i}.yaml"]
    assert main.read_bytes() == before and side.exists()
    edit(many, 3, "new3")
    assert parsed(many) == ["q3.yaml"]
    assert main.read_bytes() != before and not side.exists()  # compacted
    assert parsed(many) == []
    rows = store.load(main, "count")
    assert rows.side is None and len(rows.row_of) >= N + 4


@pytest.mark.parametrize("damage", ["flipped", "torn", "empty", "other-index", "version"])
def test_a_damaged_side_file_is_not_trusted(
    many: Path, cache: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed(many)
    edit(many, 5, "new5")
    assert parsed(many) == ["q5.yaml"]
    main, side = index(cache)
    raw = bytearray(side.read_bytes())
    if damage == "flipped":
        raw[len(raw) - 40] ^= 0x5A
    elif damage == "torn":
        raw = raw[: len(raw) - 20]
    elif damage == "empty":
        raw = bytearray()
    elif damage == "other-index":  # the side file of an index rewritten since
        text = raw.decode("latin-1").replace('"base_size": ', '"base_size": 1')
        raw = bytearray(text.encode("latin-1"))
    side.write_bytes(bytes(raw))
    if damage == "version":  # a side file another labelpool wrote
        rows = store.load(main, "count")
        assert rows.base is not None and rows.side is not None and rows.side.table is not None
        version = labelpool.__version__
        monkeypatch.setattr(store, "__version__", "0.0.0-other")
        store.save_side(main, "count", rows.base, rows.side.table)
        monkeypatch.setattr(store, "__version__", version)
    assert parsed(many) == ["q5.yaml"]  # parsed again, the side file rewritten
    assert parsed(many) == []
    cfg = config.load(many)
    assert dict(labelset.load(cfg).labels) == dict(labelset.load(cfg, use_cache=False).labels)


def test_a_side_file_without_its_index_is_not_read(many: Path, cache: Path) -> None:
    parsed(many)
    edit(many, 7, "new7")
    parsed(many)
    main, side = index(cache)
    main.unlink()
    assert len(parsed(many)) == N
    assert not side.exists()  # the index written whole removes it
