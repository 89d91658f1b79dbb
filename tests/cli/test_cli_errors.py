"""Bad input through the CLI: a clear message naming file and line, exit 1 (bad data) or 2
(usage), never a traceback, and nothing half-written.

Every test works on its own copy of the example repository (pyproject.toml, labels/, runs/,
corpus/, schema/) committed in a fresh git repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import skip_unless
from labelpool.cli import main

MAIN = Path(__file__).resolve().parents[2]
EXAMPLE = ("pyproject.toml", "labels", "runs", "corpus", "schema")
LABEL = "acme-returns"
RUNS = ("runs/bm25.trec", "runs/dense.trec")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("example") / "repo"
    root.mkdir()
    for name in EXAMPLE:
        src = MAIN / name
        if src.is_dir():
            shutil.copytree(src, root / name)
        else:
            shutil.copy2(src, root / name)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "QA Runner")
    git(root, "config", "user.email", "qa@example.invalid")
    git(root, "add", "--", *EXAMPLE)
    git(root, "commit", "-q", "-m", "example")
    return root


@pytest.fixture
def repo(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(template, dest, symlinks=True)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(dest)
    return dest


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def call(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return call


def label_file(repo: Path, qid: str = LABEL) -> Path:
    return repo / "labels" / f"{qid}.yaml"


def edit(repo: Path, old: str, new: str, qid: str = LABEL) -> int:
    """Replace ``old`` (once) in a label file; return the 1-based line of the change."""
    path = label_file(repo, qid)
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def commit_all(repo: Path, message: str = "edit") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


# --------------------------------------------------------------------------- schema-invalid labels

# (name, old text, new text, line offset of the bad node from the edit, rule)
CORRUPTIONS = [
    # `grades: [1]` raised AttributeError from model.label_from_data (a traceback)
    ("grades-list", "grades:\n", "grades: [1]\nx_grades:\n", 0, "LP020"),
    # a negative grade was scored silently although validate refuses it
    ("grade-negative", "tenant-acme#returns: 2", "tenant-acme#returns: -1", 0, None),
    # `judged_ids: 5` gave `1:1: not a valid label ('int' object is not iterable)`
    ("judged-int", "judged_ids:\n", "judged_ids: 5\nx_judged:\n", 0, "LP020"),
    # a pool entry without k and date was used as if valid
    ("pool-entry", "  - system: bm25\n    k: 20\n", "  - system: bm25\n", 0, "LP020"),
    # an unquoted date made jsonschema-rs raise (a traceback) once the schema was checked
    ("pool-date", "    date: '2026-06-02'", "    date: 2026-06-02", 0, "LP021"),
]

COMMANDS = [
    ("score", *RUNS[:1]),
    ("compare", *RUNS),
    ("check", RUNS[1], "--against", RUNS[0]),
    ("pool", *RUNS, "--depth", "5", "--no-commit"),
    ("pool-info",),
    ("export", "trec"),
    ("bias",),
]


@pytest.mark.parametrize("corruption", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_schema_invalid_label_is_refused_with_its_position(
    repo: Path, run: Run, corruption: tuple[str, str, str, int, str | None], command: tuple[str]
) -> None:
    _name, old, new, offset, rule = corruption
    line = edit(repo, old, new) + offset
    before = {p.name: p.read_bytes() for p in (repo / "labels").iterdir()}
    code, _out, err = run(*command)
    assert code == 1, err
    assert err.startswith("error: ") and err.count("\n") == 1, err  # score's had no prefix
    assert re.search(rf"labels/{LABEL}\.yaml:{line}:\d+: LP0\d\d ", err), err
    if rule:
        assert f" {rule} " in err
    assert "labelpool validate" in err
    after = {p.name: p.read_bytes() for p in (repo / "labels").iterdir()}
    assert after == before  # nothing written


def test_validate_agrees_on_those_labels(repo: Path, run: Run) -> None:
    for _name, old, new, offset, _rule in CORRUPTIONS:
        line = edit(repo, old, new) + offset
        code, out, _err = run("validate", f"labels/{LABEL}.yaml")
        assert code == 1
        assert f"{LABEL}.yaml:{line}:" in out
        edit(repo, new, old)


def test_diff_of_worktree_names_the_invalid_label(repo: Path, run: Run) -> None:
    line = edit(repo, "judged_ids:\n", "judged_ids: 5\nx_judged:\n")
    code, _out, err = run("diff", "HEAD")
    assert code == 1
    assert f"{LABEL}.yaml:{line}:13: LP020 judged_ids: 5 is not of type 'array'" in err


def test_history_of_a_misshapen_label_gives_its_position(repo: Path, run: Run) -> None:
    line = edit(repo, "grades:\n", "grades: [1]\nx_grades:\n")
    code, _out, err = run("history", LABEL)
    assert code == 1
    assert f"{LABEL}.yaml:{line}:9: LP020 grades: [1] is not of type 'object'" in err


def test_diff_of_a_misshapen_label_in_a_revision_names_rev_and_line(repo: Path, run: Run) -> None:
    line = edit(repo, "grades:\n", "grades: [1]\nx_grades:\n")
    commit_all(repo)
    code, _out, err = run("diff", "HEAD", "HEAD~1")
    assert code == 1
    assert f"HEAD:labels/{LABEL}.yaml:{line}:9: LP020" in err


# --------------------------------------------------------------------------- merge


def test_merge_with_pending_not_a_list(repo: Path, run: Run) -> None:
    path = label_file(repo)
    path.write_text(path.read_text(encoding="utf-8") + "pending: 5\n", encoding="utf-8")
    commit_all(repo)
    code, _out, err = run("merge", "--no-commit")
    assert code == 1
    assert re.search(rf"labels/{LABEL}\.yaml:\d+:\d+: ", err), err
    assert "pending" in err


def test_merge_refuses_a_schema_invalid_label_before_writing(repo: Path, run: Run) -> None:
    assert run("pool", *RUNS, "--depth", "20")[0] == 0
    path = label_file(repo)
    text = path.read_text(encoding="utf-8")
    assert "verdict: null" in text
    line = edit(repo, "judged_ids:\n", "judged_ids: 5\nx_judged:\n")
    path.write_text(
        path.read_text(encoding="utf-8").replace("verdict: null", "verdict: irrelevant"),
        encoding="utf-8",
    )
    other = label_file(repo, "returns-damaged")
    other.write_text(
        other.read_text(encoding="utf-8").replace("verdict: null", "verdict: irrelevant"),
        encoding="utf-8",
    )
    before = {p.name: p.read_bytes() for p in (repo / "labels").iterdir()}
    code, _out, err = run("merge", "--no-commit")
    assert code == 1
    assert f"{LABEL}.yaml:{line}:13: LP020 judged_ids: 5 is not of type 'array'" in err
    after = {p.name: p.read_bytes() for p in (repo / "labels").iterdir()}
    assert after == before


# --------------------------------------------------------------------------- runs


def test_check_names_the_bad_reference_file_not_a_temp_copy(repo: Path, run: Run) -> None:
    (repo / "runs" / "bad.trec").write_text("q1 Q0 d1 1 2.0 x\nq1 Q0 d2\n", encoding="utf-8")
    code, _out, err = run("check", RUNS[0], "--against", "runs/bad.trec")
    assert code == 1
    assert "runs/bad.trec:2: expected 6 fields" in err
    assert "labelpool-check-" not in err


def test_check_names_the_bad_reference_revision(repo: Path, run: Run) -> None:
    good = (repo / RUNS[0]).read_bytes()
    (repo / RUNS[0]).write_text("q1 Q0 d1 1 nan x\n", encoding="utf-8")
    commit_all(repo, "break the run")
    (repo / RUNS[0]).write_bytes(good)
    code, _out, err = run("check", RUNS[0], "--against", "HEAD")
    assert code == 1
    assert "HEAD:runs/bm25.trec:1: score 'nan' is not a finite number" in err


# --------------------------------------------------------------------------- option values


@pytest.mark.parametrize(
    "args, message",
    [
        (("compare", *RUNS, "--relevance-level", "0"), "--relevance-level must be at least 1"),
        (("compare", *RUNS, "--seed", "-5"), "--seed must be >= 0"),
        (
            ("check", RUNS[1], "--against", RUNS[0], "--relevance-level", "0"),
            "--relevance-level must be at least 1",
        ),
        (("check", RUNS[1], "--against", RUNS[0], "--seed", "-1"), "--seed must be >= 0"),
        (("check", RUNS[1], "--against", RUNS[0], "--budget", "nan"), "--budget must be"),
        (("check", RUNS[1], "--against", RUNS[0], "--budget", "inf"), "--budget must be"),
        (("bias", "--relevance-level", "0"), "--relevance-level"),
        (("pool", *RUNS, "--depth", "5", "--questions", ","), "--questions"),
        (("pool", "runs/nope.trec", "--depth", "5"), "runs/nope.trec: no such run file"),
        (("pool", RUNS[0], RUNS[0], "--depth", "5"), "system 'bm25' is given twice"),
        (("diff", "HEAD", "--scores", "runs/nope.trec"), "runs/nope.trec: no such run file"),
        (("compare", RUNS[0], "runs/nope.trec"), "runs/nope.trec: no such run file"),
    ],
)
def test_bad_option_values_are_usage_errors(
    repo: Path, run: Run, args: tuple[str, ...], message: str
) -> None:
    code, _out, err = run(*args)
    assert code == 2, err
    assert message in err


# --------------------------------------------------------------------------- pool and git


def test_pool_without_a_git_identity_touches_nothing(
    repo: Path, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "EMAIL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("GIT_COMMITTER_EMAIL", raising=False)
    git(repo, "config", "--unset", "user.name")
    git(repo, "config", "--unset", "user.email")
    git(repo, "config", "user.useConfigOnly", "true")
    code, _out, err = run("pool", *RUNS, "--depth", "5")
    assert code == 1
    assert "user.name and user.email" in err
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "branch", "--list").split() == ["*", "main"]


def test_compare_refuses_a_run_that_shares_no_question_with_the_labels(
    repo: Path, run: Run
) -> None:
    """Once a warning beside a 'meaningful regression' of every measure to 0 (exit 0); now an
    input error naming ids of both sides (tests/cli/test_coverage.py has the rest)."""
    (repo / "runs" / "other.trec").write_text("q1 Q0 d1 1 1.0 x\n", encoding="utf-8")
    code, out, err = run("compare", RUNS[0], "runs/other.trec", "-m", "R@10")
    assert code == 1 and out == ""
    assert err.startswith("error: runs/other.trec: no question in common with the labels (run: q1;")


# --------------------------------------------------------------------------- merge --oracle


@pytest.mark.parametrize(
    "content, code, message",
    [
        (b"q 0 d 1\nq 0 caf\xe9 1\n", 1, "o.qrels:2:8: not UTF-8 (byte 0xE9)"),
        (b"", 1, "o.qrels:1:1: empty qrels file"),
        (b"q 0 d\n", 1, "o.qrels:1:1: expected 4 fields"),
        (None, 2, "o.qrels: cannot read qrels: No such file or directory"),
    ],
)
def test_merge_oracle_file_problems(
    repo: Path, run: Run, content: bytes | None, code: int, message: str
) -> None:
    oracle = repo.parent / "o.qrels"
    if content is not None:
        oracle.write_bytes(content)
    got, _out, err = run("merge", "--oracle", str(oracle))
    assert got == code
    assert message in err


# --------------------------------------------------------------------------- history


def test_history_of_a_file_name_suggests_the_question_id(repo: Path, run: Run) -> None:
    code, _out, err = run("history", f"{LABEL}.yaml")
    assert code == 1
    assert f"(give the question id: '{LABEL}')" in err


def test_history_with_an_empty_doc_is_a_usage_error(repo: Path, run: Run) -> None:
    code, _out, err = run("history", LABEL, "")
    assert code == 2
    assert "DOC is empty" in err


def test_diff_refuses_a_schema_invalid_changed_label_in_the_working_tree(
    repo: Path, run: Run
) -> None:
    line = edit(repo, "tenant-acme#returns: 2", "tenant-acme#returns: 0")
    code, _out, err = run("diff", "HEAD")
    assert code == 1
    assert f"labels/{LABEL}.yaml:{line}:" in err and "LP020" in err


# --------------------------------------------------------------------------- pool: all or nothing


def _untouched(repo: Path) -> None:
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "branch", "--list").split() == ["*", "main"]


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xd3\x00garbage\n", "corpus/corpus.jsonl:1:1: not JSON"),
        (b'{"_id": 5}\n', "corpus/corpus.jsonl:1:1: no string `_id`"),
        (None, "corpus/corpus.jsonl:1:1: cannot read corpus"),
    ],
)
def test_pool_with_a_bad_corpus_is_refused_before_branching(
    repo: Path, run: Run, content: bytes | None, message: str
) -> None:
    corpus = repo / "corpus" / "corpus.jsonl"
    if content is None:
        corpus.unlink()
    else:
        corpus.write_bytes(content)
    commit_all(repo, "break the corpus")
    code, _out, err = run("pool", *RUNS, "--depth", "5")
    assert code == 1
    assert message in err and "--no-text" in err
    _untouched(repo)


def test_pool_refusing_one_file_writes_no_other(repo: Path, run: Run) -> None:
    # a flow-style `pending` cannot take a batch; the file sorts after others that can
    last = sorted((repo / "labels").iterdir())[-1]
    last.write_text(last.read_text(encoding="utf-8") + "pending: [\n  ]\n", encoding="utf-8")
    commit_all(repo)
    code, _out, err = run("pool", *RUNS, "--depth", "25")
    assert code == 1
    assert f"labels/{last.name}:" in err and "not a block list" in err
    _untouched(repo)
    code, _out, err = run("pool", *RUNS, "--depth", "25", "--no-commit")
    assert code == 1
    _untouched(repo)


# --------------------------------------------------------------------------- huge cut-offs

HUGE = str(10**20)  # numpy cannot hold it: an OverflowError traceback before


@pytest.mark.parametrize(
    "args",
    [
        ("compare", *RUNS, "--k", HUGE),
        ("compare", *RUNS, "-m", f"P@{HUGE}"),
        ("check", RUNS[1], "--against", RUNS[0], "--k", HUGE),
        ("check", RUNS[1], "--against", RUNS[0], "-m", f"R@{HUGE}"),
        ("pool", *RUNS, "--depth", HUGE, "--no-commit"),
        ("bias", "--k", HUGE),
        ("bias", "-m", f"P@{HUGE}"),
        ("diff", "HEAD", "--scores", RUNS[0], "-m", f"P@{HUGE}"),
        ("compare", *RUNS, "--relevance-level", HUGE),
        ("check", RUNS[1], "--against", RUNS[0], "--relevance-level", HUGE),
        ("bias", "--relevance-level", HUGE),
    ],
)
def test_huge_cutoffs_are_usage_errors(repo: Path, run: Run, args: tuple[str, ...]) -> None:
    code, _out, err = run(*args)
    assert code == 2, err
    assert "must be at most 1,000,000,000" in err
    _untouched(repo)


def test_two_label_files_with_one_id_are_refused(repo: Path, run: Run) -> None:
    shutil.copy2(label_file(repo), repo / "labels" / f"{LABEL}.yml")  # one was dropped silently
    for command in (("score", RUNS[0]), ("compare", *RUNS), ("pool-info",)):
        code, _out, err = run(*command)
        assert code == 1
        assert f"labels/{LABEL}.yml:3:5: id '{LABEL}' is also the id of " in err
        assert f"labels/{LABEL}.yaml" in err


# (old, new, rule): schema-valid labels validate refuses and that would change scores
MEANING = [
    ("relevant_doc_ids:\n", "relevant_doc_ids:\n  - zz-not-judged\n", "LP025"),
    ("grades:\n", "grades:\n  export-pdf-2026#p5: 3\n", "LP027"),
    ("grades:\n", "pooled_unjudged_ids:\n  - tenant-acme#returns\ngrades:\n", "LP040"),
    (f"id: {LABEL}\n", "id: other-id\n", "LP022"),
]


@pytest.mark.parametrize("old, new, rule", MEANING, ids=[m[2] for m in MEANING])
def test_labels_validate_refuses_for_their_meaning_are_refused(
    repo: Path, run: Run, old: str, new: str, rule: str
) -> None:
    line = edit(repo, old, new)
    for command in (("score", RUNS[0]), ("compare", *RUNS), ("pool", *RUNS, "--depth", "5")):
        code, _out, err = run(*command)
        assert code == 1
        assert re.search(rf"labels/{LABEL}\.yaml:{line}:\d+: {rule} ", err) or re.search(
            rf"labels/{LABEL}\.yaml:{line + 1}:\d+: {rule} ", err
        ), err
    code, out, _err = run("validate", f"labels/{LABEL}.yaml")
    assert code == 1 and f" {rule} " in out


def _labels_outside(repo: Path) -> Path:
    outside = repo.parent / "outside-labels"
    shutil.copytree(repo / "labels", outside)
    (repo / "pyproject.toml").write_text(
        f'[tool.labelpool]\nformat = 1\nlabels = "{outside.as_posix()}"\n', encoding="utf-8"
    )
    commit_all(repo, "labels elsewhere")
    return outside


def test_pool_and_merge_with_labels_outside_the_repository(repo: Path, run: Run) -> None:
    outside = _labels_outside(repo)
    code, _out, err = run("pool", *RUNS, "--depth", "5")
    assert code == 1
    assert "outside the repository" in err and "--no-commit" in err
    _untouched(repo)
    assert run("pool", *RUNS, "--depth", "5", "--no-commit")[0] == 0
    code, _out, err = run("merge")
    assert code == 1
    assert "outside the repository" in err
    batch = next(p for p in sorted(outside.iterdir()) if "verdict: null" in p.read_text())
    batch.write_text(batch.read_text().replace("verdict: null", "verdict: irrelevant", 1))
    before = batch.read_text()
    assert run("merge", "--no-commit", "--partial")[0] == 0  # no blame outside: no traceback
    assert batch.read_text() != before


# --------------------------------------------------------------------------- markdown reports

ODD = "a|b<img src=x> @someone"


def test_markdown_reports_escape_run_file_names(repo: Path, run: Run) -> None:
    shutil.copy2(repo / RUNS[1], repo / "runs" / f"{ODD}.trec")
    code, out, _err = run(
        "compare", RUNS[0], f"runs/{ODD}.trec", "-m", "R@10", "--format", "markdown"
    )
    assert code == 0
    code, pooled, _err = run(
        "pool", RUNS[0], f"runs/{ODD}.trec", "--depth", "12", "--no-commit", "--format", "markdown"
    )
    assert code == 0
    for md in (out, pooled):
        outside_code = re.sub(r"`[^`]*`", "", md)  # a code span shows HTML as text
        assert "<img" not in outside_code and " @someone" not in outside_code
        assert "a\\|b&lt;img src=x&gt; &#64;someone" in md
        for row in (line for line in md.splitlines() if line.startswith("| a")):
            assert row.count(" | ") == row.count("|") - row.count("\\|") - 2  # no extra cell
    assert "R@10" in out  # measure names are left alone


def test_pool_default_branch_name_survives_odd_run_file_names(repo: Path, run: Run) -> None:
    shutil.copy2(repo / RUNS[1], repo / "runs" / "a b~c:d..e.trec")
    commit_all(repo)
    code, _out, err = run("pool", RUNS[0], "runs/a b~c:d..e.trec", "--depth", "5")
    assert code == 0, err
    branch = git(repo, "branch", "--show-current").strip()
    assert branch.startswith("labelpool/batch-") and branch.endswith("-bm25+a-b-c-d.e")


@pytest.mark.parametrize(
    "command", [("score", RUNS[0]), ("compare", *RUNS), ("pool-info",), ("merge", "--no-commit")]
)
def test_a_fifo_among_the_labels_is_refused_not_read(
    repo: Path, run: Run, command: tuple[str, ...]
) -> None:
    os.mkfifo(repo / "labels" / "fifo.yaml")
    code, _out, err = run(*command)  # reading it would block forever
    assert code == 1
    assert "labels/fifo.yaml:1:1: not a regular file" in err


def test_merge_reads_a_crlf_label_file(repo: Path, run: Run) -> None:
    assert run("pool", *RUNS, "--depth", "20")[0] == 0
    path = label_file(repo)
    text = path.read_text(encoding="utf-8").replace("verdict: null", "verdict: irrelevant")
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))  # a Windows checkout
    commit_all(repo, "verdicts, CRLF")
    code, out, err = run("merge", "--partial")
    assert code == 0, err  # was: "the pending block changed in a rewrite"
    assert "QA Runner" in out
    assert b"\r" not in path.read_bytes() and "pending" not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "table, message",
    [
        ("alpha = 5", "alpha must be between 0 and 1, not 5"),  # was a StatisticsError traceback
        ("alpha = nan", "alpha must be between 0 and 1"),
        ("[tool.labelpool.readings]\nhigh = -1", "readings.high must be between 0 and 1"),
        ("[tool.labelpool.readings]\nratio = 0.5", "readings.ratio must be at least 1"),
    ],
)
def test_out_of_range_thresholds_in_pyproject(
    repo: Path, run: Run, table: str, message: str
) -> None:
    (repo / "pyproject.toml").write_text(
        f"[tool.labelpool]\nformat = 1\n{table}\n", encoding="utf-8"
    )
    for command in (("compare", *RUNS, "-m", "R@10"), ("check", RUNS[1], "--against", RUNS[0])):
        code, _out, err = run(*command)
        assert code == 2
        assert "pyproject.toml: [tool.labelpool] thresholds: " + message in err


def test_a_bad_run_at_a_recorded_blob_is_named_by_blob_and_system(repo: Path, run: Run) -> None:
    garbage = repo.parent / "garbage.trec"
    garbage.write_bytes(b"acme-returns Q0 d1 1 \xff\xfe x\n")
    blob = git(repo, "hash-object", "-w", str(garbage)).strip()
    path = label_file(repo)
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "    date: '2026-06-02'", f"    date: '2026-06-02'\n    run: {blob}"
        ),
        encoding="utf-8",
    )
    commit_all(repo, "pool entry names a broken run")
    code, _out, err = run("validate", "--provenance")
    assert code == 1
    assert f"git blob {blob[:12]} (pooled run of bm25):1: score is not valid UTF-8" in err
    assert "labelpool-runs-" not in err


def test_merge_with_a_broken_blame_ignore_file_names_no_wrong_judge(repo: Path, run: Run) -> None:
    assert run("pool", *RUNS, "--depth", "20")[0] == 0
    path = label_file(repo)
    path.write_text(path.read_text().replace("verdict: null", "verdict: irrelevant", 1))
    (repo / ".git-blame-ignore-revs").write_text("deadbeef\n", encoding="utf-8")
    commit_all(repo, "a verdict; an ignore file naming no commit")
    before = label_file(repo).read_bytes()
    code, _out, err = run("merge", "--partial")
    assert code == 1
    assert f"labels/{LABEL}.yaml: cannot tell who wrote its verdicts" in err
    assert ".git-blame-ignore-revs" in err
    assert "attributed to the current git user" not in err  # was: every verdict misattributed
    assert label_file(repo).read_bytes() == before


def test_bias_markdown_escapes_run_file_names(repo: Path, run: Run) -> None:
    shutil.copy2(repo / RUNS[1], repo / "runs" / f"{ODD}.trec")
    commit_all(repo, "an oddly named run")
    assert run("pool", RUNS[0], f"runs/{ODD}.trec", "--depth", "10")[0] == 0
    qrels = str(repo / "corpus" / "ground-truth.qrels")
    assert run("merge", "--oracle", qrels, "--oracle-missing", "irrelevant")[0] == 0
    code, md, err = run("bias", "--format", "markdown")
    assert code == 0, err
    assert "<img" not in md and " @someone" not in md
    assert "a\\|b&lt;img src=x" in md and "&#64;someone" in md


def test_identical_runs_read_sign_cannot_flip(repo: Path, run: Run) -> None:
    shutil.copy2(repo / RUNS[0], repo / "runs" / "same.trec")
    code, out, _err = run("compare", RUNS[0], "runs/same.trec", "-m", "R@10", "--verbose")
    assert code == 0
    assert "measure  95% CI              MDE  delta range       method  flip?   W/T/L" in out
    assert "R@10     [+0.000, +0.000]  0.000  [+0.000, +0.000]  exact   no     0/58/0" in out


@pytest.mark.parametrize("args", [("pool-info",), ("export", "trec"), ("history", LABEL)])
def test_output_that_cannot_be_written_is_an_error_not_a_traceback(
    repo: Path, args: tuple[str, ...]
) -> None:
    skip_unless(Path("/dev/full").exists(), "needs /dev/full (Linux)", "os")
    with open("/dev/full", "w") as full:  # every write fails: disk full
        proc = subprocess.run(
            ["labelpool", *args], cwd=repo, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert proc.returncode == 1
    assert "No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_bug_is_one_line_not_a_traceback(
    repo: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labelpool.workflows.audit import poolinfo

    def broken(*_args: object, **_kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(poolinfo, "pool_info", broken)
    monkeypatch.delenv("LABELPOOL_DEBUG", raising=False)
    code, _out, err = run("pool-info")
    assert code == 70
    assert "error: internal error: ZeroDivisionError: a bug" in err
    assert "LABELPOOL_DEBUG=1" in err
    monkeypatch.setenv("LABELPOOL_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["pool-info"])


# --------------------------------------------------------------------------- fixed after 14:10


@pytest.mark.parametrize(
    "args",
    [
        ("score", RUNS[0], "--k", HUGE),
        ("score", RUNS[0], "-m", f"P@{HUGE}"),
        ("score", RUNS[0], "--relevance-level", HUGE),
    ],
)
def test_score_huge_cutoffs_are_usage_errors(repo: Path, run: Run, args: tuple[str, ...]) -> None:
    code, _out, err = run(*args)
    assert code == 2, err
    assert "must be at most 1,000,000,000" in err


def test_validate_and_fmt_report_a_fifo_instead_of_hanging(repo: Path, run: Run) -> None:
    os.mkfifo(repo / "labels" / "fifo.yaml")
    code, out, err = run("validate")
    assert code == 1
    assert "labels/fifo.yaml:1:1:" in out and "not a regular file" in out
    code, out, err = run("fmt")
    assert code == 1
    assert "labels/fifo.yaml:1:1: LP015 not a regular file" in out + err


def test_add_when_labels_is_a_file(repo: Path, run: Run) -> None:
    shutil.rmtree(repo / "labels")
    (repo / "labels").write_text("", encoding="utf-8")
    code, _out, err = run("add", "q1", "What?")
    assert code == 2  # was a FileExistsError traceback; now a configuration error
    assert "is not a folder" in err and "Traceback" not in err


@pytest.mark.parametrize("target", ["corpus", "fifo.qrels"])
def test_export_out_refuses_what_is_not_a_regular_file(repo: Path, run: Run, target: str) -> None:
    if target == "fifo.qrels":
        os.mkfifo(repo / target)
    code, _out, err = run("export", "trec", "--out", target)
    assert code == 2  # atomic replacement would have put a file where a device or folder is
    assert f"--out {target}: not a regular file" in err
    assert (repo / target).is_dir() or not (repo / target).is_file()


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "tenant-acme#returns: 2",
            "tenant-acme#returns: -1",
            "LP020 grades.tenant-acme#returns: -1 is less than the minimum of 1",
        ),  # was LP021 "quote it ('-1')"
        ("pool:\n", "pending:\npool:\n", "LP020 pending: None is not of type 'array'"),
    ],
)
def test_validate_messages_for_numbers_and_empty_values(
    repo: Path, run: Run, old: str, new: str, message: str
) -> None:
    line = edit(repo, old, new)
    code, out, _err = run("validate", f"labels/{LABEL}.yaml")
    assert code == 1
    assert f"labels/{LABEL}.yaml:{line}:" in out and message in out
    assert "quote it" not in out


def test_import_of_an_empty_qrels_file_is_an_error(repo: Path, run: Run) -> None:
    (repo / "e.qrels").write_text("\n", encoding="utf-8")
    code, _out, err = run("import", "trec", "e.qrels", "--queries", "corpus/questions.jsonl")
    assert code == 1  # was: "imported 0 question(s)", exit 0
    assert "e.qrels:1:1: no `qid iter doc grade` line" in err


@pytest.mark.parametrize("command", ["score", "compare", "pool"])
def test_a_bad_run_file_is_an_error_line_in_every_command(
    repo: Path, run: Run, command: str
) -> None:
    """0.1.0's ``score`` printed run errors without the ``error:`` every other error has."""
    (repo / "runs" / "short.trec").write_text("q Q0 d 1 2\n", encoding="utf-8")
    extra = ("--depth", "5", "--no-commit") if command == "pool" else ()
    code, out, err = run(command, RUNS[0], "runs/short.trec", *extra)
    assert (code, out) == (1, ""), err
    assert err == (
        "error: runs/short.trec:1: expected 6 fields `qid Q0 docid rank score tag`, found 5\n"
    )
    code, out, err = run(command, RUNS[0], "runs/nothing.trec", *extra)
    assert code in (1, 2) and out == "", err
    assert err.startswith("error: runs/nothing.trec: no such run file"), err
