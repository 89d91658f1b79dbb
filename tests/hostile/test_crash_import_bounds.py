"""``import`` and ``add`` refuse, before writing anything, what ``validate`` would refuse for a
bound: a grade past LP042's, a label file past the size bound (LP001), a pool entry the
schema or LP042 refuses.

0.2.0-dev (issue 29, finding 3): ``import trec`` wrote a grade of 10^20 (``validate``: LP042)
and a label file of 5 MB from a long question (LP001), exit 0; ``--pool-date 2026-02-30``
and ``--pool-depth 2000000000`` were written too (LP020, LP042). Now each is refused naming
the input's file and line (the command-line option for an option), exit 1 (2 for an
option), and no label file is written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, make_repo

KIB = 1 << 10
MIB = 1 << 20


def _repo(tmp_path: Path, qrels: str, queries: str = "q1\tWhat?\n") -> Path:
    root = make_repo(tmp_path, {})
    (root / "in.qrels").write_text(qrels, encoding="utf-8")
    (root / "q.tsv").write_text(queries, encoding="utf-8")
    return root


def _labels(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "labels").iterdir())


@pytest.mark.parametrize(
    ("grade", "bound"),
    [
        ("100000000000000000000", "1000000"),
        ("1000001", "1000000"),
        ("-1000001", "-1000000"),
        ("-100000000000000000000", "-1000000"),
        ("1" + "0" * 5000, "1000000"),  # past Python's 4,300-digit int() limit
    ],
    ids=["1e20", "bound+1", "-bound-1", "-1e20", "5001-digits"],
)
def test_a_grade_past_the_bound_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], grade: str, bound: str
) -> None:
    """Before: exit 0 and ``grades: {d2: 100000000000000000000}`` written (LP042), or a
    negative one written as pooled-unjudged; the 5,001-digit grade was "not an integer"
    with all 5,001 digits quoted."""
    root = _repo(tmp_path, f"q1 0 d1 1\nq1 0 d2 {grade}\n")
    code, out, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert (code, out) == (1, "")
    shown = grade if len(grade) <= 60 else f"{grade[:60]}... ({len(grade):,} characters)"
    assert err == (
        f"error: in.qrels:2:9: grade {shown} is beyond the bound {bound} (LP042); nothing written\n"
    )
    assert _labels(root) == []


def test_grades_at_the_bound_are_imported_and_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, "q1 0 d1 1000000\nq1 0 d2 -1000000\nq1 0 d3 +2\n")
    code, _, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert code == 0, err
    assert "  d1: 1000000\n  d3: 2\n" in (root / "labels" / "q1.yaml").read_text()
    assert cli(capsys, root, "validate")[0] == 0


@pytest.mark.parametrize("grade", ["1_000", "\u0663", "1.0", "0x1F"])
def test_a_grade_trec_eval_would_not_read_as_written_is_not_an_integer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], grade: str
) -> None:
    """Before: Python's ``int()`` took ``1_000`` as 1000 and an Arabic-Indic three as 3,
    where trec_eval's ``atoi`` reads 1 and 0."""
    root = _repo(tmp_path, f"q1 0 d1 {grade}\n")
    code, _, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert code == 1
    assert err == f"error: in.qrels:1:9: grade {grade!r} is not an integer\n"
    assert _labels(root) == []


def test_judgments_making_a_label_file_past_4_mib_are_refused_at_the_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five document ids of 900 KiB (each line under the 1 MiB line bound): before, a
    4.6 MB label file was written (LP001). Now the question's first line is named, before
    the text is made."""
    qrels = "".join(f"q1 0 {'d' * (900 * KIB)}{i} 0\n" for i in range(5))
    root = _repo(tmp_path, qrels)
    code, out, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv")
    assert (code, out) == (1, "")
    least = 2 + 5 + 5 * (900 * KIB + 1)
    assert err == (
        f"error: in.qrels:1: question 'q1': its label file would have at least {least:,} "
        "bytes; the bound is 4,194,304 (LP001); nothing written\n"
    )
    assert _labels(root) == []


def test_a_question_text_of_5_mb_in_a_json_list_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON list of questions is read whole (it may be one long line): its 5 MB question
    passed into a 5 MB label file before (LP001)."""
    root = _repo(tmp_path, "q1 0 d1 1\n")
    text = "word " * MIB
    (root / "q.json").write_text(json.dumps([{"id": "q1", "text": text}]), encoding="utf-8")
    code, out, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.json")
    assert (code, out) == (1, "")
    size = len(text.strip())
    assert err == (
        f"error: in.qrels:1: question 'q1': its label file would have at least {size + 6:,} "
        f"bytes (the question text alone {size:,}); the bound is 4,194,304 (LP001); "
        "nothing written\n"
    )
    assert _labels(root) == []


def test_add_refuses_a_question_past_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the Python entry point an argument has no length limit: before, ``add`` wrote
    a 5 MB label file (LP001)."""
    root = make_repo(tmp_path, {})
    code, out, err = cli(capsys, root, "add", "q1", "x" * (5 * MIB))
    assert (code, out) == (2, "")
    assert err == (
        f"error: question 'q1': its label file would have at least {5 * MIB + 2:,} bytes "
        f"(the question text alone {5 * MIB:,}); the bound is 4,194,304 (LP001); "
        "nothing written\n"
    )
    assert _labels(root) == []


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--pool-date", "2026-02-30"], "--pool-date '2026-02-30': expected a date YYYY-MM-DD"),
        (
            ["--pool-depth", "2000000000"],
            "--pool-depth 2000000000: must be from 1 to 1000000000 (LP042)",
        ),
    ],
)
def test_a_pool_entry_validate_would_refuse_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str], message: str
) -> None:
    """Before: exit 0, then ``validate``: LP020 ``pool[0].date: '2026-02-30' is not a
    'date'`` or LP042 on ``k``."""
    root = _repo(tmp_path, "q1 0 d1 1\n")
    code, _, err = cli(capsys, root, "import", "trec", "in.qrels", "--queries", "q.tsv", *option)
    assert (code, err) == (2, f"error: {message}\n")
    assert _labels(root) == []
