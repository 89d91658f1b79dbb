"""Hostile label files read by every command: one reading, the same outcome everywhere.

Each case is one label file (``tests/hostile/reading_cases.py``) in a committed repository:
an ambiguous plain scalar (PyYAML's YAML 1.1 and ruamel's YAML 1.2 read it differently) in
one position (question id, doc ids, verdicts, grades, question text, pool), a directive, a
tag, an anchor, a collection as a key, a byte-order mark. ``validate``, ``score`` and (for a
file with a pending batch) ``merge`` all refuse it with one and the same error, exit 1, at
the same ``path:line:col``, and nothing is written or committed. Each docstring says what
0.1.0 did with the same bytes (its ``validate``, ``score -m P@10 --format csv`` and
``merge``): where it read a scalar two ways, a verdict was lost.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.hostile.cited import check_cited
from tests.hostile.reading_cases import BY_NAME, build_repo, git

from labelpool.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    check_cited(out.out, out.err)  # every position it cites exists
    return code, out.out, out.err


def lp021(where: str, text: str, key: bool = False) -> str:
    """validate's LP021 finding for the plain scalar ``text`` at ``where``."""
    return (
        f"LP021 {where}{' (key)' if key else ''}: plain {text} is read as a non-string by YAML "
        f"1.1 or 1.2 readers; quote it ('{text}') or run `labelpool fmt`"
    )


HINT = " (`labelpool validate` lists every problem)"


def refused_alike(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    name: str,
    place: str,
    error: str,
    hint: str = "",
) -> None:
    """validate, score and merge (with a pending batch) refuse the case with ``error`` at
    ``labels/<file>:<place>`` (score adds that validate lists every problem of a file a rule
    refuses, merge too when the schema, not the reading, refused it: ``hint``): exit 1,
    nothing written, nothing committed."""
    case = BY_NAME[name]
    root = build_repo(tmp_path, case)
    path = root / "labels" / case.file
    before, head = path.read_bytes(), git(root, "rev-parse", "HEAD")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code, out, err = run(capsys, "validate")
    finally:
        os.chdir(cwd)
    assert code == 1, err
    assert out.splitlines()[0] == f"labels/{case.file}:{place}: {error}", out
    code, out, err = run(capsys, "score", str(root / "runs" / "sys.trec"), "--repo", str(root))
    score_hint = HINT if error.startswith(("LP021", "LP039")) else ""  # validate's rules
    assert (code, out, err) == (1, "", f"error: {path}:{place}: {error}{score_hint}\n")
    if case.pending:
        code, out, err = run(capsys, "merge", "--repo", str(root))
        assert (code, out, err) == (1, "", f"error: {path}:{place}: {error}{hint}\n")
    assert path.read_bytes() == before
    assert git(root, "rev-parse", "HEAD") == head
    assert git(root, "status", "--porcelain") == ""


