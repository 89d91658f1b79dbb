"""Every shell and Python block of ``README.md`` and ``docs/*.md`` runs, and what a page shows a
command printing is what it prints.

Each document runs in a fresh temporary folder outside any git work tree (checked), its
blocks in order, in one shell state (a ``cd`` or an ``export`` carries over to the next
block); a shell block runs in ``bash -euo pipefail`` and must exit 0, a Python block in a fresh
interpreter (so each Python block is a whole program). The environment is built, not
inherited (``docblocks.Session.start``): ``COLUMNS=80``, ``NO_COLOR=1``, a temporary
``LABELPOOL_CACHE_DIR`` and ``HOME``, ``TMPDIR`` inside the folder, git's identity from
``GIT_AUTHOR_*``/``GIT_COMMITTER_*`` and a ``GIT_CONFIG_GLOBAL`` file (never the machine's
global config), and ``labelpool``/``python`` running the package under test.

**What a block shows.** A ``text`` block right after a shell or Python block (blank lines
only between), or after prose under ``<!-- doc-test: output -->``, is what that block prints,
stdout and stderr together as on a terminal. In a ``console`` block each ``$ command`` line is
followed by what it prints. Compared byte for byte, except (``docblocks.VARIABLE``), each
standing for any token of the same shape and length, so that line wrapping is tested too:

* dates and git timestamps (``2026-12-02``, ``2026-12-02T10:00:00+00:00``): batches are
  named by the day they are made, commits carry the time they were made;
* hexadecimal ids of 7 to 40 characters holding a digit: commit ids (and the blob and tree
  ids around them) change with every commit's time;
* ``mktemp`` folder names (``tmp.Xk3jQ9aB2c``); and this run's temporary folder is printed as
  ``/tmp`` (where ``mktemp -d`` puts a reader's folders).

No timing is printed by any block shown, so none is normalised.

**Markers**, an HTML comment line before a block (``docblocks.read`` checks each):

* ``<!-- doc-test: setup=example -->`` before a document's first block: the folder starts as
  a copy of the example shipped in this checkout (``pyproject.toml``, ``labels/``, ``runs/``,
  ``corpus/``, ``schema/``, ``.gitattributes``), a git repository with one commit on ``main``;
* ``<!-- doc-test: data=CAST:trec-cast-2021 -->``: ``$CAST`` is set to
  ``../shared/data/trec-cast-2021``; when that folder is absent the document is skipped,
  saying ``../shared/data is absent`` (the one skip allowed under ``CI=true``);
* ``<!-- doc-test: exit=N -->``: the block must exit N (its last command; ``set -e`` stops
  at the first failure);
* ``<!-- doc-test: interrupt=S -->``: for a command that serves until stopped (``labelpool
  judge``): Ctrl-C (SIGINT to the block's process group, as a terminal sends it) once the
  block has printed its first line (a server's address), or after S seconds if it has not;
* ``<!-- doc-test: skip reason="..." -->``: the block is not run;
  ``<!-- doc-test: skip-line="TEXT" reason="..." -->``: its lines holding TEXT are not run.
  Only for the test command itself (CI runs it), the project's own checks on this checkout,
  and long-running benchmarks; every skip gives its reason, and there are at most
  :data:`MAX_SKIPS` (``test_skips_are_few_and_say_why``).

An install is not run (the package under test is installed already): a line that only runs
``pip install`` is left out, and a ``python -m pip install ... &&`` prefix is dropped (the
README's two commands).

**Regenerating.** ``LABELPOOL_UPDATE_DOCS=1 python -m pytest -q tests/docs`` rewrites every
expected-output block with what its block printed now (this run's values of dates and ids,
the temporary folder as ``/tmp``), and passes; read the diff before committing it, and name
each changed output in the commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import docblocks
import pytest
from docblocks import DOCUMENTS, Document, Session, read, run_block, updated

UPDATE = os.environ.get("LABELPOOL_UPDATE_DOCS") == "1"
MAX_SKIPS = 8  # skip and skip-line markers over every document
PAGES = {path.name: read(path) for path in DOCUMENTS}


@pytest.fixture(scope="session")
def pycache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Compiled bytecode shared by every process the blocks start (not written into the
    checkout)."""
    return tmp_path_factory.mktemp("pycache")


