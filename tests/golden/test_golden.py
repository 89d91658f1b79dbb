"""Golden output: what every main command prints on the example shipped in this checkout.

Each case runs ``labelpool`` in-process (``labelpool.cli.main``, as ``tests/cli/test_cli_errors.py``
does) in a temporary git repository holding a copy of the example (``pyproject.toml``,
``labels/``, ``runs/``, ``corpus/``, ``schema/``), and compares stdout, stderr and the exit code
with ``tests/golden/expected/<case>.txt``. A difference fails the test with a unified diff.

Regenerate (only when a change of output is intended, and name each change in the commit)::

    LABELPOOL_UPDATE_GOLDEN=1 python -m pytest -q tests/golden

The normaliser (:func:`normalise`) replaces, in stdout and stderr:

* the temporary folders (the repository copy, its parent) by ``<REPO>`` and ``<TMP>``;
* the commit ids of the temporary repositories (full, or any prefix of 7+ characters) by
  ``<COMMIT>``;
* today's date (batch names, pool entries written today) by ``<TODAY>``, and git's commit
  timestamps (``YYYY-MM-DD HH:MM:SS +ZZZZ`` or ISO ``...T...``) by ``<DATETIME>``;
* durations (``0.12 s``, ``12 ms``) by ``<DURATION>``.

Everything else is compared byte for byte. The terminal is fixed: ``COLUMNS=100``, no colour.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from api_scenario import copy_example
from labelpool.cli import main

EXPECTED = Path(__file__).resolve().parent / "expected"
EXAMPLE = ("pyproject.toml", "labels", "runs", "corpus", "schema")
UPDATE = os.environ.get("LABELPOOL_UPDATE_GOLDEN") == "1"
RUNS = ("runs/bm25.trec", "runs/dense.trec")
LABEL = "acme-returns"
# fixed identities and dates: the temporary history is the same on every run
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Golden Judge",
    "GIT_AUTHOR_EMAIL": "judge@example.invalid",
    "GIT_COMMITTER_NAME": "Golden Judge",
    "GIT_COMMITTER_EMAIL": "judge@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str, date: str = "2026-06-02T10:00:00+00:00") -> str:
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env
    ).stdout


def _example(root: Path) -> Path:
    copy_example(root)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", GIT_ENV["GIT_AUTHOR_NAME"])
    git(root, "config", "user.email", GIT_ENV["GIT_AUTHOR_EMAIL"])
    git(root, "add", "--", *EXAMPLE)
    git(root, "commit", "-q", "-m", "example")
    return root


def _edit(repo: Path, old: str, new: str, qid: str = LABEL) -> None:
    path = repo / "labels" / f"{qid}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _second_commit(repo: Path) -> None:
    """History for ``diff HEAD~1`` and ``history``: a grade lowered, a judgment dropped."""
    _edit(repo, "tenant-acme#returns: 2", "tenant-acme#returns: 1")
    _edit(repo, "  - tenant-initech#sso\n", "")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "acme-returns: regrade", date="2026-06-09T10:00:00+00:00")


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("golden")
    example = _example(base / "example" / "repo")
    history = base / "history" / "repo"
    history.parent.mkdir()
    shutil.copytree(example, history, symlinks=True)
    _second_commit(history)
    return {"example": example, "history": history}


# --------------------------------------------------------------------------- normaliser

_DATETIME = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?( ?([+-]\d{2}:?\d{2}|Z))?"
)
_DURATION = re.compile(r"\b\d+(\.\d+)? ?(ms|s)\b")


def normalise(text: str, repo: Path, commits: list[str]) -> str:
    """Stable text: temp paths, commit ids, today's date, timestamps and durations replaced."""
    for path, name in ((repo, "<REPO>"), (repo.parent, "<TMP>")):
        for form in {str(path), str(path.resolve())}:
            text = text.replace(form, name)
    for commit in commits:
        text = re.sub(rf"\b{commit[:7]}[0-9a-f]{{0,33}}\b", "<COMMIT>", text)
    text = _DATETIME.sub("<DATETIME>", text)
    for day in {dt.date.today(), dt.datetime.now(dt.timezone.utc).date()}:
        text = text.replace(day.isoformat(), "<TODAY>")
    return _DURATION.sub("<DURATION>", text)


