"""``merge --oracle`` says what happened (issue 13, "No traps").

0.1.0: documents the oracle did not know left ``still pending: 2`` as the last line and exit 1,
which read as a failure of the merge."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labelpool.cli import main
from pool_scenario import git, make_repo

UNKNOWN = (
    "merged 3 verdicts in 1 commit; 2 documents unknown to the oracle stay pending "
    "(--oracle-missing irrelevant to count them as judged irrelevant)"
)


@pytest.fixture
def pooled(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    assert main(["pool", "a", "b", "--depth", "3", "--repo", str(repo)]) == 0
    return repo


def _reference(repo: Path) -> Path:
    qrels = repo.parent / "reference.qrels"
    qrels.write_text(
        "returns-damaged 0 faq-shipping#damaged 2\n"
        "returns-damaged 0 policy-returns-v2#sec-2 0\n"
        "cancel-order 0 no 1\n"
        "cancel-order 0 1239 -1\n",
        encoding="utf-8",
    )
    return qrels


def test_oracle_merge_ends_with_what_happened(
    pooled: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    qrels = _reference(pooled)
    capsys.readouterr()
    assert main(["merge", "--oracle", str(qrels), "--repo", str(pooled)]) == 1  # verdicts remain
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == UNKNOWN
    # counted by batch above the last line; the entries themselves with --verbose
    assert re.search(
        r"^still pending: 2 entries in 1 batch: .+ \(2\); --verbose lists them$", out, re.M
    )
    assert git(pooled, "log", "-1", "--format=%an").strip() == "labelpool oracle"

    args = ["merge", "--oracle", str(qrels), "--oracle-missing", "irrelevant"]
    assert main([*args, "--repo", str(pooled)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "merged 2 verdicts in 1 commit"


def test_oracle_merge_without_commit_says_so(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = _reference(pooled)
    capsys.readouterr()
    code = main(
        ["merge", "--oracle", str(qrels), "--no-commit", "--partial", "--repo", str(pooled)]
    )
    assert code == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == UNKNOWN.replace("in 1 commit", "(not committed)")


def test_oracle_merge_names_an_entry_it_cannot_fold_as_listed_above(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.2: the default output counts pending entries; an entry holding a verdict merge cannot
    fold (a duplicate of a document not judged relevant) is still listed, so the last line's
    ``(listed above)`` holds without ``--verbose``."""
    qrels = _reference(pooled)
    path = pooled / "labels" / "returns-damaged.yaml"
    text = path.read_text(encoding="utf-8")
    old = "- {doc: tenant-acme#returns, verdict: null}"
    assert text.count(old) == 1
    path.write_text(
        text.replace(old, "- {doc: tenant-acme#returns, verdict: {duplicate-of: unknown-doc#1}}"),
        encoding="utf-8",
    )
    git(pooled, "commit", "-q", "-am", "a duplicate")
    capsys.readouterr()
    assert main(["merge", "--oracle", str(qrels), "--repo", str(pooled)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == (
        "merged 3 verdicts in 1 commit; 1 document unknown to the oracle stays pending "
        "(--oracle-missing irrelevant to count them as judged irrelevant); "
        "1 other entry stays pending (listed above)"
    )
    assert re.fullmatch(
        r"  \S+returns-damaged\.yaml:\d+:1: returns-damaged tenant-acme#returns \(.+\): "
        r"duplicate-of unknown-doc#1: .+",
        lines[-2],
    ), lines


HAND_WRITTEN = """\
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - policy-returns-v3#sec-2
  - handbook#returns
judged_ids:
  - policy-returns-v3#sec-2{comment}
  - handbook#returns
grades:
  policy-returns-v3#sec-2: 2
  handbook#returns: 3
pool:
  - system: a
    k: 2
    date: '2026-06-02'
"""


@pytest.mark.parametrize("comment", ["", "  # hand-written order"], ids=["text", "round-trip"])
def test_pool_and_merge_append_to_a_hand_written_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], comment: str
) -> None:
    """0.1.0: such a label was refused (LP028 error); merge then sorted what it touched.
    Both of merge's writers (the text edit, and the round-trip tree a comment sends it to)
    append without sorting."""
    from pool_scenario import LABELS

    text = HAND_WRITTEN.format(comment=comment)
    repo = make_repo(tmp_path / "repo", {**LABELS, "returns-damaged": text})
    path = repo / "labels" / "returns-damaged.yaml"
    assert main(["validate", "--repo", str(repo)]) == 0  # LP028 warns, nothing fails
    assert "LP028 warning: judged_ids" in capsys.readouterr().out
    assert main(["pool", "a", "b", "--depth", "3", "--repo", str(repo)]) == 0
    after_pool = path.read_text(encoding="utf-8")
    assert after_pool.startswith(text) and "pending:" in after_pool  # lists as written
    verdicts = {
        "faq-shipping#damaged": "2",
        "policy-returns-v2#sec-2": "irrelevant",
        "tenant-acme#returns": "relevant",
    }
    for doc, verdict in verdicts.items():
        old = f"- {{doc: {doc}, verdict: null}}"
        assert after_pool.count(old) == 1
        after_pool = after_pool.replace(old, f"- {{doc: {doc}, verdict: {verdict}}}")
    path.write_text(after_pool, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "judged")
    capsys.readouterr()
    assert main(["merge", "--partial", "--repo", str(repo)]) == 0
    merged = path.read_text(encoding="utf-8")
    assert merged.startswith(
        "id: returns-damaged\n"
        "question: My parcel arrived damaged. Can I send it back?\n"
        "relevant_doc_ids:\n"
        "  - policy-returns-v3#sec-2\n"
        "  - handbook#returns\n"
        "  - faq-shipping#damaged\n"
        "  - tenant-acme#returns\n"
        "judged_ids:\n"
        f"  - policy-returns-v3#sec-2{comment}\n"
        "  - handbook#returns\n"
        "  - faq-shipping#damaged\n"
        "  - policy-returns-v2#sec-2\n"
        "  - tenant-acme#returns\n"
        "grades:\n"
        "  policy-returns-v3#sec-2: 2\n"
        "  handbook#returns: 3\n"
        "  faq-shipping#damaged: 2\n"
    ), merged
    assert main(["validate", "--allow-pending", "--repo", str(repo)]) == 0  # cancel-order waits