# a page's data=VAR:FOLDER names a folder of ../shared/data, read through conftest's fixture
DATA_FIXTURES = {
    "trec-cast-2021": "cast_dir",
    "vaswani": "vaswani_dir",
    "peps-supersession": "peps_dir",
}


def run_document(
    doc: Document, root: Path, pycache: Path, request: pytest.FixtureRequest | None = None
) -> list[str]:
    """Run every block of ``doc``; the problems found (an empty list: the page holds)."""
    if "data" in doc.attrs:
        variable, folder = doc.attrs["data"].split(":", 1)
        assert request is not None and folder in DATA_FIXTURES, folder
        data = Path(request.getfixturevalue(DATA_FIXTURES[folder]))
    session = Session.start(root, pycache, doc.attrs.get("setup"))
    if "data" in doc.attrs:
        session.env[variable] = str(data.resolve())
    problems: list[str] = []
    printed: dict[int, list[str]] = {}
    for block in doc.blocks:
        if block.skipped:
            continue
        checks = run_block(session, block)
        printed[block.line] = [check.printed for check in checks]
        found = [c.problem for c in checks if c.problem is not None]
        problems += found
        if any(c.status != c.wanted_status or c.timed_out for c in checks):
            break  # the state later blocks build on is not there
    if UPDATE:
        text = updated(doc, printed)
        if text != doc.text:
            doc.path.write_text(text, encoding="utf-8")
        return [p for p in problems if "prints something else" not in p]
    return problems


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[pytest.mark.shared_data] if "data" in page.attrs else [])
        for name, page in PAGES.items()
        if page.blocks
    ],
)
def test_every_block_runs_and_shows_what_it_prints(
    name: str, tmp_path: Path, pycache: Path, request: pytest.FixtureRequest
) -> None:
    problems = run_document(PAGES[name], tmp_path, pycache, request)
    assert not problems, "\n\n".join(problems)


def test_the_pages_follow_the_conventions() -> None:
    problems = [p for page in PAGES.values() for p in page.problems]
    assert problems == []


def test_skips_are_few_and_say_why() -> None:
    skips = [
        (block.where, block.attrs["reason"])
        for page in PAGES.values()
        for block in page.blocks
        if {"skip", "skip-line"} & set(block.attrs)
    ]
    assert len(skips) <= MAX_SKIPS, skips
    assert all(len(reason.split()) >= 3 for _, reason in skips), skips


def test_the_pages_hold_blocks_that_run() -> None:
    """The harness finds the blocks: most run, most of those show their output."""
    blocks = [block for page in PAGES.values() for block in page.blocks]
    running = [block for block in blocks if not block.skipped]
    shown = [block for block in running if block.output or block.kind == "console"]
    assert len(running) >= 40, len(running)
    assert len(shown) >= 20, len(shown)
    assert {block.kind for block in running} == {"shell", "python", "console"}
    readme = PAGES["README.md"]
    assert readme.attrs.get("setup") == "example"
    assert any(block.output for block in readme.blocks)


# The harness on small pages of its own: it passes what holds and fails what does not.


def page(tmp_path: Path, text: str) -> Document:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return read(path)


def test_a_page_that_holds_passes(tmp_path: Path, pycache: Path) -> None:
    doc = page(
        tmp_path,
        "```sh\nmkdir -p a && cd a\nexport GREETING=hi\n```\n\n"
        '```sh\necho "$GREETING from $(basename "$PWD")"; date +%F\n```\n\n'
        "```text\nhi from a\n2000-01-01\n```\n\n"
        "<!-- doc-test: exit=3 -->\n```sh\nexit 3\n```\n\n"
        "```console\n$ echo one\none\n$ printf 'x\\n' >&2\nx\n```\n\n"
        '```python\nimport os\nprint(os.getcwd().endswith("/a"), os.environ["COLUMNS"])\n```\n'
        "```text\nTrue 80\n```\n\n"
        "<!-- doc-test: interrupt=30 -->\n"
        "```sh\ntrap 'echo stopped; exit 0' INT\necho serving\n"
        "while true; do sleep 0.1; done\n```\n"
        "```text\nserving\nstopped\n```\n",
    )
    assert doc.problems == []
    assert run_document(doc, tmp_path / "run", pycache) == []


