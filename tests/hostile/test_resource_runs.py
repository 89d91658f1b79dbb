"""Run files that would exhaust memory or time: read in blocks, stopped at the first error.

The peak memory is the child process's (``resource.getrusage(RUSAGE_CHILDREN)`` taken in a
fresh intermediate process whose only child is ``labelpool score``, so no earlier child of
the test run counts).
"""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

from tests.hostile.cited import check_cited
from tests.hostile.runs_scenario import label_repo

MEASURE = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps([done.returncode, done.stderr.decode(), peak]))
"""
MIB = 1 << 20


def score_in_child(root: Path, run: Path) -> tuple[int, str, int]:
    """(exit code, stderr, peak RSS in bytes) of ``labelpool score RUN`` in a child."""
    command = [
        sys.executable,
        "-c",
        "import sys; from labelpool.cli import main; sys.exit(main())",
        "score",
        str(run),
        "--repo",
        str(root),
    ]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], capture_output=True, check=True, text=True
    )
    code, err, peak = json.loads(out.stdout)
    check_cited(err, repo=root)  # every position it cites exists
    return int(code), str(err), int(peak)


def gzip_of_repeated(path: Path, line: bytes, total: int) -> Path:
    """A gzip file expanding to ``total`` bytes of ``line`` repeated (written in blocks)."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    block = line * (MIB // len(line))
    with path.open("wb") as handle:
        for _ in range(total // len(block)):
            handle.write(packer.compress(block))
        handle.write(packer.flush())
    return path


def test_gzip_of_200_mb_of_one_line(tmp_path: Path) -> None:
    """0.1.0: 1.5 GB of one repeated line peaked at 10.9 GB before naming the duplicate on line
    2 (the whole file decompressed, parsed, then split into Python lines). Now the first
    64 KiB are read by the line reader first: the duplicate on line 2, under 300 MiB."""
    root = label_repo(tmp_path)
    run = gzip_of_repeated(root / "runs" / "bomb.trec.gz", b"q1 Q0 d1 1 2.5 sys\n", 200 * MIB)
    code, err, peak = score_in_child(root, run)
    assert code == 1
    assert err == f"error: {run}:2: document 'd1' appears twice for question 'q1' (lines 1 and 2)\n"
    assert peak < 300 * MIB, peak / MIB


def test_gzip_of_200_mb_without_a_line_break(tmp_path: Path) -> None:
    """0.1.0: exit 0 after holding the 200 MB line (it found 6 fields in it). Now the line
    is refused once it passes 1 MiB, under 300 MiB."""
    root = label_repo(tmp_path)
    run = gzip_of_repeated(root / "runs" / "oneline.trec.gz", b"q1 Q0 d1 1 2.5 sys ", 200 * MIB)
    code, err, peak = score_in_child(root, run)
    assert code == 1
    assert err == f"error: {run}:1: line longer than 1 MiB (not a run file?)\n"
    assert peak < 300 * MIB, peak / MIB


def test_gzip_of_200_mb_of_blank_lines(tmp_path: Path) -> None:
    """0.1.0: exit 1, ``:1: empty run file``, holding the whole content and every line. Now
    blank blocks are counted, not split: the same error, under 300 MiB."""
    root = label_repo(tmp_path)
    run = gzip_of_repeated(root / "runs" / "blank.trec.gz", b" \n", 200 * MIB)
    code, err, peak = score_in_child(root, run)
    assert code == 1
    assert err == f"error: {run}:1: empty run file (no ranked documents)\n"
    assert peak < 300 * MIB, peak / MIB
