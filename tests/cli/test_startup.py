"""Start-up: ``labelpool --help`` and ``labelpool validate FILE`` (the pre-commit path) import
only what they use (issue 27: each under 0.15 s; the figures are in ``bench/run.py``).

Each case runs in a fresh interpreter and lists the modules the command imported. The heavy
ones are numpy and pyarrow (the scorer), matplotlib (``report``), ruamel and PyYAML (reading
YAML), jsonschema (the schema rule) and rich (tables).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import typer.main

from labelpool.cli import _common, main

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


def _printed(call: Callable[[], object]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = call()
        except SystemExit as exc:
            code = exc.code
    return (0 if code is None else code), out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        [],
        ["--version"],
        ["validat"],
        ["bogus", "x"],
        ["--bogus"],
        ["validate", "--bogus"],
        ["import", "--help"],
        ["judge", "--help"],
        ["classes", "--help"],
        ["score", "--help"],
    ],
)
def test_the_app_built_for_its_arguments_prints_what_the_whole_app_prints(
    args: list[str],
) -> None:
    """The app builds only the command named, or stubs of every command when none is named
    (start-up); help, a typo and a bad option read as when every command is built whole."""
    whole = typer.main.get_command(_common.app)
    expected = _printed(lambda: whole(args, prog_name="labelpool", standalone_mode=True))
    assert _printed(lambda: main(args)) == expected


PROGRAM = """
import json, sys
from labelpool.cli import main
sys.argv = ["labelpool", *json.loads(sys.argv[1])]
code = main()
print(json.dumps([code, sorted(m for m in sys.modules if sys.modules[m] is not None)]))
"""


def test_score_run_as_the_program_never_imports_pandas(tmp_path: Path) -> None:
    """pyarrow imports pandas (when installed) to ask whether an argument is a DataFrame:
    0.15 s of start-up the program keeps out; the score is the one it gives in-process."""
    args = ["score", "runs/bm25.trec", "-m", "nDCG@10,AP", "--format", "json"]
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # cold, then warm (the label index filled)
        done = subprocess.run(
            [sys.executable, "-c", PROGRAM, json.dumps(args)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env=env,
        )
        *printed, last = done.stdout.splitlines()
        code, modules = json.loads(last)
        assert code == 0
        assert not any(m == "pandas" or m.startswith("pandas.") for m in modules)
    expected = _printed(lambda: main([*args, "--repo", str(ROOT)]))
    assert json.loads("\n".join(printed)) == json.loads(str(expected[1]))
