"""Start-up: ``labelpool --help`` and ``labelpool validate FILE`` (the pre-commit path) import
only what they use (issue 27: each under 0.15 s; the figures are in ``bench/run.py``).

Each case runs in a fresh interpreter and lists the modules the command imported. The heavy
ones are numpy and pyarrow (the scorer), matplotlib (``report``), ruamel and PyYAML (reading
YAML), jsonschema (the schema rule) and rich (tables).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
HELP_HEAVY = ("numpy", "pyarrow", "matplotlib", "ruamel", "yaml", "jsonschema", "rich")
VALIDATE_HEAVY = ("numpy", "pyarrow", "matplotlib", "rich")
WARM_HEAVY = (*VALIDATE_HEAVY, "ruamel", "yaml", "jsonschema", "labelpool.rules.check")
LABEL = "cancel-order.yaml"

PROBE = """
import json, sys
from labelpool.cli import main
code = main(json.loads(sys.argv[1]))
print(json.dumps([code, sorted(sys.modules)]))
"""


def _imported(args: list[str], cwd: Path, cache: Path) -> tuple[int, set[str]]:
    """Exit code and imported modules of ``labelpool ARGS`` in a fresh interpreter."""
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        env=env,
    )
    code, modules = json.loads(done.stdout.splitlines()[-1])
    return code, set(modules)


def _heavy(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


def test_help_imports_nothing_heavy(tmp_path: Path) -> None:
    code, modules = _imported(["--help"], ROOT, tmp_path)
    assert code == 0
    assert _heavy(modules, HELP_HEAVY) == []
    assert not any(m.startswith("labelpool.workflows") for m in modules)


@pytest.fixture
def one_label(tmp_path: Path) -> Path:
    """A repository of one example label file, old enough for validate's stat cache (a file
    changed within the last second is never trusted to be unchanged)."""
    repo = tmp_path / "repo"
    (repo / "labels").mkdir(parents=True)
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    shutil.copy(ROOT / "labels" / LABEL, repo / "labels" / LABEL)
    changed = (repo / "labels" / LABEL).stat().st_ctime
    time.sleep(max(0.0, changed + 1.1 - time.time()))
    return repo


def test_validate_one_file_imports_no_scorer_cold_and_no_yaml_reader_warm(
    one_label: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    args = ["validate", f"labels/{LABEL}"]
    code, cold = _imported(args, one_label, cache)
    assert code == 0
    assert _heavy(cold, VALIDATE_HEAVY) == []
    code, warm = _imported(args, one_label, cache)
    assert code == 0
    assert _heavy(warm, WARM_HEAVY) == []


def test_a_command_built_alone_parses_as_in_the_whole_app(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The app builds only the command named (start-up); help, a typo and a bad option read
    as they do when every command is built."""
    capsys.readouterr()
    assert main(["--help"]) == 0
    listing = capsys.readouterr().out
    for name in ("validate", "score", "judge", "import", "export", "classes", "version"):
        assert f"  {name} " in listing, name
    assert main(["validat"]) == 2
    assert "No such command 'validat'. Did you mean 'validate'?" in capsys.readouterr().err
    assert main(["validate", "--bogus"]) == 2
    err = capsys.readouterr().err
    assert "Try 'labelpool validate --help' for help." in err
    assert "No such option: --bogus" in err
    assert main(["import", "--help"]) == 0
    assert "Usage: labelpool import [OPTIONS] COMMAND" in capsys.readouterr().out
