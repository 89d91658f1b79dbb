"""``labelpool pool``: the batch written into label files, its commit, its cost, its options."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.model import label_from_data
from pool_scenario import CORPUS, RUNS, cli, git, make_repo, snapshot

TODAY_RE = r"\d{4}-\d{2}-\d{2}"


def expected_remainder(repo: Path, depth: int) -> dict[str, set[str]]:
    """Union of the runs' top ``depth`` minus the judged set, computed here independently."""
    out: dict[str, set[str]] = {}
    for qid in RUNS["a"]:
        data = yamlfile.load_fast(repo / "labels" / f"{qid}.yaml")
        judged = set(data["judged_ids"])
        union = {d for run in RUNS.values() for d in run.get(qid, [])[:depth]}
        out[qid] = union - judged
    return out


def pending_docs(path: Path) -> list[str]:
    label = label_from_data(yamlfile.load_fast(path))
    return [d.doc for b in label.pending for d in b.docs]


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def test_pool_writes_the_remainder_on_a_branch_in_one_commit(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    want = expected_remainder(scenario, 3)
    head_before = git(scenario, "rev-parse", "HEAD").strip()
    assert cli(scenario, "pool", "a", "b", "--depth", "3") == 0
    out = capsys.readouterr().out

    for qid, docs in want.items():
        assert set(pending_docs(scenario / "labels" / f"{qid}.yaml")) == docs, qid
    # order: best rank over the runs, then id
    assert pending_docs(scenario / "labels" / "returns-damaged.yaml") == [
        "faq-shipping#damaged",
        "policy-returns-v2#sec-2",
        "tenant-acme#returns",
    ]
    assert pending_docs(scenario / "labels" / "cancel-order.yaml") == ["no", "1239"]

    branch = git(scenario, "symbolic-ref", "--short", "HEAD").strip()
    assert re.fullmatch(rf"labelpool/batch-{TODAY_RE}-a\+b", branch)
    assert git(scenario, "rev-parse", "HEAD~1").strip() == head_before
    assert git(scenario, "status", "--porcelain").strip() == ""
    message = git(scenario, "log", "-1", "--format=%B")
    assert re.search(rf"batch {TODAY_RE}-a\+b@3", message)
    assert "Systems: a, b; depth: 3" in message
    assert "Documents to judge: 5 in 2 questions" in message
    # union 5 + 4 + 1 = 10; judged 2 + 2 + 1 = 5
    assert "Union of the top 3: 10; already judged: 5 (50.0%)" in message

    assert "remainder: 5" in out
    assert "per question: --verbose lists the 2 questions" in out
    assert "returns-damaged: 3 / 5" not in out  # per-question lines: --verbose
    assert "cancel-order: 2 / 4" not in out
    # a is judged at 3 except faq-shipping#damaged (1 of 3 on returns-damaged, 1239 on cancel)
    assert re.search(r"  a: 0\.\d{3}", out) and re.search(r"  b: 0\.\d{3}", out)

    assert cli(scenario, "validate", "--allow-pending") == 0
    assert cli(scenario, "validate") == 1  # a batch branch stays red until merged


def test_batch_format_one_line_verdicts_under_their_text(scenario: Path) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3") == 0
    text = (scenario / "labels" / "returns-damaged.yaml").read_text()
    assert text.startswith("# Comments are kept by every rewrite.\n")
    assert "owner: support-team  # an unknown key survives\n" in text
    lines = text.splitlines()
    verdicts = [i for i, ln in enumerate(lines) if ln.startswith("      - {doc: ")]
    assert len(verdicts) == 3
    for i in verdicts:
        assert lines[i].endswith(", verdict: null}")
        assert lines[i - 1].startswith("      #"), "the chunk text sits right above the verdict"
    assert "      # question: My parcel arrived damaged. Can I send it back?" in lines
    assert f"      # text: {CORPUS['faq-shipping#damaged']}" in lines
    # long text is wrapped into comment lines of about 100 characters
    assert all(len(ln) <= 110 for ln in lines if ln.lstrip().startswith("#"))
    assert re.search(rf"  - batch: '{TODAY_RE}-a\+b@3'", text)
    blob = git(scenario, "hash-object", "runs/a.trec").strip()
    assert f"      a: {blob}" in lines

    cancel = (scenario / "labels" / "cancel-order.yaml").read_text()
    # ids a YAML 1.1 or 1.2 reader would take for a number or a boolean are quoted
    assert "      - {doc: 'no', verdict: null}" in cancel
    assert "      - {doc: '1239', verdict: null}" in cancel
    assert pending_docs(scenario / "labels" / "cancel-order.yaml") == ["no", "1239"]


def test_missing_text_is_said_plainly(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    assert cli(repo, "pool", "a", "b", "--depth", "4", "--questions", "returns-damaged") == 0
    lines = (repo / "labels" / "returns-damaged.yaml").read_text().splitlines()
    i = lines.index("      - {doc: unknown-doc#1, verdict: null}")
    assert lines[i - 1] == "      # text: (not in the corpus)"


def test_golden_diff_each_hunk_shows_question_text_and_verdict(scenario: Path) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3") == 0
    show = git(scenario, "show", "-U3", "--format=", "HEAD")
    files = [f for f in show.split("diff --git ")[1:] if "pending:" in f]
    assert len(files) == 2
    hunks = [h for f in files for h in re.split(r"^@@.*@@.*$", f, flags=re.M)[1:]]
    assert hunks
    for hunk in hunks:
        added = [ln[1:] for ln in hunk.splitlines() if ln.startswith("+")]
        assert any(ln.lstrip().startswith("# question: ") for ln in added), hunk
        assert any(ln.lstrip().startswith("# text: ") for ln in added), hunk
        verdicts = [ln for ln in added if "verdict:" in ln]
        assert verdicts and all(
            re.fullmatch(r"      - \{doc: .+, verdict: null\}", v) for v in verdicts
        )


def test_complete_question_gets_pool_entries_at_once(scenario: Path) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3") == 0
    data = yamlfile.load_fast(scenario / "labels" / "login.yaml")
    assert "pending" not in data
    blobs = {s: git(scenario, "hash-object", f"runs/{s}.trec").strip() for s in ("a", "b")}
    new = data["pool"][1:]
    assert [(p["system"], p["k"], p["run"]) for p in new] == [
        ("a", 3, blobs["a"]),
        ("b", 3, blobs["b"]),
    ]
    assert data["pool"][0] == {"system": "a", "k": 1, "date": "2026-06-02"}
    # pooling again adds no duplicate entry
    git(scenario, "switch", "-q", "main")
    git(scenario, "merge", "-q", "--ff-only", "-")
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--no-commit") == 0
    assert len(yamlfile.load_fast(scenario / "labels" / "login.yaml")["pool"]) == 3


def test_pool_again_skips_documents_already_waiting(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(scenario, "pool", "a", "--depth", "3", "--no-commit") == 0
    first = pending_docs(scenario / "labels" / "returns-damaged.yaml")
    assert first == ["faq-shipping#damaged"]
    capsys.readouterr()
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--no-commit") == 0
    out = capsys.readouterr().out
    assert "waiting in earlier batches: 2" in out  # faq-shipping#damaged and 1239
    label = label_from_data(yamlfile.load_fast(scenario / "labels" / "returns-damaged.yaml"))
    assert [len(b.docs) for b in label.pending] == [1, 2]
    assert (
        "full_depth"
        not in yamlfile.load_fast(scenario / "labels" / "returns-damaged.yaml")["pending"][1]
    )
    assert sorted(d.doc for b in label.pending for d in b.docs) == sorted(
        expected_remainder(scenario, 3)["returns-damaged"]
    )


def test_dirty_tree_refused(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario / "labels" / "login.yaml"
    path.write_text(path.read_text() + "note: edited\n")
    before = snapshot(scenario / "labels")
    assert cli(scenario, "pool", "a", "b", "--depth", "3") == 1
    err = capsys.readouterr().err
    assert "uncommitted changes" in err and "Traceback" not in err
    assert snapshot(scenario / "labels") == before
    assert git(scenario, "symbolic-ref", "--short", "HEAD").strip() == "main"


def test_no_commit_leaves_the_tree_changed_on_the_current_branch(scenario: Path) -> None:
    head = git(scenario, "rev-parse", "HEAD").strip()
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--no-commit") == 0
    assert git(scenario, "rev-parse", "HEAD").strip() == head
    assert git(scenario, "symbolic-ref", "--short", "HEAD").strip() == "main"
    changed = git(scenario, "status", "--porcelain").split()
    assert "labels/returns-damaged.yaml" in changed and "labels/login.yaml" in changed


def test_branch_option_and_existing_branch(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git(scenario, "branch", "taken")
    assert cli(scenario, "pool", "a", "--depth", "3", "--branch", "taken") != 0
    assert "exists already" in capsys.readouterr().err
    assert cli(scenario, "pool", "a", "--depth", "3", "--branch", "judge/round-1") == 0
    assert git(scenario, "symbolic-ref", "--short", "HEAD").strip() == "judge/round-1"


def test_no_text_leaves_text_out(scenario: Path) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--no-text", "--no-commit") == 0
    text = (scenario / "labels" / "returns-damaged.yaml").read_text()
    assert "# text:" not in text and "# question:" not in text
    assert "damaged items may be returned" not in text.lower()
    assert len(pending_docs(scenario / "labels" / "returns-damaged.yaml")) == 3


def test_max_docs_spends_the_budget_on_the_highest_ranked_first(scenario: Path) -> None:
    # remainder: returns-damaged faq-shipping#damaged (rank 1, 2 runs... only top3 of a and b),
    # policy-returns-v2#sec-2 (2), tenant-acme#returns (3); cancel-order no (1), 1239 (3, 2 runs)
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--max-docs", "3", "--no-commit") == 0
    got = {
        q: pending_docs(scenario / "labels" / f"{q}.yaml")
        for q in ("returns-damaged", "cancel-order")
    }
    assert got == {
        "returns-damaged": ["faq-shipping#damaged", "policy-returns-v2#sec-2"],
        "cancel-order": ["no"],
    }
    data = yamlfile.load_fast(scenario / "labels" / "returns-damaged.yaml")
    # a's top 3 is covered (v3 judged, handbook judged, faq in batch); b's stops at rank 3
    assert data["pending"][0]["full_depth"] == {"a": 3, "b": 2}


def test_markdown_format_is_a_pull_request_description(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--format", "markdown") == 0
    out = capsys.readouterr().out
    assert out.startswith("## Judging batch `")
    assert "| **to judge in this batch** | **5** in 2 questions |" in out
    assert "| `returns-damaged` | 3 | 5 |" in out


def test_usage_errors(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(scenario, "pool", "a", "--depth", "0") == 2
    assert cli(scenario, "pool", "a", "--depth", "3", "--questions", "nope") == 2
    assert cli(scenario, "pool", "missing-run", "--depth", "3") != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "nope" in err


def test_console_script(scenario: Path) -> None:
    proc = subprocess.run(
        ["labelpool", "pool", "a", "b", "--depth", "3", "--no-commit"],
        cwd=scenario / "labels",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "remainder: 5" in proc.stdout


def test_batch_text_edits_keep_every_other_line(tmp_path: Path) -> None:
    from labelpool import batch

    item = batch.render(
        batch.NewBatch("2026-12-02-x@5", ("x",), 5, "2026-12-02", {}, ("d#1", "on")),
        question="Q?",
        texts={"d#1": "some text"},
    )
    base = "id: q\nquestion: Q?\nrelevant_doc_ids: []\njudged_ids: []\n"
    # an empty flow list becomes a block list; a key after pending stays after it
    text = batch.append(base + "pending: []\nowner: me  # kept\n", item)
    assert text.startswith(base + "pending:\n  - batch: '2026-12-02-x@5'\n")
    assert text.endswith("      - {doc: 'on', verdict: null}\nowner: me  # kept\n")
    assert "      # text: (not in the corpus)\n      - {doc: 'on'" in text
    twice = batch.append(text, item.replace("x@5", "y@5"))
    data = yamlfile.loads_roundtrip(twice)
    assert [b["batch"] for b in data["pending"]] == ["2026-12-02-x@5", "2026-12-02-y@5"]
    assert data["owner"] == "me"

    def read(t: str) -> list[batch.PendingBatch]:
        d = yamlfile.loads_roundtrip(t)
        return batch.read(d, "f", lambda kp: yamlfile.node_position(d, tuple(kp))[0])

    # drop the first batch's two entries: that batch goes, the second stays whole
    one = batch.remove(twice, read(twice), {(0, 0), (0, 1)})
    assert one == base + "pending:\n" + item.replace("x@5", "y@5") + "owner: me  # kept\n"
    # drop one entry of the remaining batch: its line and its text go, the question stays
    left = batch.remove(one, read(one), {(0, 0)})
    assert "d#1" not in left and "some text" not in left and "# question: Q?" in left
    assert "      # text: (not in the corpus)\n      - {doc: 'on', verdict: null}\n" in left
    # drop everything: the pending key goes, nothing else changes
    assert batch.remove(left, read(left), {(0, 0)}) == base + "owner: me  # kept\n"
