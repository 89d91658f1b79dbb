"""Shared fixtures: the real collections in ../shared/data, temp label repositories.

The skip rule (issue 10): a test may skip only when ``../shared/data`` is absent
(``skip_unless(..., kind="data")``, through :func:`need`), or when an OS facility is missing
(Chromium, ``/dev/full``, a package index, a program on PATH: ``kind="os"``) and the environment
variable ``CI`` is not ``true``. Under ``CI=true`` an OS skip fails, and
:func:`pytest_runtest_makereport` / :func:`pytest_make_collect_report` turn every other skip
(``pytest.skip``, ``skipif``, ``importorskip`` anywhere) into a failure; only a skip whose reason
says ``../shared/data is absent`` stays a skip there.

A test reads ../shared/data only through the fixtures of :data:`SHARED_FIXTURES` (directly or
through a fixture of its own that requests one): never at import or collection time, never
with :func:`need` in its body. Every such test is marked ``shared_data``
(:func:`pytest_collection_modifyitems`), so ``pytest -m shared_data`` runs exactly those;
``.ci/run`` runs them in a copy of the clone with no ``../shared`` beside it, where each must
skip saying why.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any, Literal

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
CAST = SHARED_DATA / "trec-cast-2021"
VASWANI = SHARED_DATA / "vaswani"
PEPS = SHARED_DATA / "peps-supersession"
TREC_EVAL_GOLDEN = SHARED_DATA / "trec_eval-golden"
SHARED_FIXTURES = frozenset({"cast_dir", "peps_dir", "vaswani_dir", "trec_eval_golden"})


DATA_ABSENT = "../shared/data is absent"  # the one skip reason allowed under CI=true


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def skip_unless(condition: object, reason: str, kind: Literal["data", "os"]) -> None:
    """Go on when ``condition`` holds; else skip (or, for a missing OS facility under
    ``CI=true``, fail). ``kind="data"``: something under ../shared/data is absent;
    ``kind="os"``: an OS facility (Chromium, /dev/full, a package index, a program on PATH)."""
    if condition:
        return
    if kind == "data":
        pytest.skip(f"{DATA_ABSENT}: {reason}")
    if in_ci():
        pytest.fail(f"CI=true: a missing OS facility fails instead of skipping: {reason}")
    pytest.skip(f"OS facility missing: {reason}")


def need(path: Path) -> Path:
    """``path`` under ../shared/data, or skip the test saying what is missing."""
    skip_unless(
        path.exists(), f"real data not available: {path} (see ../shared/data/README.md)", "data"
    )
    return path


def _forbidden_skip(report: pytest.TestReport | pytest.CollectReport) -> str | None:
    """The reason of a skip ``CI=true`` does not allow, else None."""
    if not in_ci() or not report.skipped or hasattr(report, "wasxfail"):
        return None
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return None if DATA_ABSENT in reason else reason


def _fail(report: pytest.TestReport | pytest.CollectReport, reason: str) -> None:
    report.outcome = "failed"
    report.longrepr = f"CI=true: only a skip because {DATA_ABSENT} is allowed; skipped: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    reason = _forbidden_skip(report)
    if reason is not None:
        _fail(report, reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    reason = _forbidden_skip(report)
    if reason is not None:
        _fail(report, reason)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``shared_data`` every test that requests a fixture of :data:`SHARED_FIXTURES`, itself
    or through the fixtures it requests."""
    for item in items:
        if SHARED_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.shared_data)


# session scope: a module-scoped fixture (a walk, an import done once) may request them
@pytest.fixture(scope="session")
def cast_dir() -> Path:
    return need(CAST)


@pytest.fixture(scope="session")
def peps_dir() -> Path:
    return need(PEPS)


@pytest.fixture(scope="session")
def vaswani_dir() -> Path:
    return need(VASWANI)


@pytest.fixture(scope="session")
def trec_eval_golden() -> Path:
    return need(TREC_EVAL_GOLDEN / "COMMANDS.tsv").parent


PYPROJECT = """\
[project]
name = "labels"
version = "0"

[tool.labelpool]
format = 1
"""


@pytest.fixture
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own (``LABELPOOL_CACHE_DIR``), empty: the label index,
    the run cache and the judgment arrays start cold."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty label repository (config, labels/, runs/) in a temp folder; not a git repo."""
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "labels").mkdir()
    (tmp_path / "runs").mkdir()
    return tmp_path


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many CLI calls of the hostile suite had their cited positions checked."""
    cited = sys.modules.get("tests.hostile.cited")
    stats = getattr(cited, "STATS", None)
    if stats and stats["calls"]:
        terminalreporter.write_line(
            f"cited positions: {stats['cites']} checked in {stats['calls']} CLI calls"
        )
