"""Injection, markdown channel: a name in a pull-request comment or job summary is text.

0.1.0 had four markdown escapers with four behaviours (and none for score's per-question
headings): HTML passed here, ``>`` there, ESC and bidi characters everywhere, a backtick
could close a code span. labelpool now writes every name through one sanitiser:
controls and bidi shown escaped, ``\\ ` * _ [ ] | ~ # !`` backslash-escaped, ``< > &`` as
entities, ``@`` as ``&#64;`` unless after a letter or digit (``R@10`` stays), and inside a code
span a backtick as ``'``.
"""

from __future__ import annotations

from pathlib import Path

from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import (
    ESC,
    HTML,
    PIPE_MENTION,
    Run,
    add_run,
    no_raw_control,
    refused_at_escape,
    small_repo,
    yaml_string,
)

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp

MD_ROW = "| 58 | 46.0% | retrieves outside the pool | 0.657 · 0.745 · 0.967 |"
HTML_MD = "&lt;img src=x onerror=alert(1)&gt;"


def only(text: str, needle: str) -> str:
    (line,) = [line for line in text.split("\n") if needle in line]
    return line


def test_score_markdown_html(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| <img src=x onerror=alert(1)> | 58 | ...``: raw HTML in the
    comment (score escaped only ``|``)."""
    run = add_run(example, HTML)
    code, out, err = lp("score", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "onerror") == f"| {HTML_MD} {MD_ROW}"
    no_raw_control(out, err)


def test_score_markdown_mention(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| a\\|b @team | 58 | ...``: the comment notified @team."""
    run = add_run(example, PIPE_MENTION)
    code, out, err = lp("score", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "team") == f"| a\\|b &#64;team {MD_ROW}"
    no_raw_control(out, err)


def test_score_markdown_per_question_heading(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the per-question heading was ``### <img src=x onerror=alert(1)>``, not
    escaped at all."""
    run = add_run(example, HTML)
    code, out, err = lp(
        "score", run, "-m", "R@10", "--per-query", "--format", "markdown"
    )  # fmt: skip
    assert code == 0
    assert f"### {HTML_MD}" in out.split("\n")
    no_raw_control(out, err)


def test_compare_markdown_escape_sequence(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``- **\\x1b[31mred vs bm25, R@10**: ...`` with the raw ESC (the escaper
    kept every control character)."""
    run = add_run(example, ESC)
    code, out, err = lp("compare", "runs/bm25.trec", run, "-m", "R@10", "--format", "markdown")
    assert code == 0
    assert only(out, "- **").startswith("- **\\\\x1b\\[31mred vs bm25, R@10**: uninterpretable:")
    assert "'runs/\\\\x1b\\[31mred.trec' --depth 10)" in only(out, "- **")  # shell-quoted
    no_raw_control(out, err)


def test_pool_info_markdown_escape_sequence(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| \\x1b\\[31mred | 2/2 | k=3 on 2 | 2026-06-02 | no |`` with the raw
    ESC. The label wrote it as an escape; since issue 29 the file is refused there (LP003)."""
    repo = small_repo(tmp_path / "r", ESC)
    result = lp("pool-info", "--repo", str(repo), "--format", "markdown")
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:14", "U+001B", "\\u001b")


def test_pool_markdown_backtick_in_a_name(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``Pooled **bm25, a`b** at depth **3** ...`` and ``| a`b | 0.000 |``:
    the raw backtick opened a code span that swallowed the rest of the description up to the
    next backtick."""
    run = add_run(example, "a`b")
    code, out, err = lp(
        "pool", "runs/bm25.trec", run, "--depth", "3", "--no-commit", "--questions",
        "acme-returns", "--format", "markdown",
    )  # fmt: skip
    assert code == 0, err
    lines = out.split("\n")
    assert lines[0].startswith("## Judging batch `") and lines[0].endswith("-bm25+a'b@3`")
    assert only(out, "Pooled") == f"Pooled **bm25, a\\`b** at depth **3** on {lines[0][18:28]}."
    assert "| a\\`b | 0.000 |" in lines
    no_raw_control(out, err)


def test_diff_markdown_pool_system_escape_sequence(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| q2 | + pool \\x1b\\[31mred&#64;3 on 2026-06-02 |`` with the raw
    ESC. The label wrote it as an escape; since issue 29 the file is refused there (LP003)."""
    repo = small_repo(tmp_path / "r", "dense")
    path = repo / "labels" / "q2.yaml"
    entry = f"  - system: {yaml_string(ESC)}\n    k: 3\n    date: '2026-06-02'\n"
    path.write_text(path.read_text(encoding="utf-8") + entry, encoding="utf-8")
    result = lp("diff", "HEAD", "--repo", str(repo), "--format", "markdown")
    refused_at_escape(result, f"{path}:17:14", "U+001B", "\\u001b")


def test_bias_markdown_greater_than(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``| a>b &lt;i> | 3 | 1 | ...``: bias's escaper left ``>`` alone."""
    repo = small_repo(tmp_path / "r", "a>b <i>")
    code, out, err = lp(
        "bias", "--repo", str(repo), "-m", "P@2", "--k", "2", "--format", "markdown"
    )
    assert code == 0
    lines = out.split("\n")
    assert "| a&gt;b &lt;i&gt; | 3 | 1 | 2 | 0.5000 | 0.2500 | -0.2500 | 2 -> 2 | 1.0000 |" in lines
    assert "Without a&gt;b &lt;i&gt;'s own judgments:" in lines
    no_raw_control(out, err)


def test_check_markdown_reference_closes_no_code_span(example: Path, lp: Run) -> None:
    """0.1.0: exit 3; ``**check: not-meaningful** against `runs/a`b.trec```: the backtick in
    the reference's name closed the code span early."""
    ref = add_run(example, "a`b", source="bm25")
    code, out, err = lp("check", "runs/dense.trec", "--against", ref, "-m", "R@10", "--format",
                        "markdown")  # fmt: skip
    assert code == 3, err
    assert "**check: not-meaningful** against `runs/a'b.trec`" in out.split("\n")
    no_raw_control(out, err)
