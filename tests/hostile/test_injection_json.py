"""Injection, JSON channel: every JSON output is ASCII.

``json.dumps(..., ensure_ascii=False)`` (0.1.0's score, history, pool-info and diff) escapes C0
controls but writes C1 controls, bidi overrides and U+2028/U+2029 raw: a ``jq`` on a terminal,
a log viewer or a JavaScript consumer before ES2019 then meets them. labelpool now writes
every JSON document with ``ensure_ascii=True``: ``\\u202e``, ``\\u2028``, ``\\u009b``; the
values read back unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import (
    BIDI,
    CSI,
    ESC,
    SEPARATOR,
    Run,
    add_run,
    commit_all,
    no_raw_control,
    refused_at_escape,
    small_repo,
)

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp


def systems(out: str) -> list[str]:
    return [line.strip() for line in out.split("\n") if line.strip().startswith('"system": ')]


def test_score_json_right_to_left_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"system": "evil\\u202etxt",`` with the raw U+202E (ensure_ascii off)."""
    code, out, err = lp("score", add_run(example, BIDI), "-m", "R@10", "--format", "json")
    assert code == 0 and out.isascii()
    assert systems(out) == ['"system": "evil\\u202etxt",']
    assert json.loads(out)["systems"][0]["run"] == f"runs/{BIDI}.trec"
    no_raw_control(out, err)


def test_score_json_line_separator(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"system": "a\\u2028b",`` with the raw U+2028: valid JSON, but a line
    break to JavaScript before ES2019 and to line-oriented tools."""
    code, out, err = lp("score", add_run(example, SEPARATOR), "-m", "R@10", "--format", "json")
    assert code == 0 and out.isascii()
    assert systems(out) == ['"system": "a\\u2028b",']
    assert json.loads(out)["systems"][0]["system"] == SEPARATOR
    no_raw_control(out, err)


def test_score_json_c1_control(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"system": "\\x9b31mred",`` with the raw C1 CSI (only C0 was
    escaped)."""
    code, out, err = lp("score", add_run(example, CSI), "-m", "R@10", "--format", "json")
    assert code == 0 and out.isascii()
    assert systems(out) == ['"system": "\\u009b31mred",']
    no_raw_control(out, err)


def test_compare_json_escape_sequence(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"challenger": "\\u001b[31mred",`` (compare's JSON was ASCII already:
    kept so)."""
    run = add_run(example, ESC)
    code, out, err = lp("compare", "runs/bm25.trec", run, "-m", "R@10", "--format", "json")
    assert code == 0 and out.isascii()
    assert '      "challenger": "\\u001b[31mred",' in out.split("\n")
    assert json.loads(out)["comparisons"][0]["challenger"] == ESC
    no_raw_control(out, err)


def test_pool_info_json_right_to_left_override(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"system": "evil\\u202etxt",`` and ``"fair"``/``"born_from"`` lists
    with the raw U+202E. The label wrote it as an escape; since issue 29 the file is refused
    there (LP004)."""
    repo = small_repo(tmp_path / "r", BIDI)
    result = lp("pool-info", "--repo", str(repo), "--format", "json")
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:18", "U+202E", "\\u202e")


def test_diff_json_question_text(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"after": "What about<U+2028><U+202E>q1?"`` with both characters raw
    (the raw U+2028 split the line for line-oriented readers). Since issue 29 the escaped
    U+202E is refused (LP004) where it is written; an escaped U+2028 is still a question's
    text (``test_history_json_judge_and_question``)."""
    repo = small_repo(tmp_path / "r", "dense")
    path = repo / "labels" / "q1.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "question: What about q1?", 'question: "What about\\u2028\\u202eq1?"'
        ),
        encoding="utf-8",
    )
    result = lp("diff", "HEAD", "--repo", str(repo), "--format", "json")
    refused_at_escape(result, f"{path}:2:28", "U+202E", "\\u202e")


def test_history_json_judge_and_question(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"author": "Eve<U+202E>lin",`` and the question text with a raw
    U+2028 (history's JSON had ensure_ascii off)."""
    repo = small_repo(tmp_path / "r", "dense")
    path = repo / "labels" / "q1.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("question: What about q1?", 'question: "What\\u2028about q1?"')
    path.write_text(text.replace("  - x2\n", "  - x2\n  - x3\n"), encoding="utf-8")
    commit_all(repo, "judge x3", env={"GIT_AUTHOR_NAME": "Eve\u202elin"})
    code, out, err = lp("history", "q1", "x3", "--repo", str(repo), "--format", "json")
    assert code == 0, err
    assert out.isascii()
    assert '  "text": "What\\u2028about q1?",' in out.split("\n")
    assert '    "author": "Eve\\u202elin",' in out.split("\n")  # text_changed
    data = json.loads(out)
    assert data["judgments"][0]["set_by"]["commit"]["author"] == "Eve\u202elin"
    no_raw_control(out, err)


def test_bias_json_right_to_left_override(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"system": "evil\\u202etxt",`` (bias's JSON was ASCII already). The
    label wrote it as an escape; since issue 29 the file is refused there (LP004)."""
    repo = small_repo(tmp_path / "r", BIDI)
    result = lp("bias", "--repo", str(repo), "-m", "P@2", "--k", "2", "--format", "json")
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:18", "U+202E", "\\u202e")


def test_validate_json_finding_path(example: Path, lp: Run) -> None:
    """0.1.0: exit 1; ``"path": "labels/evil\\u202etxt.yaml",`` (validate's JSON was ASCII
    already: kept so); the summary line on stderr had no name in it."""
    (example / "labels" / f"{BIDI}.yaml").write_text(
        "id: other\nquestion: Q?\nrelevant_doc_ids: []\njudged_ids: []\n", encoding="utf-8"
    )
    code, out, err = lp("validate", "labels", "--format", "json")
    assert code == 1 and out.isascii()
    assert '    "path": "labels/evil\\u202etxt.yaml",' in out.split("\n")
    (finding,) = json.loads(out)
    assert finding["message"] == (
        f"id: other does not match the file name {BIDI}; rename the file to other.yaml or fix "
        "the id"
    )
    no_raw_control(out, err)
