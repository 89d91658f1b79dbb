"""Injection, rich channel: rich never reads a name as markup.

rich interprets ``[red]``, ``[bold]``, ``[link=...]`` in any string it prints. A run file named
``[red]alert.trec`` printed as ``alert`` (the tag swallowed, the colour applied); a name could
hide part of itself or restyle the rest of a line. labelpool now hands names to rich as
``Text`` (never parsed) or escaped with ``rich.markup.escape``.
"""

from __future__ import annotations

from pathlib import Path

from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import MARKUP, Run, add_run, no_raw_control, small_repo

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp

ROW = "58        46.0%  0.657"


def only(text: str, needle: str) -> str:
    (line,) = [line for line in text.split("\n") if needle in line]
    return line


def test_score_table_markup_shown_as_written(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the row read ``│ alert  │      58 │ ...``: the tag was swallowed."""
    code, out, err = lp("score", "runs/bm25.trec", add_run(example, MARKUP), "-m", "R@10")
    assert code == 0
    assert only(out, "alert  ") == f"[red]alert         {ROW}"
    no_raw_control(out, err)


def test_score_per_question_title_markup(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the per-question table's title read ``alert: per question (raw)``."""
    code, out, err = lp("score", add_run(example, MARKUP), "-m", "R@10", "--per-query")
    assert code == 0
    assert only(out, "per question").strip() == "[red]alert: per question"
    no_raw_control(out, err)


def test_compare_text_heading_markup(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the heading read ``alert vs bm25: R@10 (58 questions)`` and the table
    row ``alert  0.657 ...``."""
    code, out, err = lp("compare", "runs/bm25.trec", add_run(example, MARKUP), "-m", "R@10")
    assert code == 0
    assert only(out, " vs bm25") == (
        "[red]alert vs bm25 (baseline), 58 questions; p: sign-flip test, monte-carlo, Holm"
    )
    assert only(out, "measure  ") == (
        "measure   bm25  [red]alert   delta  unjudged     p  reading          verdict"
    )
    no_raw_control(out, err)


def test_compare_text_verdict_markup(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the verdict's pool command read ``... runs/bm25.trec runs/alert.trec
    --depth 10)``: a command that names no existing file. Now the next step names the file,
    shell-quoted (it runs as printed)."""
    code, out, err = lp("compare", "runs/bm25.trec", add_run(example, MARKUP), "-m", "R@10")
    assert code == 0
    assert only(out, "labelpool pool") == (
        "next: labelpool pool runs/bm25.trec 'runs/[red]alert.trec' --depth 10"
    )
    no_raw_control(out, err)


def test_check_text_link_markup(example: Path, lp: Run) -> None:
    """0.1.0: exit 3; a run named ``[link=https:evil.invalid]click`` printed as ``click vs
    click@runs/bm25.trec: R@10 (58 questions)``: on a terminal that supports hyperlinks the
    name became a link to evil.invalid, and the verdict's pool command named ``runs/click.trec``,
    a file that does not exist."""
    name = "[link=https:evil.invalid]click"
    run = add_run(example, name)
    code, out, err = lp("check", run, "--against", "runs/bm25.trec", "-m", "R@10")
    assert code == 3, err
    assert only(out, "(baseline)").startswith(f"{name} vs {name}@runs/bm25.trec (baseline), 58")
    assert (
        only(out, "next: ") == f"next: labelpool pool runs/bm25.trec 'runs/{name}.trec' --depth 10"
    )
    no_raw_control(out, err)


def test_bias_text_markup(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; the headline read ``pooled: bm25, alert``, the title ``without alert's
    own judgments`` and the rows ``│ alert    │ ...``."""
    repo = small_repo(tmp_path / "r", MARKUP)
    code, out, err = lp("bias", "--repo", str(repo), "-m", "P@2", "--k", "2")
    assert code == 0
    lines = out.split("\n")
    assert lines[0] == (
        "Leave-one-system-out pool bias, P@2 (unjudged rate at 2); pooled: bm25, [red]alert"
    )
    assert "without [red]alert's own judgments" in lines
    assert only(out, "[red]alert (left out)").startswith("[red]alert (left out)  0.5000   0.2500")
    no_raw_control(out, err)
