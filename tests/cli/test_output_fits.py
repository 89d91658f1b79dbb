"""Output that fits and leads with the answer (issue 13, section 1), on the example.

Width is ``$COLUMNS``, else the terminal's, else 80; tables whose columns do not fit continue
below; ``compare`` is one compact table per pair with a verdict line and a next step that runs
as printed; ``pool`` and ``diff --scores`` lead with the summary; no warning twice; questions
with no relevant document and questions not judged are counted and named. Each test fails on
0.1.0's output (rich tables as wide as their content, six blocks of ``compare``, a line per
question from ``pool``, ...).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from api_scenario import copy_example
from labelpool.cli import main

RUNS = ("runs/bm25.trec", "runs/dense.trec", "runs/hybrid.trec")
NO_RELEVANT = 13  # judged questions of the example whose labels hold no relevant document
GIT_ENV = {
    "GIT_AUTHOR_NAME": "T",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "T",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fits") / "example"
    copy_example(root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "example")
    return root


@pytest.fixture
def repo(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(template, root, symlinks=True)
    for var in ("FORCE_COLOR", "TTY_COMPATIBLE", "LABELPOOL_DEBUG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in {**GIT_ENV, "COLUMNS": "80", "NO_COLOR": "1"}.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(root)
    return root


def lp(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def shell(repo: Path, command: str) -> subprocess.CompletedProcess[str]:
    """A printed command, run as printed (by a shell) in ``repo``."""
    env = {**os.environ, **GIT_ENV}
    python_bin = os.path.dirname(sys.executable)
    env["PATH"] = f"{python_bin}{os.pathsep}{env['PATH']}"
    return subprocess.run(
        command, shell=True, cwd=repo, env=env, capture_output=True, text=True, timeout=300
    )


# --------------------------------------------------------------------------- score


def test_score_fits_80_columns_one_row_per_system(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = lp(capsys, "score", *RUNS)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["system", "questions", "unjudged@10", "R@10", "nDCG@10", "P@10"]
    assert lines[1].split() == ["bm25", "58", "0.0%", "0.703", "0.574", "0.133"]
    assert lines[2].split() == ["dense", "58", "46.0%", "0.657", "0.574", "0.129"]
    assert widest(out) <= 80
    assert all(line == line.rstrip() for line in lines)


def test_score_measures_that_do_not_fit_go_to_a_second_table(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    measures = ["-m", "R@10 P@10 nDCG@10 RR@10 AP@100 Success@10 Judged@10"]
    code, out, _ = lp(capsys, "score", *RUNS, *measures)
    assert code == 0
    assert widest(out) <= 80
    heads = [line.split() for line in out.splitlines() if line.startswith("system")]
    assert len(heads) == 2  # two tables, each starting with the system columns
    assert [h[:3] for h in heads] == [["system", "questions", "unjudged@10"]] * 2
    shown = [m for h in heads for m in h[3:]]
    assert shown == ["R@10", "P@10", "nDCG@10", "RR@10", "AP@100", "Success@10", "Judged@10"]
    # --wide: one table, as wide as it needs
    code, out, _ = lp(capsys, "score", *RUNS, *measures, "--wide")
    assert [line for line in out.splitlines() if line.startswith("system")] and widest(out) > 80
    assert sum(line.startswith("system") for line in out.splitlines()) == 1


def test_score_bounds_adds_judged_only_and_optimistic(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = lp(capsys, "score", "runs/dense.trec", "-m", "R@10", "--bounds")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["R@10", "R@10", "R@10"]
    assert lines[1].split() == [
        "system", "questions", "unjudged@10", "raw", "judged-only", "optimistic"
    ]  # fmt: skip
    assert lines[2].split() == ["dense", "58", "46.0%", "0.657", "0.745", "0.967"]
    code, plain, _ = lp(capsys, "score", "runs/dense.trec", "-m", "R@10")
    assert "0.745" not in plain and "judged-only" not in plain.splitlines()[0]


def test_score_per_query_keeps_the_width(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    measures = ["-m", "R@10 P@10 nDCG@10 RR@10 AP@100 Success@10"]
    code, out, _ = lp(capsys, "score", "runs/dense.trec", *measures, "--per-query", "--bounds")
    assert code == 0
    assert widest(out) <= 80
    assert "dense: per question" in out
    assert "acme-returns" in out


def test_piped_output_is_80_columns_without_columns(repo: Path) -> None:
    """0.1.0: piped output had no bound (one 200-column table)."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "labelpool",
            "score",
            *RUNS,
            "-m",
            "R@10 P@10 nDCG@10 RR@10 AP@100 Success@10 Judged@10",
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert widest(done.stdout) <= 80
    assert sum(line.startswith("system") for line in done.stdout.splitlines()) == 2


