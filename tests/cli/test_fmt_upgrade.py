"""``labelpool fmt --upgrade``: the record of who judged written from git blame, on real git
repositories (two authors, an uncommitted line, the shipped example); idempotent; ``--check``;
refused outside a work tree, in a shallow clone and on a file that does not validate."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.cli import main
from labelpool.model import label_from_data

ANA = ("Ana Lopez", "ana@example.org")
BO = ("Bo Chen", "bo@example.org")
ME = ("Cy Park", "cy@example.org")
CHECKOUT = Path(__file__).resolve().parents[2]

Q1 = """\
id: q1
question: Are shops open on Sundays?
relevant_doc_ids:
  - a#1
judged_ids:
  - a#1
  - b#2
pool:
  - system: bm25
    k: 10
    date: '2026-12-01'
"""
Q2 = """\
id: q2
question: Where is my parcel?
relevant_doc_ids: []
judged_ids:
  - z#9
pool:
  - system: bm25
    k: 10
    date: '2026-12-01'
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def git(repo: Path, *args: str, author: tuple[str, str] | None = None) -> str:
    env = dict(os.environ)
    env.update(GIT_COMMITTER_NAME="Runner", GIT_COMMITTER_EMAIL="runner@example.invalid")
    if author is not None:
        env.update(GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1])
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def init(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", ME[0])
    git(repo, "config", "user.email", ME[1])


def run(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    old = Path.cwd()
    os.chdir(repo)
    try:
        code = main(list(args))
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def judged(repo: Path) -> Path:
    """q1: Ana judged a#1 and b#2, Bo graded c#3 later, and d#4 is not committed yet;
    q2: Bo's only."""
    init(repo)
    (repo / "labels" / "q1.yaml").write_text(Q1)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "ana judges", author=ANA)
    q1 = Q1.replace("  - a#1\njudged_ids:", "  - a#1\n  - c#3\njudged_ids:")
    q1 = q1.replace("  - b#2\n", "  - b#2\n  - c#3\ngrades:\n  c#3: 3\n")
    (repo / "labels" / "q1.yaml").write_text(q1)
    (repo / "labels" / "q2.yaml").write_text(Q2)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "bo judges", author=BO)
    q1 = q1.replace("  - c#3\ngrades:", "  - c#3\n  - d#4\ngrades:")
    (repo / "labels" / "q1.yaml").write_text(q1)
    return repo


