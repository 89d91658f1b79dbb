"""Injection, terminal channel: no control character from a name reaches a terminal.

A run file, a pool system or a doc id carrying ESC (``\\x1b[31m``, an ANSI colour) or the C1
control sequence introducer (``\\x9b``) used to be printed raw: the terminal recoloured, moved
the cursor or (with OSC sequences) set the title or a clipboard. labelpool now shows each such
character escaped (``\\x1b``, ``\\x9b``) in text, tables, findings and error messages.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import (
    CSI,
    ESC,
    Run,
    add_run,
    commit_all,
    no_raw_control,
    refused_at_escape,
    small_repo,
)

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp

ROW = "58        46.0%  0.657"


def only(text: str, needle: str) -> str:
    (line,) = [line for line in text.split("\n") if needle in line]
    return line


def test_score_table_escape_sequence(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the row held the raw ESC: ``│ \\x1b[31mred │      58 │ ...`` turned the
    rest of the terminal red."""
    code, out, err = lp("score", "runs/bm25.trec", add_run(example, ESC), "-m", "R@10")
    assert code == 0
    assert only(out, "31mred  ") == f"\\x1b[31mred         {ROW}"
    no_raw_control(out, err)


def test_score_table_c1_control(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the row held the raw C1 CSI (U+009B), which 8-bit terminals read as
    ESC [."""
    code, out, err = lp("score", "runs/bm25.trec", add_run(example, CSI), "-m", "R@10")
    assert code == 0
    assert only(out, "31mred  ") == f"\\x9b31mred         {ROW}"
    no_raw_control(out, err)


def test_compare_text_escape_sequence(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the heading, the table row and the verdict's pool command held the raw
    ESC (``\\x1b[31mred vs bm25: R@10 (58 questions)``)."""
    code, out, err = lp("compare", "runs/bm25.trec", add_run(example, ESC), "-m", "R@10")
    assert code == 0
    assert only(out, " vs bm25") == (
        "\\x1b[31mred vs bm25 (baseline), 58 questions; p: sign-flip test, monte-carlo, Holm"
    )
    assert only(out, "measure  ") == (
        "measure   bm25  challenger   delta  unjudged     p  reading          verdict"
    )
    assert "runs/\\x1b[31mred.trec' --depth 10" in only(out, "next: labelpool pool")
    no_raw_control(out, err)


def test_pool_info_text_escape_sequence(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``  \\x1b[31mred  2/2  k=3 on 2 ...`` with the raw ESC, and again in
    ``born from`` and the list of runs. The label wrote it as an escape; since issue 29 the
    file is refused there (LP003)."""
    repo = small_repo(tmp_path / "r", ESC)
    result = lp("pool-info", "--repo", str(repo))
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:14", "U+001B", "\\u001b")


def test_bias_text_escape_sequence(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; the headline, both tables and a title held the raw ESC
    (``without \\x1b[31mred's own judgments``). The label wrote it as an escape; since
    issue 29 the file is refused there (LP003)."""
    repo = small_repo(tmp_path / "r", ESC)
    result = lp("bias", "--repo", str(repo), "-m", "P@2", "--k", "2")
    refused_at_escape(result, f"{repo}/labels/q1.yaml:16:14", "U+001B", "\\u001b")


def test_diff_text_doc_id_escape_sequence(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``  + judged \\x1b[31mred: irrelevant`` with the raw ESC (a doc id may
    hold any non-blank character). Since issue 29 the escape is refused where it is written
    (LP003)."""
    repo = small_repo(tmp_path / "r", "dense")
    path = repo / "labels" / "q2.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "judged_ids:\n", 'judged_ids:\n  - "\\e[31mred"\n'
        ),
        encoding="utf-8",
    )
    result = lp("diff", "HEAD", "--repo", str(repo))
    refused_at_escape(result, f"{path}:7:6", "U+001B", "\\e")


def test_pool_text_c1_control(example: Path, lp: Run) -> None:
    """0.1.0: exit 1; pool checked the batch it was about to write and refused it:
    ``error: <string>:1:1: LP015 invalid YAML: unacceptable character #x009b: ...`` on two
    lines (the YAML message's own line break). Now one line, the control character named, not
    printed (which message names it is section 5's: what pool writes, validate accepts)."""
    run = add_run(example, CSI)
    code, out, err = lp(
        "pool", "runs/bm25.trec", run, "--depth", "3", "--no-commit", "--questions", "acme-returns"
    )
    assert code == 1 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "9B" in err.upper()
    no_raw_control(out, err)


def test_validate_finding_quotes_an_escape_sequence(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 1; the LP028 finding quoted the doc id with its raw ESC:
    ``.../labels/q1.yaml:12:5: LP028 judged_ids: \\x1b[31mred comes before x2 ...``. Since
    issue 29 the escape is itself the finding (LP003, at its backslash), the ESC named."""
    repo = small_repo(tmp_path / "r", "dense")
    path = repo / "labels" / "q1.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("  - x2\n", '  - x2\n  - "\\e[31mred"\n'),
        encoding="utf-8",
    )
    code, out, err = lp("validate", "--repo", str(repo))
    assert code == 1
    assert out == f"{path}:12:6: LP003 control character U+001B, written as \\e\n"
    no_raw_control(out, err)


def test_compare_error_names_an_escape_sequence(example: Path, lp: Run) -> None:
    """0.1.0: exit 2; ``error: runs/\\x1b[31mnope.trec: no such run file, ...`` with the raw
    ESC, and every name of runs/ listed raw after ``known:``."""
    add_run(example, ESC)
    code, out, err = lp("compare", "runs/bm25.trec", "runs/\x1b[31mnope.trec")
    assert code == 2 and out == ""
    assert err.startswith("error: runs/\\x1b[31mnope.trec: no such run file, and no run named ")
    assert err.endswith("(known: \\x1b[31mred, bm25, dense)\n")  # runs only, no README
    no_raw_control(out, err)


def test_merge_prints_a_judge_name_escaped(tmp_path: Path, lp: Run) -> None:
    """0.1.0: exit 0; ``merge --no-commit`` printed the judge (the author of the verdict
    line, from git) raw: ``QA\\x1b[31m Runner <qa@example.invalid>: 1 verdicts ...``. Since
    the record of judges, merge writes the judge into the label file, and validate refuses an
    ESC there (LP003): merge refuses, writing nothing, naming the commit whose author's name
    holds it (the name itself is not repeated: it is what cannot be shown)."""
    repo = small_repo(tmp_path / "r", "dense")
    path = repo / "labels" / "q2.yaml"
    path.write_text(
        path.read_text(encoding="utf-8")
        + "pending:\n  - batch: '2026-12-02-a@3'\n    systems:\n      - a\n    depth: 3\n"
        + "    date: '2026-12-02'\n    docs:\n      - {doc: n1, verdict: relevant}\n",
        encoding="utf-8",
    )
    commit_all(repo, "verdict", env={"GIT_AUTHOR_NAME": "QA\x1b[31m Runner"})
    before = path.read_bytes()
    code, out, err = lp("merge", "--no-commit", "--repo", str(repo))
    no_raw_control(out, err)
    assert code == 1, err
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short=12", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert err == (
        f"error: {path}:24: the author's name of commit {commit} (the last to change this "
        "line) holds the control character U+001B (LP003): the record of judges would hold "
        "it, so nothing is written\n"
    )
    assert path.read_bytes() == before
