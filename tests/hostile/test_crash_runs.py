"""Hostile run files given to ``labelpool score``: each gives one exact outcome, never a
traceback (exit 70).

Every test names what 0.1.0 did with the same bytes (measured with 0.1.0's ``score -m P@10
--format csv`` on a one-question repository). A refused run file is exit 1 with
``error: path:line: message`` on stderr (0.1.0's ``score`` printed it without ``error:``);
an accepted one scores as the clean run does.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from tests.hostile.runs_scenario import GOOD, label_repo, score


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return label_repo(tmp_path)


def refused(
    capsys: pytest.CaptureFixture[str], root: Path, name: str, data: bytes, line: int | None
) -> str:
    """The message of a refused run file, after checking exit 1 and the ``error: path:line:``
    place."""
    code, out, err, path = score(capsys, root, name, data)
    assert code == 1, err
    assert out == ""
    place = f"error: {path}:{line}: " if line is not None else f"error: {path}: "
    assert err.startswith(place), err
    assert err.count("\n") == 1
    return err[len(place) :].rstrip("\n")


def accepted(capsys: pytest.CaptureFixture[str], root: Path, name: str, data: bytes) -> None:
    """The run scores exactly as the clean two-line run: d1 (relevant) above d2."""
    code, out, err, _ = score(capsys, root, name, data)
    assert code == 0, err
    system = name.split(".")[0]
    assert out.splitlines()[-1] == f"{system},all,1,0.0,pool covers this system,0.1,0.1,0.1"


def test_nan_score(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``nan.trec:1: score 'nan' is not a finite number`` (kept)."""
    message = refused(capsys, root, "nan.trec", b"q1 Q0 d1 1 nan s\n", 1)
    assert message == "score 'nan' is not a finite number"


