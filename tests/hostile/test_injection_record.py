"""Hostile identities in the record of judges: a git author whose name holds YAML's flow
indicators and quotes is written so that it reads back as itself; one holding a
bidirectional control makes ``fmt --upgrade`` refuse in one line, writing nothing; a verdict
line whose judge holds an escape is refused by validate at its place. ``fmt --upgrade``
waits for the repository lock with ``--wait``."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
from tests.hostile.writers_scenario import holding

from labelpool import yamlfile
from labelpool.cli import main
from labelpool.model import label_from_data

LABEL = """\
id: q1
question: Where is my parcel?
relevant_doc_ids: []
judged_ids:
  - a#1
pool:
  - system: bm25
    k: 10
    date: '2026-12-01'
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _git(repo: Path, *args: str, author: tuple[str, str] = ("Runner", "r@x.org")) -> None:
    env = dict(os.environ)
    env.update(
        GIT_AUTHOR_NAME=author[0],
        GIT_AUTHOR_EMAIL=author[1],
        GIT_COMMITTER_NAME="Runner",
        GIT_COMMITTER_EMAIL="r@x.org",
    )
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _committed(repo: Path, author: tuple[str, str]) -> Path:
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.name", "Runner")
    _git(repo, "config", "user.email", "r@x.org")
    (repo / "labels" / "q1.yaml").write_text(LABEL)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "judged", author=author)
    return repo / "labels" / "q1.yaml"


def _run(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    old = Path.cwd()
    os.chdir(repo)
    try:
        code = main(list(args))
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


@pytest.mark.parametrize(
    "name", ["Doe, Jane", "O'Brien {x} [y]", "#1 - no: yes", "Zoë “Z” Ünïcode", "null"]
)
def test_an_odd_author_name_reads_back_as_itself(
    repo: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = _committed(repo, (name, "odd@x.org"))
    assert _run(repo, capsys, "fmt", "--upgrade")[0] == 0
    assert label_from_data(yamlfile.loads_fast(path.read_text())).judge == f"{name} <odd@x.org>"
    assert _run(repo, capsys, "validate")[0] == 0


def test_a_bidi_control_in_an_author_name_is_refused(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _committed(repo, ("Eve\u202eevil", "eve@x.org"))
    code, err = _run(repo, capsys, "fmt", "--upgrade")
    assert code == 1
    assert err.startswith("error: ") and "labels/q1.yaml" in err and "LP004" in err, err
    assert err.count("\n") == 1 and "\u202e" not in err
    assert path.read_text() == LABEL


def test_an_escape_in_a_verdict_line_is_refused_at_its_place(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = LABEL + 'verdicts:\n  a#1:\n    - {judge: "Eve \\e <e@x.org>", verdict: irrelevant}\n'
    (repo / "labels" / "q1.yaml").write_text(text)
    code, out = _run(repo, capsys, "validate")
    assert code == 1
    assert "labels/q1.yaml:12:20: LP003" in out, out


def test_upgrade_waits_for_the_lock(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _committed(repo, ("Ana", "ana@x.org"))
    ready = threading.Event()

    def hold_for_a_second() -> None:
        with holding(repo):
            ready.set()
            time.sleep(1.0)

    holder = threading.Thread(target=hold_for_a_second)
    holder.start()
    ready.wait()
    code, err = _run(repo, capsys, "fmt", "--upgrade", "--wait", "30")
    holder.join()
    assert code == 0, err
    assert "judge: Ana <ana@x.org>\n" in path.read_text()
