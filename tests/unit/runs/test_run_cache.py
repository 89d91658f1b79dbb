"""The run cache (``runs/cached``): a hit gives the arrays a parse gives; a changed file, a
damaged entry or another version's entry is a miss that rewrites it; errors stay exact; two
processes fill it at once; a folder that cannot be written reads cold; old entries go."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import skip_unless
from labelpool.runs import Run, RunError, cached, read_run

RUN = "q1 Q0 d1 1 1.5 s\nq1 Q0 d3 2 2.0 s\nq1 Q0 d2 3 2.0 s\nq2 Q0 z 1 0.1 s\nq10 Q0 a 1 -3 s\n"
OTHER = "x Q0 only 1 9 s\n"
DROP = ["--bounding-set", "-dac_override,-dac_read_search,-fowner", "--inh-caps", "-all"]


@contextlib.contextmanager
def cache_at(folder: Path) -> Iterator[Path]:
    """``$LABELPOOL_CACHE_DIR`` set to ``folder`` inside the block; the run cache's folder."""
    before = os.environ.get("LABELPOOL_CACHE_DIR")
    os.environ["LABELPOOL_CACHE_DIR"] = str(folder)
    try:
        yield folder / "runs"
    finally:
        if before is None:
            del os.environ["LABELPOOL_CACHE_DIR"]
        else:
            os.environ["LABELPOOL_CACHE_DIR"] = before


@pytest.fixture
def runs_dir(tmp_path: Path) -> Iterator[Path]:
    with cache_at(tmp_path / "cache") as where:
        yield where


def same_arrays(a: Run, b: Run) -> None:
    for field in ("qids", "offsets", "doc_codes", "scores"):
        x, y = getattr(a, field), getattr(b, field)
        assert x.dtype == y.dtype, field
        assert np.array_equal(x, y), field
    assert a.doc_vocab.type == b.doc_vocab.type
    assert a.doc_vocab.equals(b.doc_vocab)
    assert a.sha256 == b.sha256


def cold(path: Path) -> Run:
    """``path`` read with an empty cache of its own (a parse)."""
    with tempfile.TemporaryDirectory() as tmp, cache_at(Path(tmp)):
        return read_run(path)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def entries(where: Path) -> list[str]:
    return sorted(p.name for p in where.iterdir()) if where.is_dir() else []


# --- hit equals miss ------------------------------------------------------------------------

ROWS = st.lists(
    st.tuples(
        st.sampled_from(["q1", "q2", "q10", "é", "Q-3"]),
        st.sampled_from(["d1", "d2", "doc#3", "ü-9", "a", "zz"]),
        st.sampled_from([0.0, 1.0, -2.5, 3.25, 1e9]),
    ),
    min_size=1,
    max_size=40,
    unique_by=lambda r: (r[0], r[1]),
)


def encode(rows: list[tuple[str, str, float]], kind: str) -> bytes:
    if kind == "jsonl":
        lines = [json.dumps({"qid": q, "doc_id": d, "score": s}) for q, d, s in rows]
    else:
        lines = [f"{q} Q0 {d} {i + 1} {s!r} sys" for i, (q, d, s) in enumerate(rows)]
    data = "".join(f"{line}\n" for line in lines).encode("utf-8")
    return gzip.compress(data, mtime=0) if kind == "gzip" else data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ROWS, st.sampled_from(["trec", "gzip", "jsonl"]))