def test_inf_score_on_line_two(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``inf.trec:2: score 'inf' is not a finite number`` (kept)."""
    message = refused(capsys, root, "inf.trec", b"q1 Q0 d1 1 1 s\nq1 Q0 d2 2 -inf s\n", 2)
    assert message == "score '-inf' is not a finite number"


def test_score_beyond_a_float(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``1e400.trec:1: score '1e400' is not a finite number`` (kept)."""
    message = refused(capsys, root, "big.trec", b"q1 Q0 d1 1 1e400 s\n", 1)
    assert message == "score '1e400' is not a finite number"


def test_score_with_underscore_is_not_a_number(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    """0.1.0: exit 0, ``1_000`` read as 1000 by Python's ``float`` (trec_eval's atof reads 1).
    Now a score is a decimal number: exit 1 naming the line."""
    message = refused(capsys, root, "u.trec", b"q1 Q0 d1 1 1_000 s\n", 1)
    assert message == "score '1_000' is not a number"


def test_rank_of_ten_to_the_thirty_and_negative_rank(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    """0.1.0: exit 0, the rank column ignored (kept: trec_eval orders by score, then doc id)."""
    data = b"q1 Q0 d1 1000000000000000000000000000000 2 s\nq1 Q0 d2 -5 1 s\n"
    accepted(capsys, root, "rank.trec", data)


def test_empty_lines_between_rows(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 0, blank lines skipped (kept)."""
    accepted(capsys, root, "blank.trec", b"\n\nq1 Q0 d1 1 2 s\n \t\n\nq1 Q0 d2 2 1 s\n\n")


def test_nul_byte_in_document_id(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 0, ``d\\x002`` taken as a document id (unjudged: 'retrieves outside the
    pool'). Now an id with a control character is refused, naming the line."""
    message = refused(capsys, root, "nul.trec", b"q1 Q0 d1 1 2 s\nq1 Q0 d\x002 2 1 s\n", 2)
    assert message == "document id 'd\\x002' holds the control character U+0000"


def test_utf8_byte_order_mark(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 0, the mark dropped on the fast path (kept, on both readers)."""
    accepted(capsys, root, "bom.trec", b"\xef\xbb\xbf" + GOOD)
    accepted(capsys, root, "bomc.trec", b"\xef\xbb\xbf# comment\n" + GOOD)


def test_invalid_utf8_in_document_id(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``badutf8.trec:2: not valid UTF-8 (invalid start byte)``; now the
    message says which field."""
    message = refused(capsys, root, "u8.trec", b"q1 Q0 d1 1 2 s\nq1 Q0 d\xff2 2 1 s\n", 2)
    assert message == "document id is not valid UTF-8 (invalid start byte)"


def test_crlf_and_lone_cr_line_breaks(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 0 for CRLF (kept). A lone CR is a line break, as pyarrow's reader (the
    fast path) counts it, so both readers see the same rows."""
    accepted(capsys, root, "crlf.trec", GOOD.replace(b"\n", b"\r\n"))
    accepted(capsys, root, "cr.trec", b"# c\r" + GOOD.replace(b"\n", b"\r"))
    message = refused(capsys, root, "crdup.trec", b"q1 Q0 d1 1 2 s\rq1 Q0 d1 2 1 s\n", 2)
    assert message == "document 'd1' appears twice for question 'q1' (lines 1 and 2)"


def test_duplicate_document_names_both_lines(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    """0.1.0: exit 1, ``dup.trec:3: document 'd1' appears twice for question 'q1' (lines 1 and
    3)`` (kept)."""
    data = b"q1 Q0 d1 1 2 s\nq1 Q0 d2 2 1 s\nq1 Q0 d1 3 0 s\n"
    message = refused(capsys, root, "dup.trec", data, 3)
    assert message == "document 'd1' appears twice for question 'q1' (lines 1 and 3)"


def test_duplicate_past_the_head_on_the_fast_path(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    """0.1.0: exit 1 naming both lines, after reading the whole file twice (kept; the line
    reader streams and stops at the duplicate)."""
    rows = b"".join(b"x%d Q0 d%d 1 1 s\n" % (i, i) for i in range(20_000))
    data = GOOD + rows + b"q1 Q0 d2 9 0 s\n" + rows
    message = refused(capsys, root, "late.trec", data, 20_003)
    assert message == "document 'd2' appears twice for question 'q1' (lines 2 and 20003)"


def test_fields_after_the_sixth_are_ignored(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``expected 6 fields ..., found 7``. trec_eval ignores them: now so do we,
    on the fast path (every line 7 fields) and the careful one (mixed counts)."""
    accepted(capsys, root, "seven.trec", b"q1 Q0 d1 1 2 s x\nq1 Q0 d2 2 1 s x\n")
    accepted(capsys, root, "mixed.trec", b"q1 Q0 d1 1 2 s\nq1 Q0 d2 2 1 s x y z\n")


def test_five_fields(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``five.trec:2: expected 6 fields `qid Q0 docid rank score tag`, found
    5`` (kept)."""
    message = refused(capsys, root, "five.trec", b"q1 Q0 d1 1 2 s\nq1 Q0 d2 2 1\n", 2)
    assert message == "expected 6 fields `qid Q0 docid rank score tag`, found 5"


def test_line_longer_than_a_mebibyte(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 0, a 2 MiB document id kept in memory and scored as unjudged. Now a line
    over 1 MiB is refused before it is held whole."""
    data = GOOD + b"q1 Q0 " + b"x" * (2 << 20) + b" 3 0 s\n"
    message = refused(capsys, root, "long.trec", data, 3)
    assert message == "line longer than 1 MiB (not a run file?)"


def test_truncated_gzip(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``not a valid gzip file: Compressed file ended before the end-of-stream
    marker was reached`` (kept)."""
    data = gzip.compress(b"".join(b"q1 Q0 d%d 1 %d s\n" % (i, i) for i in range(20_000)))
    message = refused(capsys, root, "t.trec.gz", data[:-20], None)
    assert message == (
        "not a valid gzip file: Compressed file ended before the end-of-stream marker was reached"
    )


def test_truncated_gzip_error_on_an_earlier_line_first(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    """0.1.0: exit 1 naming the gzip, not the bad line before the cut. The first problem in
    file order is named now."""
    rows = b"".join(b"q1 Q0 d%d 1 %d s\n" % (i, i) for i in range(20_000))
    data = gzip.compress(rows + b"q1 Q0 x 1 high s\n" + rows.replace(b"Q0 d", b"Q0 e"))
    message = refused(capsys, root, "te.trec.gz", data[:-20], 20_001)
    assert message == "score 'high' is not a number"


def test_gzip_magic_then_garbage(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``not a valid gzip file: ...`` (kept)."""
    data = b"\x1f\x8b" + bytes(range(256)) * 2
    message = refused(capsys, root, "g.trec.gz", data, None)
    assert message.startswith("not a valid gzip file: ")


def test_gzip_bomb_of_blank_lines(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``:1: empty run file`` after holding the 64 MiB (kept, read in blocks:
    blank blocks are skipped without a Python loop)."""
    message = refused(capsys, root, "b.trec.gz", gzip.compress(b"\n" * (64 << 20)), 1)
    assert message == "empty run file (no ranked documents)"


def test_gzip_bomb_of_one_blank_line(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``:1: empty run file``. Kept (a blank line is never held whole)."""
    message = refused(capsys, root, "s.trec.gz", gzip.compress(b" " * (32 << 20)), 1)
    assert message == "empty run file (no ranked documents)"


def test_jsonl_nested_too_deeply(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 70, ``internal error: RecursionError``. Now exit 1 naming the line."""
    deep = b"[" * 100_000 + b"]" * 100_000
    data = b'{"qid": "q1", "doc_id": "d1", "score": 1}\n{"qid": "q1", "score": ' + deep + b"}\n"
    message = refused(capsys, root, "deep.jsonl", data, 2)
    assert message == "bad JSON: nested too deeply"


def test_jsonl_integer_score_beyond_a_float(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, the 401-digit score printed whole. Now shortened."""
    data = b'{"qid": "q1", "doc_id": "d1", "score": 1' + b"0" * 400 + b"}\n"
    message = refused(capsys, root, "big.jsonl", data, 1)
    assert message == f"score {'1' + '0' * 59}... is not a finite number"


def test_jsonl_integer_over_python_digit_limit(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    """0.1.0: exit 1 (``bad JSON``) for a 5,000-digit integer (kept)."""
    data = b'{"qid": "q1", "doc_id": "d1", "score": 1' + b"0" * 5000 + b"}\n"
    message = refused(capsys, root, "huge.jsonl", data, 1)
    assert message.startswith("bad JSON: Exceeds the limit (4300 digits)")


def test_jsonl_boolean_score_and_nested_id(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1 for both, naming line 1 (kept)."""
    data = b'{"qid": "q1", "doc_id": "d1", "score": true}\n'
    assert refused(capsys, root, "bool.jsonl", data, 1) == "score True is not a number"
    data = b'{"qid": "q1", "doc_ids": [["d1"]]}\n'
    assert refused(capsys, root, "nest.jsonl", data, 1) == "doc_ids item ['d1'] is not a string"


def test_jsonl_control_character_in_id(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 0, an ESC inside a JSON doc id kept. Now refused as in TREC files."""
    data = b'{"qid": "q1", "doc_id": "d\\u001b[31m", "score": 1}\n'
    message = refused(capsys, root, "esc.jsonl", data, 1)
    assert message == "doc_id 'd\\x1b[31m' holds the control character U+001B"


def test_random_bytes_never_crash(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: not measured. Random bytes (seeded) are refused with exit 1, never exit 70."""
    data = os.urandom(0) or bytes((i * 7919 + 13) % 256 for i in range(100_000))
    code, _, err, path = score(capsys, root, "noise.trec", data)
    assert code == 1, err
    assert err.startswith(f"error: {path}:")


def test_short_truncated_gzip(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """0.1.0: exit 1, ``not a valid gzip file`` (kept: a gzip cut inside its first 64 KiB is
    not taken for a whole short file)."""
    data = gzip.compress(GOOD * 1)[:-12]
    message = refused(capsys, root, "short.trec.gz", data, None)
    assert message.startswith("not a valid gzip file: ")