def test_upgrade_names_every_judge(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = {p.name: p.read_text() for p in (judged / "labels").iterdir()}
    code, out, _ = run(judged, capsys, "fmt", "--upgrade", "--check")
    lines = out.splitlines()
    assert (code, lines[-1]) == (1, "2 file(s) would be upgraded, 0 unchanged")
    assert [line.rsplit("/", 1)[-1] for line in lines[:-1]] == [
        "q1.yaml: would upgrade",
        "q2.yaml: would upgrade",
    ]
    assert {p.name: p.read_text() for p in (judged / "labels").iterdir()} == before

    code, out, _ = run(judged, capsys, "fmt", "--upgrade")
    assert (code, out.splitlines()[-1]) == (0, "2 file(s) upgraded, 0 unchanged")
    q1 = (judged / "labels" / "q1.yaml").read_text()
    assert q1 == (
        "id: q1\n"
        "question: Are shops open on Sundays?\n"
        "judge: Ana Lopez <ana@example.org>\n"
        "relevant_doc_ids:\n  - a#1\n  - c#3\n"
        "judged_ids:\n  - a#1\n  - b#2\n  - c#3\n  - d#4\n"
        "grades:\n  c#3: 3\n"
        "verdicts:\n"
        "  c#3:\n    - {judge: Bo Chen <bo@example.org>, verdict: 3}\n"
        "  d#4:\n    - {judge: Cy Park <cy@example.org>, verdict: irrelevant}\n"
        "pool:\n  - system: bm25\n    k: 10\n    date: '2026-12-01'\n"
    )
    q2 = (judged / "labels" / "q2.yaml").read_text()
    assert q2.startswith("id: q2\nquestion: Where is my parcel?\njudge: Bo Chen <bo@example.org>\n")
    assert "verdicts" not in q2
    assert run(judged, capsys, "validate")[0] == 0
    # idempotent: a second run changes nothing, and --check agrees
    assert run(judged, capsys, "fmt", "--upgrade")[:2] == (0, "0 file(s) upgraded, 2 unchanged\n")
    assert (judged / "labels" / "q1.yaml").read_text() == q1
    assert run(judged, capsys, "fmt", "--upgrade", "--check")[:2] == (
        0,
        "0 file(s) would be upgraded, 2 unchanged\n",
    )
    # a plain fmt leaves the new form as it is
    assert run(judged, capsys, "fmt")[0] == 0
    assert (judged / "labels" / "q1.yaml").read_text() == q1


def test_a_tie_goes_to_the_first_judge_in_code_point_order(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init(repo)
    (repo / "labels" / "q1.yaml").write_text(Q1.replace("  - b#2\n", ""))
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "bo", author=BO)
    (repo / "labels" / "q1.yaml").write_text(Q1)
    git(repo, "commit", "-qam", "ana", author=ANA)
    assert run(repo, capsys, "fmt", "--upgrade")[0] == 0
    data = yamlfile.loads_fast((repo / "labels" / "q1.yaml").read_text())
    label = label_from_data(data)
    assert label.judge == "Ana Lopez <ana@example.org>"
    assert {d: [(v.judge, v.verdict) for v in vs] for d, vs in label.verdicts.items()} == {
        "a#1": [("Bo Chen <bo@example.org>", "relevant")]
    }


def test_refused_outside_a_git_work_tree(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "labels" / "q1.yaml").write_text(Q1)
    code, _, err = run(repo, capsys, "fmt", "--upgrade")
    assert code == 1
    assert "not a git work tree: fmt --upgrade names each verdict's judge from git blame" in err
    assert (repo / "labels" / "q1.yaml").read_text() == Q1


def test_refused_in_a_shallow_clone(
    judged: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    git(judged, "commit", "-qam", "d#4", author=ANA)
    clone = tmp_path_factory.mktemp("shallow") / "c"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{judged}", str(clone)], check=True
    )
    before = (clone / "labels" / "q1.yaml").read_text()
    code, _, err = run(clone, capsys, "fmt", "--upgrade")
    assert code == 1
    assert "error: shallow clone: verdict authors cannot be read; run git fetch --unshallow" in err
    assert (clone / "labels" / "q1.yaml").read_text() == before


def test_refused_when_a_file_does_not_validate(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = Q2.replace("  - z#9\n", "  - z#9\n  - z#9\n")
    (judged / "labels" / "q2.yaml").write_text(bad)
    before = (judged / "labels" / "q1.yaml").read_text()
    code, _, err = run(judged, capsys, "fmt", "--upgrade")
    assert code == 1
    assert "labels/q2.yaml:" in err and "LP026" in err and "nothing was written" in err
    assert (judged / "labels" / "q1.yaml").read_text() == before
    assert (judged / "labels" / "q2.yaml").read_text() == bad


def test_the_shipped_example(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(repo / "labels")
    shutil.copytree(CHECKOUT / "labels", repo / "labels")
    init(repo)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "the example", author=ANA)
    files = len(list((repo / "labels").glob("*.yaml")))
    code, out, _ = run(repo, capsys, "fmt", "--upgrade")
    assert code == 0
    last = out.splitlines()[-1]
    upgraded = int(last.split()[0])
    assert last == f"{upgraded} file(s) upgraded, {files - upgraded} unchanged"
    assert upgraded > 0
    for path in (repo / "labels").glob("*.yaml"):
        label = label_from_data(yamlfile.loads_fast(path.read_text()))
        assert not label.verdicts
        assert label.judge == ("Ana Lopez <ana@example.org>" if label.judged else None)
    code, out, _ = run(repo, capsys, "validate")
    assert code == 0
    assert run(repo, capsys, "fmt", "--upgrade")[:2] == (
        0,
        f"0 file(s) upgraded, {files} unchanged\n",
    )
