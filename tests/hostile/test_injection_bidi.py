"""Injection, bidi channel: no name reorders what a reader sees.

U+202E (RIGHT-TO-LEFT OVERRIDE) makes ``evil<U+202E>txt.trec`` display as ``evilcert.txt``;
the isolates U+2066-9, the marks U+200E-F and U+061C, and the line and paragraph separators
U+2028-9 (a line break to some viewers, none to others) reach a terminal, a log or a rendered
page the same way. labelpool now shows each of them as ``\\uXXXX`` in text, tables and
markdown (where the backslash itself is escaped: ``\\\\u202e``).
"""

from __future__ import annotations

from pathlib import Path

from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import (
    BIDI,
    ISOLATE,
    SEPARATOR,
    Run,
    add_run,
    no_raw_control,
    refused_at_escape,
    small_repo,
)

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp

ROW = "58        46.0%  0.657"
MD_ROW = "| 58 | 46.0% | retrieves outside the pool | 0.657 · 0.745 · 0.967 |"


def only(text: str, needle: str) -> str:
    (line,) = [line for line in text.split("\n") if needle in line]
    return line


def test_score_table_right_to_left_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``│ evil\\u202etxt │ ...`` with the raw override: the row displayed as
    ``evil`` followed by everything after it reversed."""
    code, out, err = lp("score", "runs/bm25.trec", add_run(example, BIDI), "-m", "R@10")
    assert code == 0
    assert only(out, "evil\\u202etxt  ").split() == ["evil\\u202etxt", *ROW.split()]
    no_raw_control(out, err)


def test_score_table_line_separator(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the row held a raw U+2028, which editors and Python's splitlines()
    treat as a line break (the row broke in two for them)."""
    code, out, err = lp("score", "runs/bm25.trec", add_run(example, SEPARATOR), "-m", "R@10")
    assert code == 0
    assert only(out, "a\\u2028b  ").split() == ["a\\u2028b", *ROW.split()]
    no_raw_control(out, err)


def test_score_markdown_right_to_left_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| evil\\u202etxt | 58 | ...`` with the raw override in the pull-request
    comment."""
    run = add_run(example, BIDI)
    code, out, err = lp("score", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "evil") == f"| evil\\\\u202etxt {MD_ROW}"
    no_raw_control(out, err)


def test_compare_text_right_to_left_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``evil\\u202etxt vs bm25: R@10 (58 questions)`` with the raw override
    (and in the table row and the verdict's pool command)."""
    code, out, err = lp("compare", "runs/bm25.trec", add_run(example, BIDI), "-m", "R@10")
    assert code == 0
    assert only(out, " vs bm25").startswith("evil\\u202etxt vs bm25 (baseline), 58 questions")
    assert "runs/evil\\u202etxt.trec' --depth 10" in only(out, "next: labelpool pool")
    no_raw_control(out, err)


def test_compare_markdown_line_separator(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the markdown escaper split on whitespace, so U+2028 became a space:
    ``- a b vs bm25, R@10: pooled at k >= 10 on bm25: 58, a b: 0 of 58 questions; ...`` (the
    name changed, not shown)."""
    run = add_run(example, SEPARATOR)
    code, out, err = lp("compare", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "pooled at k").startswith(
        "- a\\\\u2028b vs bm25, R@10: pooled at k >= 10 on bm25: 58, a\\\\u2028b: 0 of 58 "
        "questions;"
    )
    no_raw_control(out, err)


def test_pool_info_text_isolates(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``  a\\u2066b\\u2069c  2/2  k=3 on 2 ...`` with the raw isolates (the
    column of names misaligned and reordered). The label wrote them as escapes
    (``"a\\u2066b\\u2069c"``); since issue 29 the file is refused there (LP004)."""
    repo = small_repo(tmp_path / "r", ISOLATE)
    result = lp("pool-info", "--repo", str(repo))
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:15", "U+2066", "\\u2066")


def test_pool_markdown_right_to_left_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the pull-request description held the raw override three times
    (``## Judging batch `...-bm25+evil\u202etxt@3```, ``Pooled **bm25, evil\u202etxt**``, the
    table row), and the batch it wrote failed LP004 afterwards. Now pool refuses the batch
    name before writing (section 5), in one line that names U+202E without printing it."""
    run = add_run(example, BIDI)
    code, out, err = lp(
        "pool", "runs/bm25.trec", run, "--depth", "3", "--no-commit", "--questions",
        "acme-returns", "--format", "markdown",
    )  # fmt: skip
    assert code == 1 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "U+202E" in err
    no_raw_control(out, err)


def test_bias_markdown_right_to_left_override(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| evil\\u202etxt | 3 | 1 | 2 | 0.5000 | ...`` and ``Without
    evil\\u202etxt's own judgments:`` with the raw override. The label wrote it as an escape;
    since issue 29 the file is refused there (LP004)."""
    repo = small_repo(tmp_path / "r", BIDI)
    result = lp("bias", "--repo", str(repo), "-m", "P@2", "--k", "2", "--format", "markdown")
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:18", "U+202E", "\\u202e")


def test_validate_finding_path_with_an_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 1; ``labels/evil\\u202etxt.yaml:1:5: LP022 id: other does not match the file
    name evil\\u202etxt; ...`` with the raw override twice."""
    (example / "labels" / f"{BIDI}.yaml").write_text(
        "id: other\nquestion: Q?\nrelevant_doc_ids: []\njudged_ids: []\n", encoding="utf-8"
    )
    code, out, err = lp("validate", "labels")
    assert code == 1
    assert only(out, "evil") == (
        "labels/evil\\u202etxt.yaml:1:5: LP022 id: other does not match the file name "
        "evil\\u202etxt; rename the file to other.yaml or fix the id"
    )
    no_raw_control(out, err)
