"""A small label repository in a real git repo, for the pool and merge tests.

Three questions, a corpus with chunk text (one document missing from it), two runs that
disagree, and version links (``policy-returns-v3`` supersedes ``policy-returns-v2`` through the
default id pattern).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from api_scenario import copy_example
from labelpool.cli import main

PYPROJECT = """\
[project]
name = "labels"
version = "0"

[tool.labelpool]
format = 1
corpus = "corpus/corpus.jsonl"
"""

CORPUS = {
    "policy-returns-v3#sec-2": "Damaged items may be returned free of charge within 30 days.",
    "policy-returns-v2#sec-2": "Damaged items may be returned within 14 days.",
    "faq-shipping#damaged": "If your parcel arrived damaged, you can send it back for free.",
    "handbook#returns": "Returns are handled by the service desk. " * 12,
    "tenant-acme#returns": "Acme employees return items through the company shop.",
    "faq-orders#cancel": "You can cancel an order until it ships.",
    "faq-orders#late": "Late orders: contact us after 5 business days.",
    "guide-app#login": "Log in with your email address and password.",
    "1239": "A chunk whose id looks like a number.",
    "no": "A chunk whose id looks like a boolean.",
}

LABELS = {
    "returns-damaged": """\
# Comments are kept by every rewrite.
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - policy-returns-v3#sec-2
judged_ids:
  - handbook#returns
  - policy-returns-v3#sec-2
pool:
  - system: a
    k: 2
    date: '2026-06-02'
owner: support-team  # an unknown key survives
""",
    "cancel-order": """\
id: cancel-order
question: How do I cancel an order?
relevant_doc_ids:
  - faq-orders#cancel
judged_ids:
  - faq-orders#cancel
  - faq-orders#late
pool:
  - system: a
    k: 2
    date: '2026-06-02'
""",
    "login": """\
id: login
question: How do I log in?
relevant_doc_ids:
  - guide-app#login
judged_ids:
  - guide-app#login
pool:
  - system: a
    k: 1
    date: '2026-06-02'
""",
}

# Rankings (best first); scores are written descending so trec_eval order is this order.
RUNS = {
    "a": {
        "returns-damaged": ["policy-returns-v3#sec-2", "handbook#returns", "faq-shipping#damaged"],
        "cancel-order": ["faq-orders#cancel", "faq-orders#late", "1239"],
        "login": ["guide-app#login"],
    },
    "b": {
        "returns-damaged": [
            "faq-shipping#damaged",
            "policy-returns-v2#sec-2",
            "tenant-acme#returns",
            "unknown-doc#1",
        ],
        "cancel-order": ["no", "faq-orders#cancel", "1239"],
        "login": ["guide-app#login"],
    },
}


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    full = dict(os.environ)
    full.update(env or {})
    proc = subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, env=full, check=False
    )
    assert proc.returncode == 0, f"git {args}: {proc.stderr}"
    return proc.stdout


def init_git(repo: Path, name: str = "Runner", email: str = "runner@example.invalid") -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", name)
    git(repo, "config", "user.email", email)
    git(repo, "config", "commit.gpgsign", "false")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "initial labels")


def write_run(path: Path, rankings: dict[str, list[str]]) -> None:
    lines = []
    for qid, docs in rankings.items():
        for rank, doc in enumerate(docs, start=1):
            lines.append(f"{qid} Q0 {doc} {rank} {100 - rank}.0 {path.stem}\n")
    path.write_text("".join(lines), encoding="utf-8")


def make_repo(root: Path, labels: dict[str, str] | None = None, commit: bool = True) -> Path:
    """The scenario's label repository in ``root`` (a git repo when ``commit``)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    (root / "corpus").mkdir()
    with open(root / "corpus" / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for doc, text in CORPUS.items():
            fh.write(json.dumps({"_id": doc, "title": "", "text": text}) + "\n")
    for qid, text in (labels or LABELS).items():
        (root / "labels" / f"{qid}.yaml").write_text(text, encoding="utf-8")
    for name, rankings in RUNS.items():
        write_run(root / "runs" / f"{name}.trec", rankings)
    if commit:
        init_git(root)
    return root


def cli(repo: Path, *args: str) -> int:
    return main([*args, "--repo", str(repo)])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def committed_example(where: Path) -> Path:
    """The example shipped in this checkout, copied to ``where/example`` and committed."""
    repo = copy_example(where / "example")
    init_git(repo)
    return repo
