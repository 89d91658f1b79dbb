"""A checkout the user cannot write (issue 29): every writer refuses with one clear
``error:`` line, exit 1, before it writes anything (the files, their modes, the refs,
``HEAD``, the index entries and ``.git/labelpool/`` as they were).

Two checkouts: the whole repository read-only (``chmod -R a-w``: the repository lock cannot
be taken) and only its label folder read-only (the lock is taken; each writer checks the
folders it will write before the first write: ``merge`` and ``pool`` before their branch
moves, which before this check left the branch moved and the files unwritten).

Root ignores permission bits, and the tests run as root here (and maybe in CI): the writer
then runs under ``setpriv`` without the capabilities that bypass them (``CAP_DAC_OVERRIDE``,
``CAP_DAC_READ_SEARCH``, ``CAP_FOWNER``), so that the owner's bits bind it as they bind any
user. A user other than root runs it as it is.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.hostile.test_concurrency_page import _call, _token
from tests.hostile.writers_scenario import repository_state

from conftest import skip_unless
from faults import judged_repo
from judge_scenario import FIRST_LINE, pooled_example
from pool_scenario import git, make_repo

DROP = ["--bounding-set", "-dac_override,-dac_read_search,-fowner", "--inh-caps", "-all"]
QRELS = "new-q Q0 faq-orders#cancel 1\nnew-q Q0 guide-app#login 0\n"
QUERIES = "new-q\tWhere is the new question?\n"
UNSORTED = "  - faq-orders#late\n  - faq-orders#cancel\n"  # fmt sorts it


def _prefix() -> list[str]:
    """What makes a command bound by permission bits: nothing for a user other than root;
    ``setpriv`` dropping the capabilities that bypass them for root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    skip_unless(setpriv, "setpriv (util-linux) is needed to drop root's DAC capabilities", "os")
    assert setpriv is not None
    probe = subprocess.run(
        [setpriv, *DROP, "--", sys.executable, "-c", "import os; os.mkdir('/proc/x')"],
        capture_output=True,
        check=False,
    )
    skip_unless(probe.returncode != 0, "setpriv could not drop CAP_DAC_OVERRIDE", "os")
    return [setpriv, *DROP, "--"]


def _read_only(folder: Path) -> None:
    for p in [folder, *folder.rglob("*")]:
        if not p.is_symlink():
            p.chmod(stat.S_IMODE(p.stat().st_mode) & ~0o222)


def _writable(folder: Path) -> None:
    for p in [folder, *folder.rglob("*")]:
        if not p.is_symlink():
            p.chmod(stat.S_IMODE(p.stat().st_mode) | 0o200)


@pytest.fixture(scope="module")
def prefix() -> list[str]:
    return _prefix()


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("read-only")
    judged = judged_repo(where / "judged")  # a pooled batch with committed verdicts
    fresh = make_repo(where / "fresh")
    (where / "qrels").write_text(QRELS, encoding="utf-8")
    (where / "queries.tsv").write_text(QUERIES, encoding="utf-8")
    unformatted = make_repo(where / "unformatted")
    path = unformatted / "labels" / "cancel-order.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("  - faq-orders#cancel\n  - faq-orders#late\n", UNSORTED), encoding="utf-8"
    )
    git(unformatted, "commit", "-q", "-am", "unsorted")
    return {"judged": judged, "fresh": fresh, "unformatted": unformatted, "inputs": where}


WRITERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "merge": ("judged", ("merge", "--partial")),
    "merge --no-commit": ("judged", ("merge", "--partial", "--no-commit")),
    "pool": ("fresh", ("pool", "a", "b", "--depth", "3")),
    "pool --no-commit": ("fresh", ("pool", "a", "b", "--depth", "3", "--no-commit")),
    "import trec": (
        "fresh",
        ("import", "trec", "{inputs}/qrels", "--queries", "{inputs}/queries.tsv"),
    ),
    "add": ("fresh", ("add", "new-q", "Where is the new question?")),
    "fmt": ("unformatted", ("fmt",)),
}


@pytest.fixture
def checkout(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "repo"
    if (tmp_path / "repo").exists():
        _writable(tmp_path / "repo")


@pytest.mark.parametrize("part", ["repository", "labels"])
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_writer_on_a_read_only_checkout_changes_nothing(
    writer: str, part: str, prefix: list[str], bases: dict[str, Path], checkout: Path
) -> None:
    base, args = WRITERS[writer]
    repo = checkout
    shutil.copytree(bases[base], repo, symlinks=True)
    _read_only(repo if part == "repository" else repo / "labels")
    before = repository_state(repo)
    env = dict(os.environ, LABELPOOL_CACHE_DIR=str(repo.parent / "cache"))
    argv = [a.format(inputs=bases["inputs"]) for a in args]
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "labelpool", *argv],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert "Permission denied" in lines[0] and "nothing changed" in lines[0], lines[0]
    if part == "repository":
        assert "cannot take the repository lock" in lines[0], lines[0]
    else:
        assert lines[0].startswith(f"error: {repo / 'labels'}: Permission denied"), lines[0]
    assert repository_state(repo) == before


@pytest.mark.parametrize("part", ["repository", "labels"])
def test_a_page_write_on_a_read_only_checkout_changes_nothing(
    part: str, prefix: list[str], tmp_path: Path, checkout: Path
) -> None:
    """The page answers 503 with the reason in JSON (not a 500), nothing written."""
    shutil.copytree(pooled_example(tmp_path / "p"), checkout, symlinks=True)
    repo = checkout
    _read_only(repo if part == "repository" else repo / "labels")
    before = repository_state(repo)
    env = dict(os.environ, LABELPOOL_CACHE_DIR=str(tmp_path / "cache"))
    server = subprocess.Popen(
        [*prefix, sys.executable, "-m", "labelpool", "judge", "--port", "0", "--no-browser"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        match = FIRST_LINE.match(server.stdout.readline().rstrip("\n"))
        assert match is not None, server.stderr.read() if server.stderr else ""
        port = int(match.group(2))
        token = _token(port)
        _, state = _call(port, "GET", "/api/state", token)
        q = state["questions"][0]
        d = q["docs"][0]
        body = {
            "q": q["qid"],
            "batch": state["batch"],
            "doc": d["doc"],
            "expect": d["block"],
            "verdict": "relevant",
        }
        status, answer = _call(port, "POST", "/api/verdict", token, body)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    assert status == 503, answer
    assert "Permission denied" in answer["error"] and "nothing changed" in answer["error"]
    assert repository_state(repo) == before