# --------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    args: tuple[str, ...]
    repo: str = "example"  # which template: "example" or "history"
    setup: Callable[[Path], None] | None = None  # changes made to the copy before running
    env: dict[str, str] = field(default_factory=dict)


def _corrupt(old: str, new: str) -> Callable[[Path], None]:
    return lambda repo: _edit(repo, old, new)


def _write(rel: str, content: bytes) -> Callable[[Path], None]:
    return lambda repo: (repo / rel).write_bytes(content)


def _commit(step: Callable[[Path], None]) -> Callable[[Path], None]:
    def run(repo: Path) -> None:
        step(repo)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "edit")

    return run


def _duplicate_id(repo: Path) -> None:
    shutil.copy2(repo / "labels" / f"{LABEL}.yaml", repo / "labels" / f"{LABEL}.yml")


def _fifo(repo: Path) -> None:
    os.mkfifo(repo / "labels" / "fifo.yaml")


def _bad_reference_revision(repo: Path) -> None:
    good = (repo / RUNS[0]).read_bytes()
    _commit(_write(RUNS[0], b"q1 Q0 d1 1 nan x\n"))(repo)
    (repo / RUNS[0]).write_bytes(good)


def _pooled(repo: Path) -> None:
    """A batch of bm25 and dense at 10 in the working tree, nobody's verdict yet."""
    assert main(["pool", *RUNS, "--depth", "10", "--no-commit", "--repo", str(repo)]) == 0


def _pyproject(table: str) -> Callable[[Path], None]:
    return _write("pyproject.toml", f"[tool.labelpool]\nformat = 1\n{table}\n".encode())


HUGE = str(10**20)
COLUMNS_80 = {"COLUMNS": "80"}
CHECK = ("check", RUNS[1], "--against", RUNS[0])