def test_score_names_questions_without_relevant_and_not_judged(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = lp(capsys, "score", *RUNS)
    flat = " ".join(out.split())
    assert f"no relevant document ({NO_RELEVANT}; averaged in, 0 for every system):" in flat
    assert "box-crushed-refund" in flat
    assert "skipped: not judged (2): app-night-theme, sunday-opening" in flat
    _, out, _ = lp(capsys, "score", *RUNS, "--format", "json")
    doc = json.loads(out)
    assert len(doc["no_relevant"]) == NO_RELEVANT and "box-crushed-refund" in doc["no_relevant"]
    assert doc["not_judged"] == ["app-night-theme", "sunday-opening"]


def test_a_warning_is_printed_once(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: the pending-batch warning came once per run scored."""
    assert main(["pool", *RUNS[:2], "--depth", "3", "--no-commit"]) == 0
    code, _, err = lp(capsys, "score", *RUNS)
    assert code == 0
    assert err.count("pending judgment(s) not merged yet count as unjudged") == 1


# --------------------------------------------------------------------------- compare


def test_compare_is_compact_and_fits(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: six blocks, 67 lines, lines up to 150 columns."""
    code, out, _ = lp(capsys, "compare", *RUNS[:2])
    assert code == 0
    lines = out.splitlines()
    assert len(lines) <= 30 and widest(out) <= 80
    header = lines[3].split()
    assert header == ["measure", "bm25", "dense", "delta", "unjudged", "p", "reading", "verdict"]
    rows = {line.split()[0]: line.split() for line in lines[4:10]}
    assert list(rows) == ["R@10", "P@10", "nDCG@10", "RR@10", "AP@100", "Success@10"]
    assert rows["R@10"] == [
        "R@10", "0.703", "0.657", "-0.046", "0%", "/", "46%", "1", "uninterpretable",
        "uninterpretable",
    ]  # fmt: skip
    verdicts = [line for line in lines if line.startswith("verdict: ")]
    assert verdicts == [
        "verdict: uninterpretable on 5 of 6 measures (R@10: challenger unjudged 46% vs"
    ]
    nexts = [line for line in lines if line.startswith("next: ")]
    assert nexts == ["next: labelpool pool runs/bm25.trec runs/dense.trec --depth 10"]


def test_compare_next_step_runs_as_printed(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = lp(capsys, "compare", *RUNS[:2])
    (step,) = [line[len("next: ") :] for line in out.splitlines() if line.startswith("next: ")]
    done = shell(repo, step)
    assert done.returncode == 0, done.stderr
    assert "in this batch: 296 documents in 56 questions" in done.stdout
    assert git(repo, "branch", "--show-current").startswith("labelpool/batch-")


def test_compare_verbose_next_steps_run_as_printed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A meaningful comparison (bm25 against a copy of itself, renamed): the next step is the
    same comparison with --verbose; there, the CI gate for the challenger."""
    shutil.copy2(repo / "runs" / "bm25.trec", repo / "runs" / "bm25 copy.trec")
    code, out, _ = lp(capsys, "compare", "runs/bm25.trec", "runs/bm25 copy.trec", "-m", "R@10")
    assert code == 0
    (step,) = [line[len("next: ") :] for line in out.splitlines() if line.startswith("next: ")]
    assert step == "labelpool compare runs/bm25.trec 'runs/bm25 copy.trec' -m R@10 --verbose"
    done = shell(repo, step)
    assert done.returncode == 0, done.stderr
    assert "verdict: no-difference on 1 of 1 measure" in done.stdout
    (gate,) = [line[6:] for line in done.stdout.splitlines() if line.startswith("next: ")]
    assert gate == "labelpool check 'runs/bm25 copy.trec' --against runs/bm25.trec -m R@10"
    checked = shell(repo, gate)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "check: ok against runs/bm25.trec" in checked.stdout


def test_compare_verbose_adds_the_details(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lp(capsys, "compare", *RUNS[:2], "--verbose")
    assert code == 0
    lines = out.splitlines()
    assert widest(out) <= 80
    assert ["measure", "95%", "CI", "MDE", "delta", "range", "method", "flip?", "W/T/L"] in [
        line.split() for line in lines
    ]
    rr = next(line.split() for line in lines if line.startswith("RR@10") and "[" in line)
    assert rr[-3:] == ["exact", "no", "10/41/7"]  # the method, shown as text (never markup)
    assert "most changed questions (challenger - baseline):" in lines
    assert (
        "  R@10: air-fryer-used (+1.00), initech-approval (-1.00), lamp-warranty (-1.00)" in lines
    )
    assert "sign-flip test, monte-carlo, Holm" in out  # rich once swallowed "[monte-carlo]"
    code, compact, _ = lp(capsys, "compare", *RUNS[:2])
    assert "most changed" not in compact and "MDE" not in compact


def test_compare_names_questions_treated_apart(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = lp(capsys, "compare", *RUNS[:2], "--format", "json")
    doc = json.loads(out)
    assert len(doc["no_relevant"]) == NO_RELEVANT
    assert doc["not_judged"] == ["app-night-theme", "sunday-opening"]
    _, out, _ = lp(capsys, "compare", *RUNS[:2])
    assert "skipped: not judged (2): app-night-theme, sunday-opening" in out


# --------------------------------------------------------------------------- pool, diff


def test_pool_leads_with_the_summary(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: a line per question (56 here) before the totals' end."""
    code, out, _ = lp(capsys, "pool", *RUNS[:2], "--depth", "10", "--no-commit")
    assert code == 0
    assert len(out.splitlines()) <= 15
    assert out.splitlines()[-1] == "per question: --verbose lists the 56 questions"
    assert "acme-returns: 3 / 14" not in out
    git(repo, "checkout", "-q", "--", "labels")
    code, out, _ = lp(capsys, "pool", *RUNS[:2], "--depth", "10", "--no-commit", "--verbose")
    assert "  acme-returns: 3 / 14" in out.splitlines()


def test_pool_without_a_corpus_writes_no_text_comments(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: every document got ``# text: (not in the corpus)`` and the note came twice."""
    pyproject = repo / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith(("corpus", "versions"))]
    pyproject.write_text("\n".join(kept) + "\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "no corpus")
    code, out, err = lp(capsys, "pool", *RUNS[:2], "--depth", "10", "--no-commit")
    assert code == 0
    note = "no corpus configured ([tool.labelpool] corpus): chunk text is left out"
    assert (out + err).count(note) == 1
    label = (repo / "labels" / "acme-returns.yaml").read_text(encoding="utf-8")
    assert "# text:" not in label
    assert "      # question: " in label  # the question comes from the label, not the corpus
    assert "verdict: null}" in label


def test_diff_scores_lead_with_the_summary(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = repo / "labels" / "acme-returns.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "tenant-acme#returns: 2", "tenant-acme#returns: 1"
        ),
        encoding="utf-8",
    )
    code, out, _ = lp(capsys, "diff", "HEAD", "--scores", *RUNS[:2])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("labels HEAD -> working tree: 1 question changed")
    assert lines[1] == "scores (unjudged rate at 10 in brackets):"
    assert lines[-1] == "--verbose lists the changes of 1 question"
    assert "acme-returns:" not in lines
    code, out, _ = lp(capsys, "diff", "HEAD", "--scores", *RUNS[:2], "--verbose")
    lines = out.splitlines()
    assert lines[1] == "scores (unjudged rate at 10 in brackets):"
    assert "acme-returns:" in lines and "  ~ grade tenant-acme#returns: 2 -> 1" in lines


# --------------------------------------------------------------------------- pool-info


def test_pool_info_measures_each_pooled_run(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = lp(capsys, "pool-info")
    assert "  bm25  58/58  k=20 on 58  2026-06-02  0.0% unjudged@10  [fair at k=10]" in out
    # the run in runs/ changed since it was pooled: the depth says fair, the rate does not
    shutil.copy2(repo / "runs" / "dense.trec", repo / "runs" / "bm25.trec")
    code, out, _ = lp(capsys, "pool-info")
    assert code == 0
    lines = out.splitlines()
    assert "  bm25  58/58  k=20 on 58  2026-06-02  46.0% unjudged@10  [not fair at k=10]" in lines
    flat = " ".join(out.split())
    assert (
        "not fair: pooled at depth >= 10, but 46.0% of the top 10 of runs/bm25.trec is "
        "unjudged: 267 documents in no label (this is not the ranking pooled to depth 10: the "
        "run changed since, or its top 10 was taken in another order, such as its rank column; "
        "labelpool ranks by score, as trec_eval does)" in flat
    )
    assert "fair to compare at k=10: none" in lines
    assert widest(out) <= 80
    code, out, _ = lp(capsys, "pool-info", "--format", "json")
    (bm25,) = json.loads(out)["systems"]
    assert bm25["fair_by_depth"] is True and bm25["fair"] is False
    assert bm25["unjudged_rate"] == pytest.approx(0.4603448275862069)
    assert bm25["run"] == "runs/bm25.trec"
    assert bm25["disagreement"].startswith("pooled at depth >= 10, but 46.0%")


def test_printed_commands_are_shell_words(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every ``next:`` line splits into words the shell reads back unchanged."""
    _, out, _ = lp(capsys, "compare", *RUNS[:2], "--verbose")
    for line in out.splitlines():
        if line.startswith("next: "):
            words = shlex.split(line[6:])
            assert shlex.join(words) == line[6:]


def test_compare_next_step_runs_from_a_subfolder(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo / "labels")
    _, out, _ = lp(capsys, "compare", "../runs/bm25.trec", "../runs/dense.trec", "-m", "P@10")
    (step,) = [line[len("next: ") :] for line in out.splitlines() if line.startswith("next: ")]
    assert step == "labelpool pool ../runs/bm25.trec ../runs/dense.trec --depth 10"
    done = shell(repo / "labels", step)
    assert done.returncode == 0, done.stderr


def test_history_fits_80_columns(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """History lines name a judge, a date and a commit subject (240 columns on the shipped
    example): they wrap, the continuation indented; nothing is lost."""
    texts = []
    for columns in ("10000", "80"):
        monkeypatch.setenv("COLUMNS", columns)
        capsys.readouterr()
        assert main(["history", "returns-damaged", "--repo", str(repo)]) == 0
        texts.append(capsys.readouterr().out)
    whole, fitted = texts
    assert widest(whole) > 80 >= widest(fitted)
    assert all(line == line.rstrip() for line in fitted.splitlines())
    assert " ".join(fitted.split()) == " ".join(whole.split())
