"""The label index keyed by git blob ids (issue 27), on real git repositories in tmp folders.

Each case loads the labels through the index and holds the result to a load without it
(``use_cache=False``), and counts what the index parsed again (``files.read`` with a parse
that counts): a changed, renamed, deleted or dirty file, a checkout of another branch, two
processes filling the index at once, flipped bytes in it, an index of another version.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import columns, config, labelset
from labelpool.labelindex import blobids, files, store

ROOT = Path(__file__).resolve().parents[3]


def git(repo: Path, *args: str, input_bytes: bytes | None = None) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=repo, input=input_bytes, capture_output=True, check=False
    )
    assert proc.returncode == 0, f"git {args}: {proc.stderr!r}"
    return proc.stdout.decode()


def label(qid: str, judged: list[str], relevant: list[str] | None = None) -> str:
    rel = judged[:1] if relevant is None else relevant
    return (
        f"id: {qid}\nquestion: Where is {qid}?\n"
        + "relevant_doc_ids:\n"
        + "".join(f"  - {d}\n" for d in rel)
        + "judged_ids:\n"
        + "".join(f"  - {d}\n" for d in judged)
    )


@pytest.fixture
def gitrepo(repo: Path) -> Path:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.invalid")
    for i in range(6):
        (repo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", [f"d{i}", "shared"]))
    commit(repo, "labels")
    return repo


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def load(repo: Path) -> labelset.LabelSet:
    """The labels through the index, held equal to a load without it (the digest too, but
    in a SHA-256 repository: without the index every blob id is a SHA-1 one)."""
    cfg = config.load(repo)
    through = labelset.load(cfg)
    fresh = labelset.load(cfg, use_cache=False)
    assert dict(through.labels) == dict(fresh.labels)
    assert dict(through.paths) == dict(fresh.paths)
    if blobids.known(repo / "labels").algorithm == blobids.SHA1:
        assert through.digest == fresh.digest
    return through


class Counting:
    """A parse that counts the files it is given (the index reads the rest)."""

    def __init__(self) -> None:
        self.parsed: list[str] = []

    def __call__(self, path: Path, raw: bytes) -> Any:
        self.parsed.append(path.name)
        return {"text": raw.decode("utf-8")}


def parsed_by_index(repo: Path) -> list[str]:
    """Names of the label files the index had to parse; their data is checked too."""
    parse = Counting()
    paths = labelset.label_files(repo / "labels")
    reading = files.read(paths, parse, tag="count")
    for e in reading.entries:
        assert e.data == {"text": e.path.read_text(encoding="utf-8")}
        reading.mark_checked(e)
    reading.save()
    return sorted(parse.parsed)


def test_blob_ids_are_git_hash_object(gitrepo: Path, cache: Path) -> None:
    path = gitrepo / "labels" / "q0.yaml"
    assert (
        blobids.known(gitrepo / "labels").blobs["q0.yaml"]
        == git(gitrepo, "hash-object", str(path)).strip()
    )
    assert blobids.hash_bytes(path.read_bytes()) == git(gitrepo, "hash-object", str(path)).strip()


@settings(max_examples=20, deadline=None)
@given(st.binary(max_size=300))
def test_hash_bytes_is_git_hash_object(raw: bytes) -> None:
    out = git(Path.cwd(), "hash-object", "--no-filters", "--stdin", input_bytes=raw)
    assert blobids.hash_bytes(raw) == out.strip()


def test_sha256_repository(repo: Path, cache: Path) -> None:
    git(repo, "init", "-q", "--object-format=sha256", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.invalid")
    (repo / "labels" / "q1.yaml").write_text(label("q1", ["d1"]))
    commit(repo, "one")
    known = blobids.known(repo / "labels")
    assert known.algorithm == "sha256"
    want = git(repo, "hash-object", "labels/q1.yaml").strip()
    assert known.blobs == {"q1.yaml": want} and len(want) == 64
    (repo / "labels" / "q2.yaml").write_text(label("q2", ["d2"]))  # untracked: hashed here
    assert [
        e.blob for e in files.read([repo / "labels" / "q2.yaml"], Counting(), tag="t").entries
    ] == [git(repo, "hash-object", "labels/q2.yaml").strip()]
    assert sorted(load(repo)) == ["q1", "q2"]


def test_warm_read_parses_nothing(gitrepo: Path, cache: Path) -> None:
    assert parsed_by_index(gitrepo) == [f"q{i}.yaml" for i in range(6)]
    assert parsed_by_index(gitrepo) == []
    assert sorted(load(gitrepo)) == [f"q{i}" for i in range(6)]
    assert list(cache.glob("index-*.arrow"))
    assert not list(gitrepo.rglob("*.arrow"))  # nothing inside the repository


def test_a_changed_file(gitrepo: Path, cache: Path) -> None:
    load(gitrepo)
    parsed_by_index(gitrepo)
    (gitrepo / "labels" / "q2.yaml").write_text(label("q2", ["d9", "shared"]))
    commit(gitrepo, "change q2")
    assert parsed_by_index(gitrepo) == ["q2.yaml"]
    assert load(gitrepo)["q2"].judged_ids == ("d9", "shared")


def test_a_renamed_file(gitrepo: Path, cache: Path) -> None:
    load(gitrepo)
    parsed_by_index(gitrepo)
    git(gitrepo, "mv", "labels/q3.yaml", "labels/q3b.yaml")  # same bytes: same blob
    commit(gitrepo, "rename")
    assert parsed_by_index(gitrepo) == []
    # as a label, the id no longer is the file name: refused as validate refuses it
    with pytest.raises(labelset.LabelSetError, match="LP022"):
        labelset.load(config.load(gitrepo))
    (gitrepo / "labels" / "q3b.yaml").write_text(label("q3b", ["d3", "shared"]))
    commit(gitrepo, "its id")
    assert sorted(load(gitrepo)) == ["q0", "q1", "q2", "q3b", "q4", "q5"]


def test_a_deleted_file(gitrepo: Path, cache: Path) -> None:
    first = load(gitrepo)
    parsed_by_index(gitrepo)
    git(gitrepo, "rm", "-q", "labels/q4.yaml")
    commit(gitrepo, "delete")
    assert parsed_by_index(gitrepo) == []
    after = load(gitrepo)
    assert "q4" not in after and sorted(after) == sorted(set(first) - {"q4"})
    assert after.digest != first.digest


def test_a_dirty_file_is_hashed_and_read_fresh(gitrepo: Path, cache: Path) -> None:
    load(gitrepo)
    parsed_by_index(gitrepo)
    path = gitrepo / "labels" / "q1.yaml"
    before = path.stat()
    path.write_text(label("q1", ["d7", "shared"]))  # same size, same mtime: git still sees it
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert parsed_by_index(gitrepo) == ["q1.yaml"]
    assert load(gitrepo)["q1"].judged_ids == ("d7", "shared")
    (gitrepo / "labels" / "q9.yaml").write_text(label("q9", ["d1"]))  # untracked
    assert parsed_by_index(gitrepo) == ["q9.yaml"]
    assert load(gitrepo)["q9"].judged_ids == ("d1",)
    # staged, then changed again in the working tree: the working tree is what is read
    git(gitrepo, "add", "labels/q9.yaml")
    (gitrepo / "labels" / "q9.yaml").write_text(label("q9", ["d2"]))
    assert load(gitrepo)["q9"].judged_ids == ("d2",)
    # a file git is told not to look at (assume-unchanged) is hashed all the same
    git(gitrepo, "update-index", "--assume-unchanged", "labels/q0.yaml")
    (gitrepo / "labels" / "q0.yaml").write_text(label("q0", ["d8"]))
    assert load(gitrepo)["q0"].judged_ids == ("d8",)


def test_a_checkout_of_another_branch(gitrepo: Path, cache: Path) -> None:
    on_main = load(gitrepo)
    parsed_by_index(gitrepo)
    git(gitrepo, "checkout", "-q", "-b", "other")
    (gitrepo / "labels" / "q0.yaml").write_text(label("q0", ["d5", "d6"]))
    (gitrepo / "labels" / "q7.yaml").write_text(label("q7", ["d7"]))
    git(gitrepo, "rm", "-q", "labels/q5.yaml")
    commit(gitrepo, "other")
    parsed_by_index(gitrepo)
    on_other = load(gitrepo)
    assert sorted(on_other) == ["q0", "q1", "q2", "q3", "q4", "q7"]
    git(gitrepo, "checkout", "-q", "main")
    assert parsed_by_index(gitrepo) == []  # main's blobs are still in the index
    assert dict(load(gitrepo).labels) == dict(on_main.labels)
    git(gitrepo, "checkout", "-q", "other")
    assert parsed_by_index(gitrepo) == []
    assert dict(load(gitrepo).labels) == dict(on_other.labels)


def test_outside_git_and_with_filters(repo: Path, cache: Path) -> None:
    for i in range(3):
        (repo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", [f"d{i}"]))
    assert blobids.known(repo / "labels").blobs == {}
    assert parsed_by_index(repo) == ["q0.yaml", "q1.yaml", "q2.yaml"]
    assert parsed_by_index(repo) == []
    git(repo, "init", "-q", "-b", "main")
    (repo / ".gitattributes").write_text("*.yaml text eol=crlf\n")
    git(repo, "add", "-A")
    assert blobids.known(repo / "labels").blobs == {}  # git could rewrite the bytes
    assert sorted(load(repo)) == ["q0", "q1", "q2"]
    (repo / ".gitattributes").unlink()
    git(repo, "config", "filter.lfs.clean", "git-lfs clean -- %f")  # a filter no file uses
    assert len(blobids.known(repo / "labels").blobs) == 3
    git(repo, "config", "core.autocrlf", "true")
    assert blobids.known(repo / "labels").blobs == {}


def test_a_corrupted_index_is_rebuilt(gitrepo: Path, cache: Path) -> None:
    expected = load(gitrepo)
    parsed_by_index(gitrepo)
    for index in cache.glob("index-*.arrow"):
        raw = bytearray(index.read_bytes())
        for at in range(len(raw) // 3, len(raw), max(1, len(raw) // 7)):
            raw[at] ^= 0x5A  # flipped bytes in the body
        index.write_bytes(bytes(raw))
    assert dict(load(gitrepo).labels) == dict(expected.labels)
    assert parsed_by_index(gitrepo) == [f"q{i}.yaml" for i in range(6)]  # never trusted
    assert parsed_by_index(gitrepo) == []  # and rewritten whole
    for index in cache.glob("index-*.arrow"):
        index.write_bytes(index.read_bytes()[:100])  # torn
    assert dict(load(gitrepo).labels) == dict(expected.labels)
    for index in cache.glob("index-*.arrow"):
        index.write_bytes(b"")
    assert dict(load(gitrepo).labels) == dict(expected.labels)


def test_an_index_of_another_version_is_rebuilt(
    gitrepo: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "__version__", "0.0.0-other")
    assert len(parsed_by_index(gitrepo)) == 6
    assert parsed_by_index(gitrepo) == []
    monkeypatch.undo()
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(cache))
    assert len(parsed_by_index(gitrepo)) == 6  # another version's index is not read
    assert parsed_by_index(gitrepo) == []


def test_an_index_of_another_format_is_rebuilt(
    gitrepo: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index written before a change of its columns (format 2: no ``pool_run``) is never
    trusted: the next read parses every file and rewrites it whole."""
    monkeypatch.setattr(store, "FORMAT", store.FORMAT - 1)
    assert len(parsed_by_index(gitrepo)) == 6
    assert parsed_by_index(gitrepo) == []
    monkeypatch.undo()
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(cache))
    assert len(parsed_by_index(gitrepo)) == 6  # another format's index is not read
    assert parsed_by_index(gitrepo) == []
    cfg = config.load(gitrepo)
    labelset.load(cfg)
    warm = labelset.load(cfg)  # the labels' columns of this format, served warm
    cols = columns.of(warm)
    assert cols is not None and "pool_run" in cols.table.column_names
    assert "0 built" in repr(warm.labels)


