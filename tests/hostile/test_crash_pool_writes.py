"""What ``pool`` writes, validate accepts: a batch the hooks would refuse is refused first,
naming the document (or the file and the bound), with nothing written: no branch, no commit,
the label files as they were.

Each docstring says what 0.1.0 did with the same run file (measured with 0.1.0's ``pool RUN
--depth 5`` in a git repository, then ``validate --allow-pending`` on the batch branch).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import cli, git_repo, make_repo, snapshot

N_BIG = 1100  # documents of 4,000 characters of chunk text: a batch over 4 MiB


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def with_run(tmp_path: Path, doc: str) -> Path:
    """A committed repository whose run ``runs/new.trec`` puts ``doc`` second for q1."""
    run = f"q1 Q0 doc-a#1 1 3.0 new\nq1 Q0 {doc} 2 2.0 new\nq1 Q0 doc-b#1 3 1.0 new\n"
    return git_repo(make_repo(tmp_path, runs={"new.trec": run.encode()}))


def refused(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> str:
    """stderr of a refused ``pool``, after checking exit 1 and that nothing changed."""
    before = snapshot(root)
    head = git(root, "rev-parse", "HEAD")
    code, out, err = cli(capsys, root, "pool", *args)
    assert (code, out) == (1, "")
    assert snapshot(root) == before
    assert git(root, "rev-parse", "HEAD") == head
    assert git(root, "branch", "--format=%(refname:short)").split() == ["main"]
    assert git(root, "status", "--porcelain") == ""
    return err


def doc_refusal(root: Path, shown: str, problem: str) -> str:
    return (
        f"error: {root}/labels/q1.yaml: question q1: document {shown} {problem}; validate "
        "would refuse the batch, so nothing is written (fix the run file, or leave the "
        "document out)\n"
    )


def test_no_break_space_in_a_document_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, batch committed on ``labelpool/batch-...``; then ``validate`` exit 1,
    ``25:15: LP020 pending[0].docs[0].doc: 'doc\\xa0x' does not match '^\\\\S+$'``."""
    root = with_run(tmp_path, "doc\u00a0x")
    err = refused(capsys, root, "runs/new.trec", "--depth", "5")
    assert err == doc_refusal(
        root, "'doc\\xa0x'", "holds whitespace U+00A0 (LP020: a document id has none)"
    )


def test_line_separator_in_a_document_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, batch committed; then ``validate`` exit 1, ``LP020 ... 'doc\\u2028x'
    does not match '^\\\\S+$'``."""
    root = with_run(tmp_path, "doc\u2028x")
    err = refused(capsys, root, "runs/new.trec", "--depth", "5")
    assert err == doc_refusal(
        root, "'doc\\u2028x'", "holds whitespace U+2028 (LP020: a document id has none)"
    )


def test_bidi_override_in_a_document_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, batch committed; then ``validate`` exit 1, ``25:19: LP004
    bidirectional control character U+202E``."""
    root = with_run(tmp_path, "doc\u202ex")
    err = refused(capsys, root, "runs/new.trec", "--depth", "5")
    assert err == doc_refusal(
        root, "'doc\\u202ex'", "holds the bidirectional control U+202E (LP004)"
    )


def test_decomposed_document_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, batch committed and ``validate --allow-pending`` passed it; the merge
    then put ``e\\u0301`` into ``judged_ids``, where LP024 refuses it. Now refused first."""
    root = with_run(tmp_path, "e\u0301")
    err = refused(capsys, root, "runs/new.trec", "--depth", "5")
    assert err == doc_refusal(root, "'e\\u0301'", "is not in Unicode NFC form (LP024)")


def test_refused_the_same_with_no_commit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0 (``--no-commit``): exit 0, the label file rewritten in the working tree with the
    refused id in it. Now refused before any write."""
    root = with_run(tmp_path, "doc\u00a0x")
    err = refused(capsys, root, "runs/new.trec", "--depth", "5", "--no-commit")
    assert err.startswith(f"error: {root}/labels/q1.yaml: question q1: document 'doc\\xa0x'")


def test_a_good_run_still_pools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, batch committed (kept); ``validate --allow-pending`` passes it."""
    root = with_run(tmp_path, "doc-c#1")
    code, out, _ = cli(capsys, root, "pool", "runs/new.trec", "--depth", "5")
    assert code == 0
    branch = out.split("branch: ", 1)[1].split("\n", 1)[0]
    git(root, "checkout", "-q", branch)
    assert "{doc: doc-c#1, verdict: null}" in (root / "labels" / "q1.yaml").read_text()
    assert cli(capsys, root, "validate", "--allow-pending")[:2] == (0, "")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed repository with a corpus and a run of :data:`N_BIG` documents for q1, each
    with 4,000 characters of chunk text (the batch cuts text there)."""
    root = make_repo(
        tmp_path_factory.mktemp("big"),
        runs={
            "big.trec": "".join(
                f"q1 Q0 big-{i:05d} {i + 1} {N_BIG - i} big\n" for i in range(N_BIG)
            ).encode()
        },
        config='corpus = "corpus.jsonl"\n',
    )
    text = ("lorem ipsum dolor " * 300)[:4000]
    (root / "corpus.jsonl").write_text(
        "".join(
            json.dumps({"_id": f"big-{i:05d}", "title": "", "text": text}) + "\n"
            for i in range(N_BIG)
        ),
        encoding="utf-8",
    )
    return git_repo(root)


def test_batch_over_the_size_bound(big: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0, a batch of 1,100 documents committed: the label file grew to 5,184,695
    bytes; then ``validate`` exit 1, ``1:1: LP001 file has 5184695 bytes; the bound is
    4194304``. Now refused, naming the file, its size and the way out."""
    err = refused(capsys, big, "runs/big.trec", "--depth", str(N_BIG))
    assert err == (
        f"error: {big}/labels/q1.yaml:1:1: LP001 the file would have 5184695 bytes; the bound "
        "is 4194304: validate would refuse the file with the batch (pool fewer documents: "
        "--max-docs, or --no-text); nothing written\n"
    )


def test_batch_under_the_bound_with_no_text(big: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0 (kept): without chunk text the same 1,100 documents fit."""
    code, _, _ = cli(
        capsys, big, "pool", "runs/big.trec", "--depth", str(N_BIG), "--no-commit", "--no-text"
    )
    assert code == 0
    size = (big / "labels" / "q1.yaml").stat().st_size
    assert size < 4 * 1024 * 1024
    git(big, "checkout", "-q", "--", "labels")


def test_apostrophe_in_a_system_name_is_quoted_in_the_batch_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 1, ``LP015 did not find expected key`` at a position of the batch it was
    about to write (the batch id ``'DATE-o'brien@5'`` was quoted without doubling the
    apostrophe), so a run named after a person could never be pooled."""
    run = b"q1 Q0 doc-a#1 1 3.0 x\nq1 Q0 doc-c#1 2 2.0 x\nq1 Q0 doc-b#1 3 1.0 x\n"
    root = git_repo(make_repo(tmp_path, runs={"o'brien.trec": run}))
    code, _out, err = cli(capsys, root, "pool", "runs/o'brien.trec", "--depth", "5", "--no-text")
    assert code == 0, err
    text = (root / "labels/q1.yaml").read_text(encoding="utf-8")
    assert "o''brien@5'" in text
    assert "      - o'brien\n" in text or "      - 'o''brien'\n" in text
    code, out, err = cli(capsys, root, "validate", "--allow-pending")
    assert code == 0, out + err
