"""Injection, CI channel: no name from a file starts a GitHub workflow command in the log.

The runner reads a line whose first non-blank characters are ``::`` as a command
(``::error::``, ``::add-mask::``, ``::stop-commands::``). A run file named
``x<LF>::error::forged.trec`` used to print its line break raw, so the rest of the name began a
line; a name starting with ``::`` began one by itself. labelpool now shows the line break as
``\\x0a`` and the first colon of a leading ``::`` as ``\\x3a``.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import (
    COMMAND,
    FORGE,
    LEGACY,
    Run,
    add_run,
    no_raw_control,
    small_repo,
    yaml_string,
)

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp


def only(text: str, needle: str) -> str:
    """The one line of ``text`` holding ``needle``."""
    (line,) = [line for line in text.split("\n") if needle in line]
    return line


def test_score_table_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the table row broke in two and a line began ``::error::forged``
    (``│ ::error::forged │         │ ...``)."""
    code, out, err = lp("score", "runs/bm25.trec", add_run(example, FORGE), "-m", "R@10")
    assert code == 0
    assert only(out, "forged  ").split() == ["x\\x0a::error::forged", "58", "46.0%", "0.657"]
    no_raw_control(out, err)


def test_score_markdown_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the markdown row broke in two, the second line
    ``::error::forged | 58 | 46.0% | ...``."""
    run = add_run(example, FORGE)
    code, out, err = lp("score", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "forged") == (
        "| x\\\\x0a::error::forged | 58 | 46.0% | retrieves outside the pool | "
        "0.657 · 0.745 · 0.967 |"
    )
    no_raw_control(out, err)


def test_score_csv_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; a quoted CSV cell holding the line break (``"x``): the row's second line
    began ``::error::forged",all,58,...``."""
    code, out, err = lp("score", add_run(example, FORGE), "-m", "R@10", "--format", "csv")
    assert code == 0
    assert out.split("\n")[1].startswith("x\\x0a::error::forged,all,58,0.46034482758620")
    no_raw_control(out, err)


def test_compare_text_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; three lines began ``::error::forged`` (the heading, the table row and
    the pool command of the verdict)."""
    code, out, err = lp("compare", "runs/bm25.trec", add_run(example, FORGE), "-m", "R@10")
    assert code == 0
    assert only(out, "forged vs").startswith("x\\x0a::error::forged vs bm25 (baseline), 58")
    assert only(out, "labelpool pool") == (
        "next: labelpool pool runs/bm25.trec 'runs/x\\x0a::error::forged.trec' --depth 10"
    )
    no_raw_control(out, err)


def test_compare_markdown_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the line break became a space (``x ::error::forged``), no command, but
    ESC and bidi characters passed (see test_injection_terminal)."""
    run = add_run(example, FORGE)
    code, out, err = lp("compare", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "pooled at k") == (
        "- x\\\\x0a::error::forged vs bm25, R@10: pooled at k >= 10 on bm25: 58, "
        "x\\\\x0a::error::forged: 0 of 58 questions; most changed: air-fryer-used (+1.00), "
        "initech-approval (-1.00), lamp-warranty (-1.00)"
    )
    no_raw_control(out, err)


def test_pool_info_text_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the list of runs the set cannot fairly compare broke, its second line
    ``::error::forged``."""
    add_run(example, FORGE)
    code, out, err = lp("pool-info")
    assert code == 0
    assert only(out, "runs in runs/") == (
        "runs in runs/ the set cannot fairly compare at k=10: dense, x\\x0a::error::forged"
    )
    no_raw_control(out, err)


def test_pool_text_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``::error::forged@3: systems bm25, x`` and ``::error::forged at depth
    3`` and ``::error::forged: 0.000`` began lines."""
    run = add_run(example, FORGE)
    code, out, err = lp(
        "pool", "runs/bm25.trec", run, "--depth", "3", "--no-commit", "--questions", "acme-returns"
    )
    assert code == 0
    today = dt.date.today().isoformat()
    assert out.split("\n")[0] == (
        f"batch {today}-bm25+x\\x0a::error::forged@3: systems bm25, x\\x0a::error::forged "
        "at depth 3"
    )
    assert "  x\\x0a::error::forged: 0.000" in out.split("\n")
    no_raw_control(out, err)


