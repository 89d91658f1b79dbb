"""The real ``pre-commit run --all-files`` with this repository's hook config, in a temp git
repository: green on valid labels, red on a broken one with its ``path:line:col`` message.

Hook environments (check-jsonschema, pre-commit-hooks) are built once into pre-commit's own
cache (``$PRE_COMMIT_HOME``, default ``~/.cache/pre-commit``) and reused by later runs; the
test skips, saying so, only when they cannot be built (no package index reachable).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import skip_unless

ROOT = Path(__file__).resolve().parents[2]

LABEL = """\
# judged from the bm25 pool
id: {qid}
question: Where is my parcel?
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1
  - doc-b#1
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
"""

PENDING = """\
pending:
  - batch: '2026-12-02-bm25@20'
    systems:
      - bm25
    depth: 20
    date: '2026-12-02'
    docs:
      - {doc: doc-c#1, verdict: null}
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def precommit(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["pre-commit", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.fixture
def hook_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    on_path = shutil.which("pre-commit") is not None and shutil.which("labelpool") is not None
    skip_unless(on_path, "pre-commit or labelpool is not on PATH", "os")
    repo = tmp_path / "labels-repo"
    (repo / "labels").mkdir(parents=True)
    (repo / "schema").mkdir()
    for name in (".pre-commit-config.yaml", ".gitattributes"):
        shutil.copy(ROOT / name, repo / name)
    for schema in (ROOT / "schema").glob("*.json"):
        shutil.copy(schema, repo / "schema" / schema.name)
    (repo / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    for qid in ("parcel-where", "parcel-late", "refund-how"):
        (repo / "labels" / f"{qid}.yaml").write_text(LABEL.format(qid=qid), encoding="utf-8")
    # A batch branch may hold pending verdicts: the hook runs with --allow-pending.
    (repo / "labels" / "refund-how.yaml").write_text(
        LABEL.format(qid="refund-how") + PENDING, encoding="utf-8"
    )
    git(repo, "init", "-q")
    git(repo, "config", "user.name", "Test")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "add", "-A")
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(tmp_path / "lp-cache")}
    installed = precommit(repo, env, "install-hooks")
    skip_unless(
        installed.returncode == 0,
        f"pre-commit could not build its hook environments: {installed.stdout[-300:]}",
        "os",
    )
    return repo, env


def test_precommit_green_then_red(hook_repo: tuple[Path, dict[str, str]]) -> None:
    repo, env = hook_repo
    assert precommit(repo, env, "install").returncode == 0
    green = precommit(repo, env, "run", "--all-files")
    assert green.returncode == 0, green.stdout + green.stderr
    assert "labelpool validate" in green.stdout and "Passed" in green.stdout
    assert "labelpool fmt" in green.stdout

    broken = repo / "labels" / "parcel-late.yaml"
    broken.write_text(
        LABEL.format(qid="parcel-late").replace("  - doc-a#1\njudged", "  - doc-z#1\njudged"),
        encoding="utf-8",
    )
    git(repo, "add", "-A")
    red = precommit(repo, env, "run", "--all-files")
    assert red.returncode == 1
    assert "labels/parcel-late.yaml:5:5: LP025 relevant_doc_ids: doc-z#1 is not in" in red.stdout

    # The git hook itself refuses the commit.
    commit = subprocess.run(
        ["git", "commit", "-m", "broken"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert commit.returncode != 0
    assert "labels/parcel-late.yaml:5:5: LP025" in commit.stdout + commit.stderr


def test_precommit_fmt_fixes_order_and_quoting(hook_repo: tuple[Path, dict[str, str]]) -> None:
    """Order and quoting are fmt's job: the fixing hook rewrites the file (pre-commit fails
    once, showing the change), validate only warns about the order (LP028), and the fixed
    file passes."""
    repo, env = hook_repo
    label = repo / "labels" / "parcel-late.yaml"
    hand_written = (
        LABEL.format(qid="parcel-late")
        .replace("  - doc-a#1\n  - doc-b#1", "  - doc-b#1\n  - doc-a#1")
        .replace("'2026-06-02'", "2026-06-02")
    )
    label.write_text(hand_written, encoding="utf-8")
    git(repo, "add", "-A")
    fixed = precommit(repo, env, "run", "--all-files")
    assert fixed.returncode == 1, fixed.stdout
    assert "labelpool fmt" in fixed.stdout and "files were modified by this hook" in fixed.stdout
    assert label.read_text(encoding="utf-8") == LABEL.format(qid="parcel-late")
    git(repo, "add", "-A")
    again = precommit(repo, env, "run", "--all-files")
    assert again.returncode == 0, again.stdout + again.stderr


def test_hook_manifest_and_config_are_valid(tmp_path: Path) -> None:
    skip_unless(shutil.which("pre-commit") is not None, "pre-commit is not on PATH", "os")
    for cmd, name in (
        ("validate-manifest", ".pre-commit-hooks.yaml"),
        ("validate-config", ".pre-commit-config.yaml"),
    ):
        proc = subprocess.run(
            ["pre-commit", cmd, str(ROOT / name)], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    for needle in (
        "id: labelpool-fmt",
        "entry: labelpool fmt\n",
        "id: labelpool-validate",
        "entry: labelpool validate --allow-pending",
        "language: python",
        r"files: ^labels/.*\.ya?ml$",
        r"files: ^(labels/.*\.ya?ml|judges/.*)$",
        "require_serial: true",
    ):
        assert needle in manifest
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "repo: local" in config and "https://" not in config


RECORD = """\
judge: Ana Lopez <ana@example.org>
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1
  - doc-b#1
verdicts:
  doc-a#1:
    - {judge: Ana Lopez <ana@example.org>, verdict: relevant}
    - {judge: Bo Chen <bo@example.org>, verdict: relevant}
  doc-b#1:
    - {judge: umbrela-3, kind: machine, verdict: irrelevant}
"""


def test_precommit_on_the_record_of_judges(hook_repo: tuple[Path, dict[str, str]]) -> None:
    """A file in the new form (``judge``, ``verdicts``) passes both hooks unchanged; a judge
    named twice on one document is refused at its line (LP043)."""
    repo, env = hook_repo
    label = repo / "labels" / "parcel-late.yaml"
    head = "# judged from the bm25 pool\nid: parcel-late\nquestion: Where is my parcel?\n"
    pool = "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
    text = head + RECORD + pool
    label.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    green = precommit(repo, env, "run", "--all-files")
    assert green.returncode == 0, green.stdout + green.stderr
    assert label.read_text(encoding="utf-8") == text

    label.write_text(text.replace("Bo Chen <bo@example.org>", "Ana Lopez <ana@example.org>"))
    git(repo, "add", "-A")
    red = precommit(repo, env, "run", "--all-files")
    assert red.returncode == 1
    assert (
        "labels/parcel-late.yaml:13:7: LP043 verdicts.doc-a#1[1]: Ana Lopez <ana@example.org> "
        "gives a second verdict on doc-a#1" in red.stdout
    ), red.stdout