CASES: dict[str, Case] = {
    # score: every format, --per-query once
    # score and compare at 80 columns: the "output that fits" (no line over 80)
    "score-table": Case(
        ("score", "runs/bm25.trec", "runs/dense.trec", "runs/hybrid.trec"), env=COLUMNS_80
    ),
    "score-table-bounds": Case(
        ("score", "runs/bm25.trec", "runs/dense.trec", "runs/hybrid.trec", "--bounds"),
        env=COLUMNS_80,
    ),
    "score-table-wide": Case(
        ("score", "runs/bm25.trec", "runs/dense.trec", "--bounds", "--wide"), env=COLUMNS_80
    ),
    "score-table-per-query": Case(("score", "runs/dense.trec", "-m", "R@10", "--per-query")),
    "score-json": Case(("score", *RUNS, "--format", "json")),
    "score-csv": Case(("score", *RUNS, "--format", "csv")),
    "score-markdown": Case(("score", *RUNS, "--format", "markdown")),
    # compare and check: every format
    "compare-text": Case(("compare", *RUNS), env=COLUMNS_80),
    "compare-text-verbose": Case(("compare", *RUNS, "--verbose"), env=COLUMNS_80),
    "compare-json": Case(("compare", *RUNS, "--format", "json")),
    "compare-markdown": Case(("compare", *RUNS, "--format", "markdown")),
    # counts other than the defaults: stated beside the p-value and the interval
    "compare-text-verbose-counts": Case(
        ("compare", *RUNS, "--verbose", "--draws", "20000", "--resamples", "2000"),
        env=COLUMNS_80,
    ),
    "compare-markdown-counts": Case(
        ("compare", *RUNS, "--format", "markdown", "--draws", "20000", "--resamples", "2000")
    ),
    "check-text": Case(CHECK),
    "check-json": Case((*CHECK, "--format", "json")),
    "check-markdown": Case((*CHECK, "--format", "markdown")),
    # pool (working tree only), pool-info, bias
    "pool-no-commit-text": Case(("pool", *RUNS, "--depth", "10", "--no-commit")),
    "pool-no-commit-verbose": Case(("pool", *RUNS, "--depth", "10", "--no-commit", "--verbose")),
    "pool-no-commit-markdown": Case(
        ("pool", *RUNS, "--depth", "10", "--no-commit", "--format", "markdown")
    ),
    "pool-info": Case(("pool-info",)),
    # merge: pending entries counted by batch (--verbose lists them: tests/cli/test_merge.py)
    "merge-partial": Case(("merge", "--partial", "--no-commit"), setup=_pooled),
    "bias": Case(("bias",)),
    # history: a second commit regrades acme-returns and drops one judgment
    "diff-head-1": Case(("diff", "HEAD~1"), repo="history"),
    "diff-head-1-scores": Case(("diff", "HEAD~1", "--scores", *RUNS), repo="history"),
    "diff-head-1-scores-verbose": Case(
        ("diff", "HEAD~1", "--scores", *RUNS, "--verbose"), repo="history"
    ),
    "history": Case(("history", LABEL), repo="history"),
    "history-doc": Case(("history", LABEL, "tenant-acme#returns"), repo="history"),
    "validate": Case(("validate",)),
    "rules": Case(("rules",)),
    # error cases of tests/cli/test_cli_errors.py: one of each kind
    "error-schema-invalid-score": Case(
        ("score", RUNS[0]), setup=_corrupt("judged_ids:\n", "judged_ids: 5\nx_judged:\n")
    ),
    "error-schema-invalid-validate": Case(
        ("validate", f"labels/{LABEL}.yaml"),
        setup=_corrupt("judged_ids:\n", "judged_ids: 5\nx_judged:\n"),
    ),
    "error-unquoted-date-compare": Case(
        ("compare", *RUNS), setup=_corrupt("    date: '2026-06-02'", "    date: 2026-06-02")
    ),
    "error-negative-grade-pool": Case(
        ("pool", *RUNS, "--depth", "5", "--no-commit"),
        setup=_corrupt("tenant-acme#returns: 2", "tenant-acme#returns: -1"),
    ),
    "error-history-misshapen": Case(
        ("history", LABEL), setup=_corrupt("grades:\n", "grades: [1]\nx_grades:\n")
    ),
    "error-diff-worktree-invalid": Case(
        ("diff", "HEAD"), setup=_corrupt("tenant-acme#returns: 2", "tenant-acme#returns: 0")
    ),
    "error-diff-revision-invalid": Case(
        ("diff", "HEAD", "HEAD~1"),
        setup=_commit(_corrupt("grades:\n", "grades: [1]\nx_grades:\n")),
    ),
    "error-merge-pending-not-a-list": Case(
        ("merge", "--no-commit"),
        setup=_commit(
            lambda repo: (repo / "labels" / f"{LABEL}.yaml").write_text(
                (repo / "labels" / f"{LABEL}.yaml").read_text(encoding="utf-8") + "pending: 5\n",
                encoding="utf-8",
            )
        ),
    ),
    "error-check-bad-reference-file": Case(
        ("check", RUNS[0], "--against", "runs/bad.trec"),
        setup=_write("runs/bad.trec", b"q1 Q0 d1 1 2.0 x\nq1 Q0 d2\n"),
    ),
    "error-check-bad-reference-revision": Case(
        ("check", RUNS[0], "--against", "HEAD"), setup=_bad_reference_revision
    ),
    "error-option-relevance-level": Case(("compare", *RUNS, "--relevance-level", "0")),
    "error-option-seed": Case(("compare", *RUNS, "--seed", "-5")),
    "error-option-draws": Case(("compare", *RUNS, "--draws", "0")),
    "error-option-resamples": Case((*CHECK, "--resamples", "20000000")),
    "error-option-budget": Case((*CHECK, "--budget", "nan")),
    "error-option-questions": Case(("pool", *RUNS, "--depth", "5", "--questions", ",")),
    "error-no-such-run": Case(("pool", "runs/nope.trec", "--depth", "5")),
    "error-system-twice": Case(("pool", RUNS[0], RUNS[0], "--depth", "5")),
    "error-huge-cutoff": Case(("compare", *RUNS, "--k", HUGE)),
    "error-huge-measure-cutoff": Case(("score", RUNS[0], "-m", f"P@{HUGE}")),
    "error-run-shares-no-question": Case(
        ("compare", RUNS[0], "runs/other.trec", "-m", "R@10"),
        setup=_write("runs/other.trec", b"q1 Q0 d1 1 1.0 x\n"),
    ),
    "error-oracle-not-utf8": Case(
        ("merge", "--oracle", "o.qrels"), setup=_write("o.qrels", b"q 0 d 1\nq 0 caf\xe9 1\n")
    ),
    "error-oracle-empty": Case(("merge", "--oracle", "o.qrels"), setup=_write("o.qrels", b"")),
    "error-oracle-fields": Case(
        ("merge", "--oracle", "o.qrels"), setup=_write("o.qrels", b"q 0 d\n")
    ),
    "error-oracle-missing": Case(("merge", "--oracle", "o.qrels")),
    "error-history-file-name": Case(("history", f"{LABEL}.yaml")),
    "error-history-empty-doc": Case(("history", LABEL, "")),
    "error-pool-bad-corpus": Case(
        ("pool", *RUNS, "--depth", "5"),
        setup=_commit(_write("corpus/corpus.jsonl", b'{"_id": 5}\n')),
    ),
    "error-two-files-one-id": Case(("score", RUNS[0]), setup=_duplicate_id),
    "error-meaning-lp025": Case(
        ("score", RUNS[0]),
        setup=_corrupt("relevant_doc_ids:\n", "relevant_doc_ids:\n  - zz-not-judged\n"),
    ),
    "error-fifo-label": Case(("pool-info",), setup=_fifo),
    "error-fifo-validate": Case(("validate",), setup=_fifo),
    "error-alpha-out-of-range": Case(
        ("compare", *RUNS, "-m", "R@10"), setup=_pyproject("alpha = 5")
    ),
    "error-readings-out-of-range": Case(
        (*CHECK,), setup=_pyproject("[tool.labelpool.readings]\nratio = 0.5")
    ),
    "error-export-out-folder": Case(("export", "trec", "--out", "corpus")),
    "error-import-empty-qrels": Case(
        ("import", "trec", "e.qrels", "--queries", "corpus/questions.jsonl"),
        setup=_write("e.qrels", b"\n"),
    ),
    "error-unknown-command": Case(("nope",)),
    "error-unknown-option": Case(("score", RUNS[0], "--nope")),
}