def test_bias_text_name_starting_a_command(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; the detail table of the other system ended with the row
    ``│ ::error::forged │ 0.5000 │ ...`` and the title ``without ::error::forged's own
    judgments`` began a line."""
    repo = small_repo(tmp_path / "r", COMMAND)
    code, out, err = lp("bias", "--repo", str(repo), "-m", "P@2", "--k", "2")
    assert code == 0
    lines = out.split("\n")
    # within a line ``::`` starts no workflow command; at a line's start it is broken
    assert "without ::error::forged's own judgments" in lines
    assert "\\x3a:error::forged  0.5000   0.5000  +0.0000  2 -> 1 (+1)      0.0%      0.0%" in lines
    no_raw_control(out, err)


def add_pool_entry(repo: Path, qid: str, system: str) -> None:
    """A pool entry for ``system`` appended to ``labels/<qid>.yaml`` (working tree only)."""
    path = repo / "labels" / f"{qid}.yaml"
    entry = f"  - system: {yaml_string(system)}\n    k: 3\n    date: '2026-06-02'\n"
    path.write_text(path.read_text(encoding="utf-8") + entry, encoding="utf-8")


def test_diff_text_pool_system_forges_no_command(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``  + pool x`` then a line ``::error::forged@3 on 2026-06-02``."""
    repo = small_repo(tmp_path / "r", "dense")
    add_pool_entry(repo, "q2", FORGE)
    code, out, err = lp("diff", "HEAD", "--repo", str(repo))
    assert code == 0
    assert out.split("\n")[1:3] == ["q2:", "  + pool x\\x0a::error::forged@3 on 2026-06-02"]
    no_raw_control(out, err)


def test_diff_markdown_pool_system_forges_no_command(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; the line break became a space: ``| q2 | + pool x ::error::forged&#64;3
    on 2026-06-02 |`` (no command, but the name was changed rather than shown)."""
    repo = small_repo(tmp_path / "r", "dense")
    add_pool_entry(repo, "q2", FORGE)
    code, out, err = lp("diff", "HEAD", "--repo", str(repo), "--format", "markdown")
    assert code == 0
    assert only(out, "| q2 |") == "| q2 | + pool x\\\\x0a::error::forged@3 on 2026-06-02 |"
    no_raw_control(out, err)


def test_score_error_names_a_forged_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 1; the error (printed without ``error:`` by score) broke at the line break
    and its second line began ``::error::forged.trec: no such run file ...``."""
    code, out, err = lp("score", "runs/nope\n::error::forged.trec")
    assert code == 1 and out == ""
    assert err.startswith(
        "error: runs/nope\\x0a::error::forged.trec: no such run file, and no run named so in "
    )
    assert err.count("\n") == 1
    no_raw_control(out, err)


def test_validate_finding_path_forges_no_command(example: Path, lp: Run) -> None:
    """0.1.0: exit 1; the LP022 finding broke twice, two lines beginning with a command:
    ``::error::forged.yaml:1:5: LP022 id: other does not match the file name x`` and
    ``::error::forged; rename the file to other.yaml or fix the id``."""
    bad = example / "labels" / "x\n::error::forged.yaml"
    bad.write_text("id: other\nquestion: Q?\nrelevant_doc_ids: []\njudged_ids: []\n")
    code, out, err = lp("validate", "labels")
    assert code == 1
    assert only(out, "forged") == (
        "labels/x\\x0a::error::forged.yaml:1:5: LP022 id: other does not match the file name "
        "x\\x0a::error::forged; rename the file to other.yaml or fix the id"
    )
    no_raw_control(out, err)


def test_pool_info_text_legacy_command_mid_line(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``runs in runs/ the set cannot fairly compare at k=10: dense,
    x##[error]forged``: the runner reads ``##[error]`` anywhere in a line (its legacy form),
    so the line became the error annotation ``forged``. (score's table hid it differently:
    rich took ``[error]`` for markup and printed ``x##forged``.)"""
    add_run(example, LEGACY)
    code, out, err = lp("pool-info")
    assert code == 0
    assert only(out, "runs in runs/") == (
        "runs in runs/ the set cannot fairly compare at k=10: dense, x#\\x23[error]forged"
    )
    no_raw_control(out, err)


def test_score_json_legacy_command_mid_line(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``"system": "x##[error]forged",``: a legacy command inside a JSON
    string, read by the runner when the JSON is printed in a log."""
    code, out, err = lp("score", add_run(example, LEGACY), "-m", "R@10", "--format", "json")
    assert code == 0
    assert '      "system": "x#\\u0023[error]forged",' in out.split("\n")
    assert json.loads(out)["systems"][0]["system"] == LEGACY
    no_raw_control(out, err)
