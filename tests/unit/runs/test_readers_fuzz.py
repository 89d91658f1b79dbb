"""Every run reader under random bytes (hypothesis): a Run or a RunError naming the file,
never another exception; and one run written with tabs, spaces or mixed whitespace reads the
same on the fast path and the careful one."""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool.runs import Run, RunError, read_run

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces of run lines, so that random files are often nearly valid.
PIECES = st.sampled_from(
    [
        b"q1",
        b"q2",
        b"Q0",
        b"d1",
        b"d2",
        b"1",
        b"2.5",
        b"-1e3",
        b"nan",
        b"inf",
        b"1_0",
        b"s",
        b"#",
        b" ",
        b"  ",
        b"\t",
        b"\n",
        b"\r\n",
        b"\r",
        b"\x00",
        b"\xff",
        b"\xef\xbb\xbf",
        b"{",
        b"}",
        b'"qid"',
        b'"doc_id"',
        b'"score"',
        b'"doc_ids"',
        b":",
        b",",
        b"[",
        b"]",
        b"\x1b",
    ]
)
TEXTS = st.one_of(st.binary(max_size=300), st.lists(PIECES, max_size=80).map(b"".join))


def _read(data: bytes, name: str) -> Run | RunError:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            return read_run(path)
        except RunError as exc:
            assert exc.path == str(path) or str(exc).startswith(str(path))
            return exc


@FUZZ
@given(TEXTS)
def test_trec_reader_never_raises_anything_else(data: bytes) -> None:
    _read(data, "r.trec")


@FUZZ
@given(TEXTS)
def test_gzipped_reader_never_raises_anything_else(data: bytes) -> None:
    packed = gzip.compress(data)
    cut = len(packed) // 2 if data.endswith(b"\n") else len(packed)
    _read(packed[:cut], "r.trec.gz")


@FUZZ
@given(TEXTS)
def test_jsonl_reader_never_raises_anything_else(data: bytes) -> None:
    _read(b"{" + data, "r.jsonl")


PREFIX = b"".join(b"p%d Q0 d%d 1 %d s\n" % (i, i, i) for i in range(4000))  # past the head


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_fast_reader_never_raises_anything_else(data: bytes) -> None:
    """Past the 64 KiB head, the fast path reads first (and hands what it refuses to the
    careful reader)."""
    _read(PREFIX + data, "r.trec")
    _read(PREFIX.replace(b" ", b"\t") + data, "t.trec")


ID = st.text(alphabet="abcxyz019-_#.:", min_size=1, max_size=6).filter(lambda s: s[0] != "#")
ROWS = st.lists(
    st.tuples(ID, ID, st.integers(-50, 50)), min_size=1, max_size=40, unique_by=lambda r: r[:2]
)


def _layout(rows: list[tuple[str, str, int]], seps: list[str], pad: int) -> bytes:
    """The rows as TREC lines, fields joined by the separators (cycled); ``pad`` makes the
    file pass the 64 KiB head (the fast path reads it then)."""
    lines = []
    for i, (q, d, s) in enumerate(rows):
        fields = [q, "Q0", d, str(i + 1), f"{s / 4}", "sys"]
        sep = seps[i % len(seps)]
        lines.append(sep.join(fields) + "\n")
    filler = [seps[0].join([f"zz{i}", "Q0", "filler", "1", "0", "sys"]) + "\n" for i in range(pad)]
    return "".join(lines + filler).encode()


@settings(max_examples=40, deadline=None)
@given(ROWS, st.sampled_from([["\t"], [" "], ["\t", " "], ["  ", "\t \t"], [" \t"]]))
def test_tabs_spaces_and_mixed_whitespace_read_the_same(
    rows: list[tuple[str, str, int]], seps: list[str]
) -> None:
    for pad in (0, 4000):  # the whole file through the careful reader, then the fast path
        got = _read(_layout(rows, seps, pad), "r.trec")
        want = _read(_layout(rows, [" "], pad), "r.trec")
        assert isinstance(got, Run) and isinstance(want, Run)
        assert got.top(1000) == want.top(1000)
        assert got.scores.tolist() == want.scores.tolist()