def test_a_hit_gives_the_arrays_a_parse_gives(
    rows: list[tuple[str, str, float]], kind: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp, cache_at(Path(tmp) / "cache") as where:
        path = Path(tmp) / f"r.{kind}"
        path.write_bytes(encode(rows, kind))
        miss = read_run(path)
        assert entries(where) == [f"{digest(path)}.run"]
        assert cached.load(where, miss.sha256) is not None
        hit = read_run(path)
        same_arrays(miss, hit)
        same_arrays(cold(path), hit)
        assert hit.top(2) == miss.top(2)
        assert hit.tied_questions == miss.tied_questions


def test_a_large_run_on_the_fast_path_hits_equal(tmp_path: Path, runs_dir: Path) -> None:
    lines = [f"q{q} Q0 d{(q * 7 + r) % 5000} {r + 1} {100 - r * 0.5} s" for q in range(400)
             for r in range(60)]  # fmt: skip
    path = tmp_path / "big.trec"
    path.write_text("\n".join(lines) + "\n")
    miss = read_run(path)
    hit = read_run(path)
    same_arrays(miss, hit)
    same_arrays(cold(path), hit)
    assert len(entries(runs_dir)) == 1


def test_the_cache_is_what_a_hit_reads(tmp_path: Path, runs_dir: Path) -> None:
    """An entry kept under a file's digest is what reading the file gives: proof that a hit
    does not parse (the entry here holds another run's arrays)."""
    path, other = tmp_path / "a.trec", tmp_path / "b.trec"
    path.write_text(RUN)
    other.write_text(OTHER)
    foreign = cold(other)
    cached.save(
        runs_dir,
        digest(path),
        cached.Arrays(
            foreign.qids, foreign.offsets, foreign.doc_codes, foreign.doc_vocab, foreign.scores
        ),
    )
    assert read_run(path).ranking("x") == ["only"]


def test_name_and_path_come_from_the_call(tmp_path: Path, runs_dir: Path) -> None:
    first, second = tmp_path / "one.trec", tmp_path / "two.run"
    first.write_text(RUN)
    second.write_text(RUN)
    a = read_run(first)
    b = read_run(second, name="named")
    assert (a.name, a.path) == ("one", first)
    assert (b.name, b.path) == ("named", second)
    assert len(entries(runs_dir)) == 1


def test_a_changed_file_misses(tmp_path: Path, runs_dir: Path) -> None:
    path = tmp_path / "r.trec"
    path.write_text(RUN)
    before = read_run(path)
    path.write_text(RUN + "q3 Q0 new 1 1 s\n")
    after = read_run(path)
    assert "q3" in after.qid_set and "q3" not in before.qid_set
    assert after.sha256 != before.sha256
    assert len(entries(runs_dir)) == 2


# --- errors ---------------------------------------------------------------------------------


def test_a_bad_run_is_never_kept_and_its_error_stays_exact(tmp_path: Path, runs_dir: Path) -> None:
    path = tmp_path / "r.trec"
    path.write_text(RUN + "q1 Q0 d1 9 0.5 s\n")
    messages = []
    for _ in range(2):
        with pytest.raises(RunError) as caught:
            read_run(path)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(f"{path}:6:")
    assert entries(runs_dir) == []


# --- damaged or foreign entries -------------------------------------------------------------


def entry(tmp_path: Path, runs_dir: Path) -> tuple[Path, Path, Run]:
    path = tmp_path / "r.trec"
    path.write_text(RUN)
    run = read_run(path)
    return path, runs_dir / f"{run.sha256}.run", run


def rewrite_header(file: Path, **changes: object) -> None:
    data = file.read_bytes()
    start = data.index(b"\n", len(cached.MAGIC)) + 1
    header = json.loads(data[len(cached.MAGIC) : start])
    header.update(changes)
    head = cached.MAGIC + json.dumps(header, sort_keys=True).encode()
    head += b" " * (-(len(head) + 1) % cached.ALIGN) + b"\n"
    file.write_bytes(head + data[start:])


def body_start(file: Path) -> int:
    data = file.read_bytes()
    return data.index(b"\n", len(cached.MAGIC)) + 1


@pytest.mark.parametrize("where", ["first", "middle", "last", "header"])
def test_flipped_bytes_are_a_miss_and_rewritten(tmp_path: Path, runs_dir: Path, where: str) -> None:
    path, file, run = entry(tmp_path, runs_dir)
    good = file.read_bytes()
    start = body_start(file)
    at = {"first": start, "middle": (start + len(good)) // 2, "last": len(good) - 1}.get(
        where, len(cached.MAGIC) + 3
    )
    damaged = bytearray(good)
    damaged[at] ^= 0x41
    file.write_bytes(bytes(damaged))
    assert cached.load(runs_dir, run.sha256) is None
    same_arrays(read_run(path), run)
    assert file.read_bytes() == good  # rewritten


@pytest.mark.parametrize("keep", [0, 10, 200, -1])
def test_a_truncated_entry_is_a_miss_and_rewritten(
    tmp_path: Path, runs_dir: Path, keep: int
) -> None:
    path, file, run = entry(tmp_path, runs_dir)
    good = file.read_bytes()
    file.write_bytes(good[:keep])
    assert cached.load(runs_dir, run.sha256) is None
    same_arrays(read_run(path), run)
    assert file.read_bytes() == good


@pytest.mark.parametrize(
    "changes",
    [{"version": "0.0.1-foreign"}, {"format": cached.FORMAT + 1}, {"sha256": "0" * 64}],
)
def test_a_foreign_entry_is_a_miss_and_rewritten(
    tmp_path: Path, runs_dir: Path, changes: dict[str, object]
) -> None:
    path, file, run = entry(tmp_path, runs_dir)
    good = file.read_bytes()
    rewrite_header(file, **changes)
    assert file.read_bytes() != good
    assert cached.load(runs_dir, run.sha256) is None
    same_arrays(read_run(path), run)
    assert file.read_bytes() == good


def test_an_entry_of_another_file_is_not_trusted(tmp_path: Path, runs_dir: Path) -> None:
    """An entry copied under another digest's name (its header names its own) is a miss."""
    _, file, _ = entry(tmp_path, runs_dir)
    other = tmp_path / "o.trec"
    other.write_text(OTHER)
    shutil.copyfile(file, runs_dir / f"{digest(other)}.run")
    assert read_run(other).qid_set == {"x"}


# --- two processes, unwritable folders ------------------------------------------------------

READER = """
import sys
from labelpool.runs import read_run
for _ in range(3):
    run = read_run(sys.argv[1])
print(run.sha256, len(run), run.top(3)["q7"])
"""


def test_two_processes_fill_one_entry_at_once(tmp_path: Path) -> None:
    path = tmp_path / "r.trec"
    lines = [f"q{q} Q0 d{r} {r + 1} {-r} s" for q in range(300) for r in range(200)]
    path.write_text("\n".join(lines) + "\n")
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(tmp_path / "cache")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert outs[0][0] == outs[1][0] != ""
    where = tmp_path / "cache" / "runs"
    assert entries(where) == [f"{digest(path)}.run"]  # no temporary file left
    with cache_at(tmp_path / "cache"):
        same_arrays(read_run(path), cold(path))
    assert cached.load(where, digest(path)) is not None


def test_a_cache_folder_that_cannot_be_made_reads_cold(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    path = tmp_path / "r.trec"
    path.write_text(RUN)
    with cache_at(blocker / "cache"):
        first, second = read_run(path), read_run(path)
    same_arrays(first, second)
    same_arrays(first, cold(path))
    assert blocker.read_text() == "not a folder"


def _unprivileged() -> list[str]:
    """A prefix that makes a process bound by permission bits (root drops its capabilities)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    skip_unless(setpriv, "setpriv (util-linux) is needed to drop root's DAC capabilities", "os")
    assert setpriv is not None
    return [setpriv, *DROP, "--"]


def test_a_read_only_cache_folder_reads_cold(tmp_path: Path) -> None:
    path = tmp_path / "r.trec"
    lines = [f"q{q} Q0 d{r} {r + 1} {-r} s" for q in range(10) for r in range(10)]
    path.write_text("\n".join(lines) + "\n")
    folder = tmp_path / "cache"
    (folder / "runs").mkdir(parents=True)
    for p in (folder / "runs", folder):
        p.chmod(0o555)
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(folder)}
    try:
        probe = subprocess.run(
            [*_unprivileged(), sys.executable, "-c", f"open({str(folder / 'x')!r}, 'w')"],
            env=env,
            capture_output=True,
            check=False,
        )
        skip_unless(probe.returncode != 0, "permission bits could not be made to bind", "os")
        done = subprocess.run(
            [*_unprivileged(), sys.executable, "-c", READER, str(path)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        for p in (folder, folder / "runs"):
            p.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.split()[:2] == [digest(path), "100"]
    assert entries(folder / "runs") == []


# --- bounded disk ---------------------------------------------------------------------------


def kept_runs(tmp_path: Path, where: Path, n: int) -> list[str]:
    """``n`` entries, oldest first (their modification times set one second apart)."""
    shas = []
    for i in range(n):
        path = tmp_path / f"r{i}.trec"
        path.write_text(f"q{i} Q0 d 1 1 s\n")
        run = cold(path)
        arrays = cached.Arrays(run.qids, run.offsets, run.doc_codes, run.doc_vocab, run.scores)
        cached.save(where, run.sha256, arrays)
        os.utime(where / f"{run.sha256}.run", ns=(10**18 + i * 10**9, 10**18 + i * 10**9))
        shas.append(run.sha256)
    return shas


def test_eviction_keeps_the_most_recent_entries(tmp_path: Path) -> None:
    where = tmp_path / "runs"
    shas = kept_runs(tmp_path, where, 5)
    cached.evict(where, max_entries=3)
    assert entries(where) == sorted(f"{s}.run" for s in shas[2:])


def test_eviction_by_bytes(tmp_path: Path) -> None:
    where = tmp_path / "runs"
    shas = kept_runs(tmp_path, where, 4)
    size = (where / f"{shas[0]}.run").stat().st_size
    cached.evict(where, max_bytes=2 * size + size // 2)
    assert entries(where) == sorted(f"{s}.run" for s in shas[2:])


def test_a_hit_makes_an_entry_recent(tmp_path: Path) -> None:
    where = tmp_path / "runs"
    shas = kept_runs(tmp_path, where, 4)
    assert cached.load(where, shas[0]) is not None  # the oldest, used now
    cached.evict(where, max_entries=2)
    assert entries(where) == sorted(f"{s}.run" for s in (shas[0], shas[3]))


def test_a_save_evicts_past_the_cap(tmp_path: Path) -> None:
    where = tmp_path / "runs"
    shas = kept_runs(tmp_path, where, 3)
    (where / "notes.txt").write_text("not an entry")
    path = tmp_path / "new.trec"
    path.write_text(RUN)
    run = cold(path)
    arrays = cached.Arrays(run.qids, run.offsets, run.doc_codes, run.doc_vocab, run.scores)
    cached.save(where, run.sha256, arrays, max_entries=2)
    assert entries(where) == sorted([f"{shas[2]}.run", f"{run.sha256}.run", "notes.txt"])


def test_an_intact_entry_whose_arrays_do_not_fit_is_a_miss(tmp_path: Path) -> None:
    """Arrays that no parse gives (a document code past the vocabulary, offsets going back)
    are refused even under a right CRC-32."""
    path = tmp_path / "r.trec"
    path.write_text(RUN)
    run = cold(path)
    where = tmp_path / "runs"
    good = cached.Arrays(run.qids, run.offsets, run.doc_codes, run.doc_vocab, run.scores)
    cached.save(where, run.sha256, good)
    assert cached.load(where, run.sha256) is not None
    past = run.doc_codes.copy()
    past[0] = len(run.doc_vocab)
    back = run.offsets.copy()
    back[1], back[2] = back[2], back[1]
    for bad in (
        cached.Arrays(run.qids, run.offsets, past, run.doc_vocab, run.scores),
        cached.Arrays(run.qids, back, run.doc_codes, run.doc_vocab, run.scores),
    ):
        cached.save(where, run.sha256, bad)
        assert cached.load(where, run.sha256) is None
