"""The machine judge's test scenario: pool_scenario's repository with a batch, and a tiny
``command`` judge program (judges/toy.py) that grades a passage by its length, answers "can't
judge" for a passage holding "boolean", and counts its requests in a file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pool_scenario import git, make_repo

ROOT = Path(__file__).resolve().parents[1]

TOY = """import json, os, sys
count = os.environ.get("TOY_COUNT") or "asked.txt"
for line in sys.stdin:
    r = json.loads(line)
    with open(count, "a") as fh:
        fh.write(r["question_id"] + " " + r["doc_id"] + "\\n")
    if "boolean" in r["text"]:
        out = {"doc_id": r["doc_id"], "error": "cannot tell", "raw": "hmm?"}
    else:
        out = {"doc_id": r["doc_id"], "grade": len(r["text"]) % 4, "raw": "ok"}
    print(json.dumps(out), flush=True)
"""

# the same judge without its request log (a fault test compares the whole work tree)
QUIET_TOY = TOY.replace(
    """    with open(count, "a") as fh:
        fh.write(r["question_id"] + " " + r["doc_id"] + "\\n")
""",
    "",
)


def machine_repo(where: Path, *pool_args: str, program: str = TOY) -> Path:
    """The scenario repository with a batch pooled (``pool a b --depth 3`` and
    ``pool_args``) and the judge ``toy`` committed."""
    repo = make_repo(where)
    proc = labelpool(repo, "pool", "runs/a.trec", "runs/b.trec", "--depth", "3", *pool_args)
    assert proc.returncode == 0, proc.stderr
    (repo / "judges").mkdir()
    (repo / "judges" / "toy.py").write_text(program, encoding="utf-8")
    (repo / "judges" / "toy.yaml").write_text(
        f"kind: command\nmodel: toy-length\ncommand: [{sys.executable}, judges/toy.py]\n"
        "timeout: 10\n",
        encoding="utf-8",
    )
    (repo / ".gitignore").write_text("asked.txt\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the toy judge")
    return repo


def env(cache: Path, **more: str) -> dict[str, str]:
    full = dict(os.environ)
    full["LABELPOOL_CACHE_DIR"] = str(cache)
    full["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "tools"), os.environ.get("PYTHONPATH", "")) if p
    )
    full.update(more)
    return full


def labelpool(repo: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labelpool", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        **kw,
    )


def asked(repo: Path) -> list[str]:
    f = repo / "asked.txt"
    return f.read_text(encoding="utf-8").splitlines() if f.exists() else []
