"""Every command that suggests a next command prints one that runs as printed, and a test runs
it in the state it was printed in (issue 13, "No traps").

0.1.0: ``check`` suggested ``labelpool pool HEAD:runs/bm25.trec runs/bm25.trec --depth 10``
(no such run file: exit 2); the diff summary said "run `labelpool diff`" (no REV: exit 2);
``bias`` said ``labelpool pool RUN... --depth K``; the config error said ``labelpool init DIR``.
``labelpool init``'s next commands are run in ``test_init_next.py``.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.hostile.injection_scenario import (  # noqa: F401  (fixtures)
    Run,
    commit_all,
    example,
    example_template,
    lp,
)

_SUGGESTED = re.compile(r"`(labelpool [^`]+)`|\((labelpool [^)]+)\)|^next: (labelpool .+)$", re.M)


def suggestions(text: str) -> list[str]:
    """Every ``labelpool ...`` command printed in backticks, in parentheses or as a line's
    ``next:`` step (a step broken over lines ending in `` \\`` read as the one line a shell
    reads)."""
    joined = text.replace(" \\\n  ", " ")
    found = [a or b or c for a, b, c in _SUGGESTED.findall(joined)]
    return list(dict.fromkeys(found))


def run_as_printed(lp: Run, command: str, ok: tuple[int, ...] = (0,)) -> tuple[int, str, str]:  # noqa: F811
    words = shlex.split(command, comments=True)
    assert words[0] == "labelpool", command
    code, out, err = lp(*words[1:])
    assert code in ok, f"{command!r} exited {code}: {err}"
    return code, out, err


def test_compare_suggests_a_pool_that_runs(example: Path, lp: Run) -> None:  # noqa: F811
    code, out, _ = lp("compare", "runs/bm25.trec", "runs/dense.trec", "-m", "P@10,nDCG@10")
    assert code == 0
    found = suggestions(out)
    assert found == ["labelpool pool runs/bm25.trec runs/dense.trec --depth 10"], found
    _, pooled, _ = run_as_printed(lp, found[0])
    assert "batch " in pooled


def test_compare_quotes_a_path_with_a_blank(example: Path, lp: Run) -> None:  # noqa: F811
    shutil.copy(example / "runs" / "dense.trec", example / "runs" / "my dense.trec")
    commit_all(example, "a run with a blank in its name")
    code, out, _ = lp("compare", "runs/bm25.trec", "runs/my dense.trec", "-m", "P@10")
    assert code == 0
    (found,) = suggestions(out)
    assert found == "labelpool pool runs/bm25.trec 'runs/my dense.trec' --depth 10"
    run_as_printed(lp, found)


def test_check_suggests_a_pool_of_the_checked_run(example: Path, lp: Run) -> None:  # noqa: F811
    shutil.copy(example / "runs" / "dense.trec", example / "runs" / "bm25.trec")
    commit_all(example, "bm25 replaced by a model that retrieves outside the pool")
    code, out, _ = lp("check", "runs/bm25.trec", "--against", "HEAD~1", "-m", "P@10")
    assert code == 3  # not meaningful: the new ranking was never judged
    found = suggestions(out)
    assert found == ["labelpool pool runs/bm25.trec --depth 10"], found
    code, json_out, _ = lp("check", "runs/bm25.trec", "--against", "HEAD~1", "--format", "json")
    assert '"pool_command": "labelpool pool runs/bm25.trec --depth 10"' in json_out
    run_as_printed(lp, found[0])


def test_diff_summary_names_the_diff_to_run(example: Path, lp: Run) -> None:  # noqa: F811
    changed = 0
    for path in sorted((example / "labels").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        extra = "".join(f"  - zz-extra#{i}\n" for i in range(10))
        changed += "judged_ids:\n" in text
        path.write_text(text.replace("judged_ids:\n", "judged_ids:\n" + extra, 1), "utf-8")
    assert changed * 10 > 500  # more rows than the job summary lists
    code, out, _ = lp("diff", "HEAD", "--format", "markdown")
    assert code == 0
    found = suggestions(out)
    assert found == ["labelpool diff HEAD"], found
    _, full, _ = run_as_printed(lp, found[0])
    assert full.count("zz-extra#9") == changed


def test_bias_suggests_pooling_a_committed_second_system(example: Path, lp: Run) -> None:  # noqa: F811
    code, _, err = lp("bias")
    assert code == 1
    found = suggestions(err)
    assert found == ["labelpool pool runs/bm25.trec runs/dense.trec --depth 20"], found
    run_as_printed(lp, found[0])


def test_outside_a_repository_the_hint_runs(tmp_path: Path, lp: Run, monkeypatch) -> None:  # noqa: F811
    monkeypatch.chdir(tmp_path)
    code, _, err = lp("score", "runs/x.trec")
    assert code == 2
    found = suggestions(err)
    assert found == ["labelpool init --help"], found
    run_as_printed(lp, found[0])


def test_fmt_and_validate_hints_run(example: Path, lp: Run) -> None:  # noqa: F811
    path = example / "labels" / "returns-damaged.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("date: '2026-06-02'", "date: 2026-06-02"),
        encoding="utf-8",
    )
    code, _, err = lp("score", "runs/bm25.trec")
    assert code == 1
    found = suggestions(err)
    assert "labelpool validate" in found and "labelpool fmt" in found, found
    code, out, _ = run_as_printed(lp, "labelpool validate", ok=(1,))
    assert "LP021" in out and "labelpool fmt" in suggestions(out)
    run_as_printed(lp, "labelpool fmt")
    assert lp("score", "runs/bm25.trec")[0] == 0


def test_corrections_in_usage_errors_run(example: Path, lp: Run) -> None:  # noqa: F811
    """A usage error that names the right spelling: the corrected command runs."""
    code, _, err = lp("score", "-m", "nDCG@10", "R@10", "runs/bm25.trec")
    assert code == 2
    write = err.split("; write ", 1)[1].strip()
    run_as_printed(lp, f"labelpool score {write} runs/bm25.trec")
    code, _, err = lp("pool", "runs/bm25.trec", "runs/dense.trec", "-k", "3", "--no-commit")
    assert code == 2
    depth = re.search(r"pool's depth is (--depth \d+)", err)
    assert depth is not None
    run_as_printed(lp, f"labelpool pool runs/bm25.trec runs/dense.trec {depth[1]} --no-commit")


def test_merge_oracle_names_the_option_that_finishes(example: Path, lp: Run) -> None:  # noqa: F811
    assert lp("pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "10")[0] == 0
    qrels = example / "corpus" / "ground-truth.qrels"
    known = [ln for ln in qrels.read_text(encoding="utf-8").splitlines() if ln.strip()]
    partial = example.parent / "partial.qrels"
    partial.write_text("\n".join(known[: len(known) // 2]) + "\n", encoding="utf-8")
    code, out, _ = lp("merge", "--oracle", str(partial))
    assert code == 1
    last = out.splitlines()[-1]
    option = re.search(r"\((--oracle-missing irrelevant) to count them", last)
    assert option is not None, last
    run_as_printed(lp, f"labelpool merge --oracle {shlex.quote(str(partial))} {option[1]}")


def test_check_against_another_systems_file_pools_both(example: Path, lp: Run) -> None:  # noqa: F811
    code, out, _ = lp("check", "runs/dense.trec", "--against", "runs/bm25.trec", "-m", "P@10")
    assert code == 3
    found = suggestions(out)
    assert found == ["labelpool pool runs/bm25.trec runs/dense.trec --depth 10"], found
    run_as_printed(lp, found[0])


def test_a_next_step_too_long_for_the_width_is_broken_and_runs_pasted_into_bash(
    example: Path,  # noqa: F811
    lp: Run,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 60 columns the pool step of two long run names is broken between words with a
    trailing backslash; the printed lines, pasted into bash as they are, run as one command."""
    for name in ("a rather long baseline name", "an even longer challenger name"):
        shutil.copy(example / "runs" / "dense.trec", example / "runs" / f"{name}.trec")
    commit_all(example, "two runs with long names")
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = lp(
        "compare",
        "runs/a rather long baseline name.trec",
        "runs/an even longer challenger name.trec",
        "-m",
        "P@10",
    )
    assert code == 0
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("next: labelpool pool"))
    step = [lines[first]]
    while step[-1].endswith(" \\"):
        step.append(lines[first + len(step)])
    assert len(step) > 1 and all(len(line) <= 60 for line in step), step
    assert all(line.startswith("  ") for line in step[1:])
    pasted = "\n".join(step).removeprefix("next: ")
    done = subprocess.run(
        ["bash", "-c", pasted], cwd=example, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "batch " in done.stdout
