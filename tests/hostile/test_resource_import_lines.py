"""Input lines that would exhaust time and memory: ``import``'s line files (qrels, questions,
JSON Lines) are read with the run readers' line bound (1 MiB, :mod:`labelpool.textlines`).

0.2.0-dev (issue 29, finding 3): a qrels line holding a 50 MB document id took 130 s and
649 MB, then wrote a 100 MB label file. Now a line over the bound is refused at its number,
before it is held whole: the 50 MB line in a fraction of a second (the time is
``bench/run.py``'s figure), under 200 MiB. The peak memory is the child process's
(``resource.getrusage(RUSAGE_CHILDREN)`` taken in a fresh intermediate process whose only
child is ``labelpool import``, so no earlier child of the test run counts).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, make_repo

MIB = 1 << 20
MEASURE = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps([done.returncode, done.stderr.decode(), peak]))
"""


def _in_child(root: Path, *args: str) -> tuple[int, str, int]:
    """(exit code, stderr, peak RSS in bytes) of ``labelpool ARGS`` run in ``root``."""
    command = [sys.executable, "-c", "import sys; from labelpool.cli import main; sys.exit(main())"]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *command, *args],
        cwd=root,
        capture_output=True,
        check=True,
        text=True,
    )
    code, err, peak = json.loads(out.stdout)
    return int(code), str(err), int(peak)


def test_a_50_mb_qrels_line_is_refused_at_its_number_under_200_mib(tmp_path: Path) -> None:
    """Before: 130 s, 649 MB, a 100 MB label file written (exit 0)."""
    root = make_repo(tmp_path, {})
    with (root / "big.qrels").open("wb") as handle:
        handle.write(b"q1 0 d1 1\nq1 0 ")
        block = b"d" * MIB
        for _ in range(50):
            handle.write(block)
        handle.write(b" 1\n")
    (root / "q.tsv").write_text("q1\tWhat?\n", encoding="utf-8")
    code, err, peak = _in_child(root, "import", "trec", "big.qrels", "--queries", "q.tsv")
    assert code == 1
    assert err == "error: big.qrels:2:1: line longer than 1 MiB (not a qrels file?)\n"
    assert peak < 200 * MIB, peak / MIB
    assert list((root / "labels").iterdir()) == []


def _qrels(root: Path, long: str) -> list[str]:
    (root / "in.qrels").write_text(f"q1 0 d1 1\n\nq1 0 {long} 1\n", encoding="utf-8")
    (root / "q.tsv").write_text("q1\tWhat?\n", encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "q.tsv"]


def _tsv(root: Path, long: str) -> list[str]:
    (root / "in.qrels").write_text("q1 0 d1 1\n", encoding="utf-8")
    (root / "q.tsv").write_text(f"q0\tFine\n\nq1\t{long}\n", encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "q.tsv"]


def _queries_jsonl(root: Path, long: str) -> list[str]:
    (root / "in.qrels").write_text("q1 0 d1 1\n", encoding="utf-8")
    lines = json.dumps({"id": "q0", "text": "Fine"}) + "\n\n"
    (root / "q.jsonl").write_text(lines + json.dumps({"id": "q1", "text": long}) + "\n")
    return ["import", "trec", "in.qrels", "--queries", "q.jsonl"]


def _topics(root: Path, long: str) -> list[str]:
    (root / "in.qrels").write_text("q1 0 d1 1\n", encoding="utf-8")
    (root / "t.txt").write_text(f"<top>\n\n<num> q1\n<title> {long}\n</top>\n", encoding="utf-8")
    return ["import", "trec", "in.qrels", "--queries", "t.txt"]


def _import_jsonl(root: Path, long: str) -> list[str]:
    first = json.dumps({"id": "q0", "question": "Fine", "relevant_doc_ids": ["d1"]})
    second = json.dumps({"id": "q1", "question": long, "relevant_doc_ids": ["d1"]})
    (root / "in.jsonl").write_text(f"{first}\n\n{second}\n", encoding="utf-8")
    return ["import", "jsonl", "in.jsonl"]


def _beir_qrels(root: Path, long: str) -> list[str]:
    (root / "beir" / "qrels").mkdir(parents=True)
    (root / "beir" / "queries.jsonl").write_text('{"_id": "q1", "text": "What?"}\n')
    qrels = f"query-id\tcorpus-id\tscore\n\nq1\t{long}\t1\n"
    (root / "beir" / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return ["import", "beir", "beir"]


CASES: list[tuple[Callable[[Path, str], list[str]], str]] = [
    (_qrels, "in.qrels:3:1: line longer than 1 MiB (not a qrels file?)"),
    (_tsv, "q.tsv:3:1: line longer than 1 MiB (not a questions file?)"),
    (_queries_jsonl, "q.jsonl:3:1: line longer than 1 MiB (not a questions file?)"),
    (_topics, "t.txt:4:1: line longer than 1 MiB (not a questions file?)"),
    (_import_jsonl, "in.jsonl:3:1: line longer than 1 MiB (not a JSON Lines file?)"),
    (_beir_qrels, "beir/qrels/test.tsv:3:1: line longer than 1 MiB (not a BEIR qrels file?)"),
]


@pytest.mark.parametrize(("build", "message"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_line_over_1_mib_is_refused_at_its_number(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    build: Callable[[Path, str], list[str]],
    message: str,
) -> None:
    """Before: the 3 MB line was read; a document id or question of 3 MB was written into
    a label file (a 3 MB or 6 MB file: LP001 past 4 MiB)."""
    root = make_repo(tmp_path, {})
    args = build(root, "w" * (3 * MIB))
    code, out, err = cli(capsys, root, *args)
    assert (code, out, err) == (1, "", f"error: {message}\n")
    assert list((root / "labels").iterdir()) == []


def test_a_line_just_under_the_bound_is_read_and_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bound refuses only what it must: a question of almost 1 MiB is a label file
    validate takes."""
    root = make_repo(tmp_path, {})
    args = _tsv(root, "word " * (MIB // 5 - 1))
    code, _, err = cli(capsys, root, *args)
    assert code == 0, err
    assert cli(capsys, root, "validate")[0] == 0
