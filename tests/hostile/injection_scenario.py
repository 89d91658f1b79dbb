"""Label repositories whose names attack the output: run files, pool systems, question and doc
ids, batch names and judges carrying terminal escapes, bidi overrides, line breaks that start a
GitHub workflow command, rich markup, markdown/HTML and spreadsheet formulas.

Used by ``tests/hostile/test_injection_*.py``. Two repositories:

* :func:`example_repo`: a copy of the shipped example (``bm25`` and ``dense`` runs, 58 judged
  questions pooled from bm25) in a fresh git repository, with hostile copies of
  ``runs/dense.trec`` added by the test (:func:`add_run`);
* :func:`small_repo`: two questions pooled from two systems with hostile names (a committed run
  each), enough for ``bias``, ``pool-info`` and ``diff``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.hostile.cited import check_cited

from api_scenario import copy_example
from labelpool.cli import main

# the hostile names (each a valid file name on Linux)
FORGE = "x\n::error::forged"  # a line break, then a workflow command
COMMAND = "::error::forged"  # a workflow command at the start of the name
LEGACY = "x##[error]forged"  # the runner's legacy command form, read anywhere in a line
ESC = "\x1b[31mred"  # an ANSI colour
CSI = "\x9b31mred"  # the C1 control sequence introducer
BIDI = "evil\u202etxt"  # RIGHT-TO-LEFT OVERRIDE
ISOLATE = "a\u2066b\u2069c"  # LEFT-TO-RIGHT ISOLATE ... POP DIRECTIONAL ISOLATE
SEPARATOR = "a\u2028b"  # LINE SEPARATOR
MARKUP = "[red]alert"  # rich markup
HTML = "<img src=x onerror=alert(1)>"
PIPE_MENTION = "a|b @team"
FORMULA = "=HYPERLINK(1)"

Run = Callable[..., tuple[int, str, str]]


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    ).stdout


def git_init(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "QA Runner")
    git(repo, "config", "user.email", "qa@example.invalid")
    git(repo, "config", "commit.gpgsign", "false")


def commit_all(repo: Path, message: str = "commit", env: dict[str, str] | None = None) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, env=env)
    return git(repo, "rev-parse", "HEAD").strip()


def example_repo(root: Path) -> Path:
    """The shipped example in a fresh git repository (``runs/hybrid.trec`` left out)."""
    copy_example(root)
    (root / "runs" / "hybrid.trec").unlink()
    git_init(root)
    commit_all(root, "example")
    return root


def add_run(repo: Path, system: str, source: str = "dense") -> str:
    """``runs/<system>.trec``: a copy of ``runs/<source>.trec``; returns its path (relative)."""
    rel = f"runs/{system}.trec"
    shutil.copy2(repo / "runs" / f"{source}.trec", repo / rel)
    return rel


def yaml_string(s: str) -> str:
    """``s`` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(s)


def small_label(qid: str, judged: list[str], relevant: list[str], pool: list[str]) -> str:
    lines = [f"id: {qid}", f"question: What about {qid}?", "relevant_doc_ids:"]
    lines += [f"  - {d}" for d in sorted(relevant)]
    lines.append("judged_ids:")
    lines += [f"  - {d}" for d in sorted(judged)]
    lines.append("pool:")
    for system in pool:
        lines += [f"  - system: {yaml_string(system)}", "    k: 3", "    date: '2026-06-02'"]
    return "\n".join(lines) + "\n"


def write_run(repo: Path, system: str, rankings: dict[str, list[str]]) -> None:
    rows = [
        f"{qid} Q0 {doc} {rank} {100 - rank} tag"
        for qid, docs in rankings.items()
        for rank, doc in enumerate(docs, 1)
    ]
    (repo / "runs" / f"{system}.trec").write_text("\n".join(rows) + "\n", encoding="utf-8")


def small_repo(root: Path, hostile: str, other: str = "bm25") -> Path:
    """Two questions pooled at depth 3 from ``other`` and ``hostile`` (a run each, committed)."""
    root.mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    write_run(root, other, {"q1": ["a1", "a2", "x1"], "q2": ["d1", "d2"]})
    write_run(root, hostile, {"q1": ["b1", "a2", "x2"], "q2": ["d2", "x3"]})
    (root / "labels" / "q1.yaml").write_text(
        small_label("q1", ["a1", "a2", "b1", "x1", "x2"], ["a1", "b1"], [other, hostile]),
        encoding="utf-8",
    )
    (root / "labels" / "q2.yaml").write_text(
        small_label("q2", ["d1", "d2", "x3"], ["d1", "d2"], [other, hostile]), encoding="utf-8"
    )
    git_init(root)
    commit_all(root, "two systems pooled")
    return root


@pytest.fixture(scope="session")
def example_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_repo(tmp_path_factory.mktemp("injection") / "example")


@pytest.fixture
def example(example_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the example repository, the working folder of the test."""
    repo = tmp_path / "repo"
    shutil.copytree(example_template, repo, symlinks=True)
    monkeypatch.chdir(repo)
    return repo


@pytest.fixture
def lp(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Run:
    """``lp(*args) -> (exit code, stdout, stderr)``: labelpool in-process, 100 columns, no
    colour, a private cache."""
    for var in ("FORCE_COLOR", "LABELPOOL_DEBUG", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))

    def call(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        check_cited(out, err)  # every position it cites exists
        return code, out, err

    return call


def refused_at_escape(result: tuple[int, str, str], where: str, char: str, written: str) -> None:
    """The command refused the label file at the escape ``written`` of the character ``char``
    (``U+001B``), in one line naming the character, printing none raw. Such a name in a label
    file (a double-quoted escape) once passed as text; since issue 29 an escape is the
    character it stands for (LP003, LP004), refused by every command as the raw character."""
    code, out, err = result
    assert (code, out) == (1, "")
    what = "bidirectional control character" if char.startswith("U+20") else "control character"
    rule = "LP004" if what.startswith("bidi") else "LP003"
    assert err == f"error: {where}: {rule} {what} {char}, written as {written}\n"
    no_raw_control(out, err)


def no_raw_control(*texts: str) -> None:
    """No C0 (but LF), DEL, C1 or bidi character in ``texts``, and no line that the GitHub
    runner would read as a workflow command (``::`` after leading blanks, ``##[`` anywhere)."""
    bad = {chr(c) for c in range(0x20) if c != 0x0A} | {chr(c) for c in range(0x7F, 0xA0)}
    bad |= set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    bad |= {"\u2028", "\u2029"}
    for text in texts:
        found = sorted({hex(ord(ch)) for ch in text if ch in bad})
        assert not found, found
        for line in text.split("\n"):
            assert not line.lstrip().startswith("::"), line
            assert "##[" not in line, line  # the runner's legacy form, read anywhere in a line
