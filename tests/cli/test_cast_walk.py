"""``docs/cast.md``, the walk on TREC CAsT 2021, run as written: every shell block, in order,
in one shell (so ``cd`` and ``export`` carry over), with ``COLUMNS=80``.

Each command must exit 0, and no line any command prints (stdout or stderr) may be wider than
80 columns. The collection is read where the page says, from ``$CAST``: here the real
``../shared/data/trec-cast-2021`` (never a copy). The walk starts in a new folder of its own
(``cd "$(mktemp -d)"``, under this test's temporary folder through ``TMPDIR``), outside any git
work tree: the page must never write into the checkout it is read from. The numeric agreement
of such a loop with trec_eval's semantics is held by ``test_loop_cast.py``; the import of the
topics JSON by ``test_cast_import.py``; what each command prints, as the page shows it, by
``tests/docs/test_doc_blocks.py``. This test holds the page: a command it shows that stops
working, or prints past 80 columns, fails here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cast.md"
WIDTH = 80
BLOCK = re.compile(r"^```sh\n(.*?)^```$", re.DOTALL | re.MULTILINE)
MARK = "@@walk@@"


@dataclass(frozen=True)
class Step:
    command: str
    status: int  # 0, or the status of the failing command (from the ERR trap)
    lines: tuple[str, ...]


def shell_blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def script(blocks: list[str]) -> str:
    """The blocks as one bash script that marks each command before it runs (DEBUG trap)
    and each failure with its status (ERR trap)."""
    traps = (
        # a command spanning lines (a quoted awk program) is marked on one line
        f"walk_mark() {{ printf '{MARK} cmd %s\\n' \"${{1//$'\\n'/ }}\"; }}\n"
        "trap 'walk_mark \"$BASH_COMMAND\"' DEBUG\n"
        f"trap 'status=$?; echo \"{MARK} status $status\"' ERR\n"
    )
    return traps + "\n".join(blocks) + "\ntrap - DEBUG\n"


def steps(output: str) -> list[Step]:
    out: list[Step] = []
    command, status, lines = "", 0, list[str]()
    for line in output.splitlines():
        if line.startswith(f"{MARK} cmd "):
            if line[len(MARK) + 5 :] in (command, "status=$?"):
                continue  # the DEBUG trap firing inside the ERR trap
            if command:
                out.append(Step(command, status, tuple(lines)))
            command, status, lines = line[len(MARK) + 5 :], 0, []
        elif line.startswith(f"{MARK} status "):
            status = int(line.split()[2])
        else:
            lines.append(line)
    if command:
        out.append(Step(command, status, tuple(lines)))
    return out


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory, cast_dir: Path) -> tuple[list[Step], Path]:
    cast = cast_dir
    tmp = tmp_path_factory.mktemp("walk")
    start = tmp / "start"
    start.mkdir()
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "labelpool"  # the labelpool under test, whatever is installed
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m labelpool "$@"\n')
    shim.chmod(0o755)
    gitconfig = tmp / "gitconfig"  # merge and pool commit: git needs an identity
    gitconfig.write_text("[user]\n\tname = Ana Assessor\n\temail = ana@example.org\n")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": str(WIDTH),
        "CAST": str(cast.resolve()),
        "TMPDIR": str(tmp),
        "LABELPOOL_CACHE_DIR": str(tmp / "cache"),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", script(shell_blocks())],
        cwd=start,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert list(start.iterdir()) == [], "the walk wrote into the folder it started in"
    (repo,) = tmp.glob("tmp.*/cast-labels")  # made by the page's `cd "$(mktemp -d)"`
    return steps(proc.stdout), repo


def test_every_command_of_the_walk_exits_0(walk: tuple[list[Step], Path]) -> None:
    done, _ = walk
    labelpool = [s for s in done if s.command.startswith("labelpool ")]
    assert len(labelpool) >= 8, [s.command for s in done]
    failed = [(s.command, s.status, s.lines[-5:]) for s in done if s.status != 0]
    assert failed == []


def test_the_walk_ends_with_a_meaningful_comparison(
    walk: tuple[list[Step], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from labelpool.cli import main

    _, repo = walk
    assert len(list((repo / "labels").glob("*.yaml"))) == 158
    capsys.readouterr()
    args = ["compare", "org_manual_bm25", "org_manual_ance", "-m", "nDCG@10,P@10"]
    assert main([*args, "--format", "json", "--repo", str(repo)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [c["reading"] for c in report["comparisons"]] == ["meaningful", "meaningful"]
    assert [c["verdict_code"] for c in report["comparisons"]] == ["improvement", "improvement"]


def test_no_line_of_the_walk_is_wider_than_80_columns(walk: tuple[list[Step], Path]) -> None:
    done, _ = walk
    wide = [
        f"{s.command[:40]}: {len(line)}: {line[:100]}"
        for s in done
        for line in s.lines
        if len(line) > WIDTH
    ]
    assert wide == [], "\n".join(wide)