@pytest.mark.parametrize(
    ("blocks", "problem"),
    [
        ("```sh\necho hi\n```\n```text\nho\n```\n", "prints something else"),
        ("```sh\ngit rev-parse HEAD | cut -c1-12\n```\n```text\nabc\n```\n", "exit 128"),
        ("```sh\nfalse\necho never\n```\n", "exit 1, the page says 0"),
        ("<!-- doc-test: exit=2 -->\n```sh\ntrue\n```\n", "exit 0, the page says 2"),
        ("```console\n$ echo a\nb\n```\n", "prints something else"),
        ("```python\nprint(1 / 0)\n```\n", "exit 1"),
        # a different length is not the same id
        ("```sh\necho 0123456789ab\n```\n```text\n0123456789abc\n```\n", "prints something"),
    ],
)
def test_a_page_that_does_not_hold_fails(
    tmp_path: Path, pycache: Path, blocks: str, problem: str
) -> None:
    doc = page(tmp_path, blocks)
    assert doc.problems == []
    found = run_document(doc, tmp_path / "run", pycache)
    assert found and problem in found[0], found


def test_what_varies_is_all_that_is_normalised() -> None:
    shown = "labels fd100e088d74 on 2026-12-02T10:00:00+00:00 in /tmp/tmp.Ab3dE6gH9k: 267\n"
    assert docblocks.shows(
        shown, "labels 0a1b2c3d4e5f on 2027-01-31T23:59:59+00:00 in /tmp/tmp.zzzzzzzzzz: 267\n"
    )
    for other in (
        "labels 0a1b2c3d4e5 on 2027-01-31T23:59:59+00:00 in /tmp/tmp.zzzzzzzzzz: 267\n",
        "labels 0a1b2c3d4e5f on 2027-01-31 in /tmp/tmp.zzzzzzzzzz: 267\n",
        "labels 0a1b2c3d4e5f on 2027-01-31T23:59:59+00:00 in /tmp/tmp.zzzzzzzzzz: 268\n",
        "labels 0A1B2C3D4E5F on 2027-01-31T23:59:59+00:00 in /tmp/tmp.zzzzzzzzzz: 267\n",
    ):
        assert not docblocks.shows(shown, other), other
    assert not docblocks.shows("deadbeef\n", "deadbeaf\n")  # no digit: a word, not an id


def test_markers_are_checked(tmp_path: Path) -> None:
    doc = page(
        tmp_path,
        "<!-- doc-test: skip -->\n```sh\ntrue\n```\n\n"
        '<!-- doc-test: skip reason="too long" -->\n```sh\ntrue\n```\n\n'
        "<!-- doc-test: interupt=3 -->\n```sh\ntrue\n```\n\n"
        "Prose.\n\n```text\nan output of nothing\n```\n\n"
        "<!-- doc-test: setup=example -->\n"
        "  ```sh\n  true\n  ```\n",
    )
    assert len(doc.problems) == 7, doc.problems


def test_update_rewrites_what_is_shown(tmp_path: Path, pycache: Path) -> None:
    doc = page(
        tmp_path,
        "Intro.\n\n```sh\necho new\n```\n\nProse.\n\n<!-- doc-test: output -->\n```text\nold\n```\n"
        "\n```console\n$ echo two\nthree\n```\nEnd.\n",
    )
    session = Session.start(tmp_path / "run", pycache, None)
    printed = {b.line: [c.printed for c in run_block(session, b)] for b in doc.blocks}
    assert updated(doc, printed) == doc.text.replace("old", "new").replace("three", "two")
