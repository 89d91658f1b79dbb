"""Hostile label files for the one reading (shared by ``test_crash_reading_*.py``).

Each case is one label file, ``labels/<file>``, in a committed git repository with one run
(``runs/sys.trec``: d1 then d2 for q1): an ambiguous plain scalar (YAML 1.1 and 1.2 read it
differently) or another hostile form in one position (question id, doc ids, verdicts,
grades, question text, pool, batch head), or a directive, tag, anchor, BOM...
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

PYPROJECT = '[project]\nname = "labels"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n'
RUN = "q1 Q0 d1 1 2 sys\nq1 Q0 d2 2 1 sys\n"
POOL = "pool:\n  - system: sys\n    k: 10\n    date: '2026-06-02'\n"
HEAD = "id: q1\nquestion: Q\nrelevant_doc_ids:\n  - d1\njudged_ids:\n  - d1\n  - d2\n"
BATCH = (
    "pending:\n  - batch: '2026-12-02-sys@10'\n    systems:\n      - sys\n    depth: 10\n"
    "    date: '2026-12-02'\n    docs:\n"
)


def label(*, head: str = HEAD, pool: str = POOL, extra: str = "", entry: str | None = None) -> str:
    """A label file: ``head`` (id, question, lists), ``pool``, ``extra`` lines, and one pending
    entry ``- {entry}`` when given."""
    text = head + pool + extra
    if entry is not None:
        text += BATCH + f"      - {{{entry}}}\n"
    return text


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    file: str = "q1.yaml"

    @property
    def pending(self) -> bool:
        return "pending:" in self.text


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def build_repo(root: Path, case: Case) -> Path:
    """``root`` made a committed label repository holding the case's file and the run."""
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "labels").mkdir()
    (root / "runs").mkdir()
    (root / "runs" / "sys.trec").write_text(RUN, encoding="utf-8")
    (root / "labels" / case.file).write_bytes(case.text.encode("utf-8"))
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Judge")
    git(root, "config", "user.email", "judge@example.com")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "labels")
    return root


CASES = [
    Case("verdict_doc_0o17", label(entry="doc: 0o17, verdict: relevant")),
    Case("verdict_doc_0x1F", label(entry="doc: 0x1F, verdict: irrelevant")),
    Case("verdict_doc_017", label(entry="doc: 017, verdict: relevant")),
    Case("verdict_doc_1_000", label(entry="doc: 1_000, verdict: relevant")),
    Case("verdict_doc_1e3", label(entry="doc: 1e3, verdict: relevant")),
    Case("verdict_yes", label(entry="doc: d3, verdict: yes")),
    Case("verdict_plus_one", label(entry="doc: d3, verdict: +1")),
    Case("verdict_duplicate_of_0o17", label(entry="doc: d3, verdict: {duplicate-of: 0o17}")),
    Case("verdict_doc_tilde", label(entry="doc: ~, verdict: relevant")),
    Case("judged_no", label(head=HEAD.replace("  - d2\n", "  - d2\n  - no\n"))),
    Case("judged_0x1F", label(head=HEAD.replace("  - d2\n", "  - 0x1F\n  - d2\n"))),
    Case("relevant_017", label(head=HEAD.replace("  - d1\n", "  - 017\n  - d1\n"))),
    Case("judged_sexagesimal", label(head=HEAD.replace("  - d2\n", "  - 12:30\n  - d2\n"))),
    Case("judged_date", label(head=HEAD.replace("  - d2\n", "  - 2026-06-02\n  - d2\n"))),
    Case("question_id_on", label(head=HEAD.replace("id: q1", "id: on")), file="on.yaml"),
    Case("question_text_yes", label(head=HEAD.replace("question: Q", "question: yes"))),
    Case("grade_key_off", label(extra="grades:\n  off: 2\n")),
    Case("grade_inf", label(extra="grades:\n  d1: .inf\n")),
    Case("grade_1e1", label(extra="grades:\n  d1: 1e1\n")),
    Case("pool_date_unquoted", label(pool=POOL.replace("'2026-06-02'", "2026-06-02"))),
    Case("pool_date_impossible", label(pool=POOL.replace("'2026-06-02'", "2026-02-30"))),
    Case("pool_k_0x10", label(pool=POOL.replace("k: 10", "k: 0x10"))),
    Case("unknown_key_null_key", label(extra="notes:\n  Null: checked\n")),
    Case("value_key_equals", label(extra="notes: =\n")),
    Case("directive_yaml_1_1", "%YAML 1.1\n---\n" + label()),
    Case("tag_str", label(head=HEAD.replace("  - d2\n", "  - !!str 0o17\n  - d2\n"))),
    Case("anchor_alias", label(head=HEAD.replace("  - d1\n", "  - &a d1\n"), extra="x: *a\n")),
    Case("collection_key", label(extra="? [a]\n: b\n")),
    Case("bom_then_0o17", "\ufeff" + label(entry="doc: 0o17, verdict: relevant")),
    Case("quoted_0o17_is_fine", label(entry="doc: '0o17', verdict: relevant")),
]
BY_NAME = {c.name: c for c in CASES}
