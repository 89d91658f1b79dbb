"""A partial read of a folder (some of its label files: a diff reading only the changed ones)
never drops rows of the folder's index, so the next full load stays warm; only a full load
(``labelset.load``) prunes the rows of blobs no longer in the folder, keeping at most as many
again as it read."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import columns, config, labelset, schemas
from labelpool.labelindex import blobids, files, store

N = 60  # label files: the side file holds 3 new rows, a read of 10 rewrites the index


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


def rows(cache: Path) -> store.Rows:
    (main,) = cache.glob("index-*.arrow")
    side = store.side_of(main)
    assert not side.exists()  # every read here rewrote the index whole
    tag = json.loads(main.read_bytes()[len(store.MAGIC) :].split(b"\n")[0])["tag"]
    return store.load(main, tag, columns.SCHEMA)


def blobs(repo: Path) -> set[str]:
    return {blobids.hash_bytes(p.read_bytes()) for p in labelset.label_files(repo / "labels")}


def load(repo: Path) -> labelset.LabelSet:
    return labelset.load(config.load(repo))


def test_a_partial_read_keeps_the_other_rows(many: Path, cache: Path) -> None:
    assert len(load(many)) == N
    assert set(rows(cache).row_of) == blobs(many)
    for i in range(10):
        (many / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", f"new{i}"))
    changed = [many / "labels" / f"q{i}.yaml" for i in range(10)]
    cfg = config.load(many)
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)  # the index load reads
    partial = labelset.load_files(
        changed, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth, schema_file=schema_file
    )
    assert len(partial) == 10
    kept = rows(cache)
    assert set(kept.row_of) >= blobs(many)  # the next full load finds every file
    assert len(kept.row_of) == N + 10 and bool(kept.checked.all())
    before = sorted(cache.glob("index-*"))[0].read_bytes()
    assert len(load(many)) == N
    assert sorted(cache.glob("index-*"))[0].read_bytes() == before  # nothing new: no write


def test_a_full_load_prunes_to_twice_its_files(many: Path, cache: Path) -> None:
    load(many)
    for round_ in range(4):
        for i in range(N):
            (many / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", f"r{round_}"))
        loaded = load(many)
        assert len(loaded) == N and loaded["q1"].relevant_doc_ids == (f"r{round_}",)
        kept = rows(cache)
        assert set(kept.row_of) >= blobs(many) and len(kept.row_of) <= 2 * N


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 39), max_size=60), st.booleans())
def test_rows_taken_as_slices_are_a_take(rows: list[int], ascending: bool) -> None:
    table = pa.table({"n": list(range(40)), "s": [str(i) for i in range(40)]})
    picked = np.asarray(sorted(rows) if ascending else rows, dtype=np.int64)
    assert files.take_rows(table, picked).equals(table.take(pa.array(picked, pa.int64())))


def test_git_lines_inside_a_path_are_not_entries(many: Path) -> None:
    fake = "0" * 40
    odd = many / "labels" / f"z H 100644 {fake} 0\tlabels"
    odd.mkdir()
    (odd / "q1.yaml").write_text(label("q1", "elsewhere"))
    git(many, "add", "-A")
    git(many, "commit", "-q", "-m", "odd")
    known = blobids.known(many / "labels").blobs
    assert len(known) == N and fake not in known.values()
    assert known["q1.yaml"] == blobids.hash_bytes((many / "labels" / "q1.yaml").read_bytes())


@pytest.mark.parametrize(
    "edits",
    [
        {5: label("q7", "d")},  # a new file names another file's question
        {5: "id: q5\nquestion: 3\n"},  # a new file the schema refuses
        {5: label("q9", "d"), 40: "id: [\n"},  # a duplicate, then a broken file
        {40: label("q41", "d"), 2: label("q2", "ok")},  # one fine, one duplicate
    ],
)
def test_a_warm_load_with_a_few_new_files_refuses_as_a_cold_one(
    many: Path, cache: Path, edits: dict[int, str]
) -> None:
    load(many)
    for i, text in edits.items():
        (many / "labels" / f"q{i}.yaml").write_text(text)
    cfg = config.load(many)
    with pytest.raises(labelset.LabelSetError) as cold:
        labelset.load(cfg, use_cache=False)
    with pytest.raises(labelset.LabelSetError) as warm:
        labelset.load(cfg)
    assert str(warm.value) == str(cold.value)


def test_a_warm_load_with_a_few_new_files_reads_as_a_cold_one(many: Path, cache: Path) -> None:
    load(many)
    for i in (3, 50):
        (many / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", f"changed{i}"))
    cfg = config.load(many)
    warm, cold = labelset.load(cfg), labelset.load(cfg, use_cache=False)
    assert dict(warm.labels) == dict(cold.labels) and dict(warm.paths) == dict(cold.paths)
    assert warm.digest == cold.digest and warm.columns is not None
    assert warm.columns.table.column("id").to_pylist() == list(cold.labels)