def test_deleting_the_index_changes_no_output(gitrepo: Path, cache: Path) -> None:
    (gitrepo / "runs" / "bm25.trec").write_text(
        "".join(f"q{i} Q0 d{i} 1 2.0 bm25\nq{i} Q0 shared 2 1.0 bm25\n" for i in range(6))
    )
    cmd = [sys.executable, "-m", "labelpool", "score", "runs/bm25.trec", "--per-query"]

    def run() -> str:
        proc = subprocess.run(cmd, cwd=gitrepo, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    cold = run()
    assert list(cache.glob("index-*.arrow"))
    assert run() == cold
    assert list(cache.glob("runs/*.run"))  # the run cache, a folder of its own
    for f in cache.iterdir():
        if f.is_dir():
            shutil.rmtree(f)
        else:
            f.unlink()
    assert run() == cold


FILL = """
import sys
from pathlib import Path
from labelpool import columns, config, labelset
labels = labelset.load(config.load(Path(sys.argv[1])))
print(len(labels), labels.digest)
"""


def test_two_processes_fill_the_index_at_once(gitrepo: Path, cache: Path) -> None:
    for i in range(6, 300):
        (gitrepo / "labels" / f"q{i}.yaml").write_text(label(f"q{i}", [f"d{i}", "shared"]))
    commit(gitrepo, "more")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tools"), "LABELPOOL_CACHE_DIR": str(cache)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", FILL, str(gitrepo)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
    expected = load(gitrepo)
    assert [o.split() for o, _ in outs] == [[str(len(expected)), expected.digest]] * 2
    assert len(list(cache.glob("index-*.arrow"))) == 1  # one whole file, the last writer's
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # no temporary left
    (index,) = cache.glob("index-*.arrow")
    header = json.loads(index.read_bytes()[len(store.MAGIC) :].split(b"\n", 1)[0])
    rows = store.load(index, header["tag"], columns.SCHEMA)  # intact: CRC, header, columns
    assert len(rows.row_of) == 300 and bool(rows.checked.all())  # the checks' outcome kept