def test_verdict_doc_0o17(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """the hostile case: a verdict on doc id ``0o17``. 0.1.0: validate exit 1 (LP021), but
    score exit 0 and merge exit 0, folding the verdict as doc '15' (ruamel's YAML 1.2 reading)
    into relevant_doc_ids and judged_ids and adding the pool entry: the verdict on 0o17 was
    lost."""
    refused_alike(
        capsys, tmp_path, "verdict_doc_0o17", "19:15", lp021("pending[0].docs[0].doc", "0o17")
    )


def test_verdict_doc_0x1f(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate, score and merge exit 1 at 19:15 (PyYAML read 31, which the schema
    refused); kept."""
    refused_alike(
        capsys, tmp_path, "verdict_doc_0x1F", "19:15", lp021("pending[0].docs[0].doc", "0x1F")
    )


def test_verdict_doc_017(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: exit 1 everywhere at 19:15 (PyYAML read octal 15, ruamel 17); kept."""
    refused_alike(
        capsys, tmp_path, "verdict_doc_017", "19:15", lp021("pending[0].docs[0].doc", "017")
    )


def test_verdict_doc_1_000(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: exit 1 everywhere at 19:15 (PyYAML read 1000); kept."""
    refused_alike(
        capsys, tmp_path, "verdict_doc_1_000", "19:15", lp021("pending[0].docs[0].doc", "1_000")
    )


def test_verdict_doc_1e3(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1, score exit 0, merge exit 0 folding doc '1000.0' (ruamel's
    float) into both lists: the verdict on 1e3 was lost."""
    refused_alike(
        capsys, tmp_path, "verdict_doc_1e3", "19:15", lp021("pending[0].docs[0].doc", "1e3")
    )


def test_verdict_yes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 19:28 (LP021), merge exit 1 at 19:1 with `verdict
    'yes' is not relevant, irrelevant, a grade or duplicate-of`: three messages for one
    scalar."""
    refused_alike(
        capsys, tmp_path, "verdict_yes", "19:28", lp021("pending[0].docs[0].verdict", "yes")
    )


def test_verdict_plus_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1, score exit 0, merge exit 1 with `12:1: the pending block
    changed in a rewrite`."""
    refused_alike(
        capsys, tmp_path, "verdict_plus_one", "19:28", lp021("pending[0].docs[0].verdict", "+1")
    )


def test_verdict_duplicate_of_0o17(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1, score exit 0, merge left it pending as `duplicate-of 15: 15 is
    not judged` (the 1.2 reading of 0o17)."""
    refused_alike(
        capsys,
        tmp_path,
        "verdict_duplicate_of_0o17",
        "19:43",
        lp021("pending[0].docs[0].verdict.duplicate-of", "0o17"),
    )


def test_verdict_doc_tilde(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: exit 1 everywhere at 19:15 (null in every reader); kept."""
    refused_alike(
        capsys,
        tmp_path,
        "verdict_doc_tilde",
        "19:15",
        "LP021 pending[0].docs[0].doc: plain ~ is read as a non-string; quote it ('~') or run "
        "`labelpool fmt`",
        HINT,
    )


def test_judged_no(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 8:5 (PyYAML read False); kept."""
    refused_alike(capsys, tmp_path, "judged_no", "8:5", lp021("judged_ids[2]", "no"))


def test_judged_0x1f(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 7:5 (LP021, then LP028 on the 1.2 string); kept."""
    refused_alike(capsys, tmp_path, "judged_0x1F", "7:5", lp021("judged_ids[1]", "0x1F"))


def test_relevant_017(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 4:5; kept."""
    refused_alike(capsys, tmp_path, "relevant_017", "4:5", lp021("relevant_doc_ids[0]", "017"))


def test_judged_sexagesimal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 7:5 (PyYAML read 750); kept."""
    refused_alike(capsys, tmp_path, "judged_sexagesimal", "7:5", lp021("judged_ids[1]", "12:30"))


def test_judged_date(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 7:5 (PyYAML read a date); kept."""
    refused_alike(capsys, tmp_path, "judged_date", "7:5", lp021("judged_ids[1]", "2026-06-02"))


def test_question_id_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 1:5 (PyYAML read True); kept."""
    refused_alike(capsys, tmp_path, "question_id_on", "1:5", lp021("id", "on"))


def test_question_text_yes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 2:11; kept."""
    refused_alike(capsys, tmp_path, "question_text_yes", "2:11", lp021("question", "yes"))


def test_grade_key_off(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 13:3 (a False key); kept."""
    refused_alike(capsys, tmp_path, "grade_key_off", "13:3", lp021("grades.off", "off", key=True))


def test_grade_inf(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 13:7; kept."""
    refused_alike(capsys, tmp_path, "grade_inf", "13:7", lp021("grades.d1", ".inf"))


def test_grade_1e1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 13:7 (a string to PyYAML, 10.0 to ruamel); kept."""
    refused_alike(capsys, tmp_path, "grade_1e1", "13:7", lp021("grades.d1", "1e1"))


def test_pool_date_unquoted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 11:11; kept."""
    refused_alike(
        capsys, tmp_path, "pool_date_unquoted", "11:11", lp021("pool[0].date", "2026-06-02")
    )


def test_pool_date_impossible(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1 with LP021 at 11:11, score exit 1 with another message, `LP015
    invalid date '2026-02-30': day is out of range for month`."""
    refused_alike(
        capsys, tmp_path, "pool_date_impossible", "11:11", lp021("pool[0].date", "2026-02-30")
    )


def test_pool_k_0x10(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1 (LP021), score exit 0 with the pool read as k=16 by PyYAML
    (ruamel's editor read the string '0x10')."""
    refused_alike(capsys, tmp_path, "pool_k_0x10", "10:8", lp021("pool[0].k", "0x10"))


def test_unknown_key_null_key(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1 (LP021), score exit 0."""
    refused_alike(
        capsys, tmp_path, "unknown_key_null_key", "13:3", lp021("notes.Null", "Null", key=True)
    )


def test_value_key_equals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1 (LP021), score exit 1 with `LP015 could not determine a
    constructor for the tag 'tag:yaml.org,2002:value'`."""
    refused_alike(capsys, tmp_path, "value_key_equals", "12:8", lp021("notes", "="))


def test_directive_yaml_1_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 1:1 (LP006); kept."""
    refused_alike(capsys, tmp_path, "directive_yaml_1_1", "1:1", "LP006 %YAML directive; remove it")


def test_tag_str(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate and score exit 1 at 7:5 (LP012); kept."""
    refused_alike(
        capsys, tmp_path, "tag_str", "7:5", "LP012 explicit tag tag:yaml.org,2002:str; remove it"
    )


def test_anchor_alias(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate (LP009 4:5, LP010 12:4) and score (LP009 4:5) exit 1; kept."""
    refused_alike(capsys, tmp_path, "anchor_alias", "4:5", "LP009 anchor &a; write the value out")


def test_collection_key(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0.1.0: validate exit 1 with LP039, score exit 1 with another message, `LP015 found
    unhashable key`."""
    refused_alike(
        capsys, tmp_path, "collection_key", "12:3", "LP039 a mapping key must be a scalar"
    )


def test_bom_then_0o17(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """a byte-order mark first (read line by line no more: the event pass) and the hostile
    verdict. 0.1.0: validate exit 1, score exit 0, merge exit 0 folding '15'."""
    refused_alike(
        capsys, tmp_path, "bom_then_0o17", "19:15", lp021("pending[0].docs[0].doc", "0o17")
    )


def test_quoted_0o17_is_merged_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The same verdict with its doc id quoted: every reader reads the string ``0o17``.
    0.1.0: validate exit 0, merge exit 0 folding '0o17' (kept)."""
    case = BY_NAME["quoted_0o17_is_fine"]
    root = build_repo(tmp_path, case)
    assert run(capsys, "validate", "--repo", str(root))[0] == 0
    code, _, err = run(capsys, "merge", "--repo", str(root))
    assert code == 0, err
    text = (root / "labels" / case.file).read_text(encoding="utf-8")
    assert "relevant_doc_ids:\n  - '0o17'\n  - d1\njudged_ids:\n  - '0o17'\n  - d1\n" in text
    assert "pending:" not in text and "  - system: sys\n    k: 10\n" in text
    assert git(root, "log", "-1", "--format=%an <%ae>") == "Judge <judge@example.com>"
