"""One version: ``labelpool.__version__``, printed by ``labelpool --version`` and ``labelpool
version``, read by pyproject.toml (dynamic), and the newest release of CHANGELOG.md."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import tomllib
from setuptools.config.pyprojecttoml import read_configuration

from labelpool import __version__
from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "pyarrow", "jsonschema", "rich", "ruamel", "yaml", "labelpool.workflows")


def test_version_option_and_command_print_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0 had the ``version`` command only; ``--version`` was "No such option"."""
    capsys.readouterr()
    assert main(["--version"]) == 0
    option = capsys.readouterr()
    assert main(["version"]) == 0
    command = capsys.readouterr()
    assert option.out == command.out == f"{__version__}\n"
    assert option.err == command.err == ""
    assert main(["--help"]) == 0
    assert "--version" in capsys.readouterr().out


def test_version_option_imports_nothing_heavy() -> None:
    code = (
        "import sys\nfrom labelpool.cli import main\ncode = main(['--version'])\n"
        f"print(code, [m for m in {HEAVY!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.splitlines() == [__version__, "0 []"]


def test_pyproject_takes_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "labelpool.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_setuptools_reads_this_version_and_an_install_of_this_checkout_says_it() -> None:
    """What ``pip install`` writes into the metadata: setuptools' reading of pyproject.toml
    (the attr expanded, nothing built). ``importlib.metadata`` says what the last install
    wrote, so it is asked only when the installed labelpool is this checkout (another
    worktree's editable install holds its own version)."""
    with warnings.catch_warnings():  # setuptools < 69: "[tool.setuptools] is still beta"
        warnings.simplefilter("ignore")
        read = read_configuration(ROOT / "pyproject.toml", expand=True)
    assert read["project"]["version"] == __version__
    try:
        dist = importlib.metadata.distribution("labelpool")
    except importlib.metadata.PackageNotFoundError:
        return
    url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
    if Path(url.removeprefix("file://")).resolve() == ROOT.resolve():
        assert dist.version == __version__


def test_changelog_newest_release_is_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.M)
    assert releases[0][0] == __version__
    assert [v for v, _ in releases] == sorted(
        (v for v, _ in releases), key=lambda v: tuple(map(int, v.split("."))), reverse=True
    )
    assert [d for _, d in releases] == sorted((d for _, d in releases), reverse=True)
    assert releases[-1][0] == "0.1.0"