def _render(args: tuple[str, ...], code: int, out: str, err: str) -> str:
    command = shlex.join(["labelpool", *args])
    return f"$ {command}\nexit: {code}\n--- stdout\n{out}--- stderr\n{err}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(
    name: str,
    templates: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    case = CASES[name]
    repo = tmp_path / "repo"
    shutil.copytree(templates[case.repo], repo, symlinks=True)
    for var in ("FORCE_COLOR", "LABELPOOL_DEBUG", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(var, raising=False)
    for var, value in {**GIT_ENV, "COLUMNS": "100", "LINES": "50", "NO_COLOR": "1"}.items():
        monkeypatch.setenv(var, value)
    for var, value in case.env.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(repo)
    if case.setup is not None:
        case.setup(repo)
    capsys.readouterr()
    code = main(list(case.args))
    out, err = capsys.readouterr()
    commits = git(repo, "rev-list", "--all").split()
    got = _render(case.args, code, normalise(out, repo, commits), normalise(err, repo, commits))
    path = EXPECTED / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}: LABELPOOL_UPDATE_GOLDEN=1 pytest tests/golden"
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(
            difflib.unified_diff(
                want.splitlines(keepends=True),
                got.splitlines(keepends=True),
                f"expected/{name}.txt",
                "actual",
            )
        )
        pytest.fail(f"golden output of {name!r} changed:\n{diff}", pytrace=False)


def test_every_golden_file_has_a_case() -> None:
    assert sorted(p.stem for p in EXPECTED.glob("*.txt")) == sorted(CASES)


def test_no_output_line_ends_in_whitespace() -> None:
    """The one behaviour the house refactor changed: output lines never end in whitespace."""
    bad = [
        f"{p.name}:{n}"
        for p in sorted(EXPECTED.glob("*.txt"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if line != line.rstrip()
    ]
    assert not bad, bad
