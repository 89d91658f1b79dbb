"""``labelpool merge`` folds a ``{duplicate-of: ID}`` verdict in a file whose
``relevant_classes`` holds the mapping form (a proposal waiting for review, a class accepted by
deleting its ``proposed:`` line): the accepted classes are edited in place, every proposal
stays as written with its comment line; a duplicate whose document or target sits in a
proposal waits for the review (one document, one class: LP030)."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.labelfile.classes import Proposal, add_proposals
from labelpool.model import label_from_data
from pool_scenario import LABELS, cli, git, make_repo

ALICE = {"GIT_AUTHOR_NAME": "Alice Judge", "GIT_AUTHOR_EMAIL": "alice@example.invalid"}


def set_verdict(path: Path, doc: str, verdict: str) -> None:
    text = path.read_text(encoding="utf-8")
    old = f"- {{doc: {doc}, verdict: null}}"
    assert text.count(old) == 1, (doc, text)
    path.write_text(text.replace(old, f"- {{doc: {doc}, verdict: {verdict}}}"), encoding="utf-8")


def commit_as(repo: Path, who: dict[str, str], message: str) -> None:
    git(repo, "commit", "-q", "-am", message, env=who)


CLASS = "relevant_classes:\n  - - handbook#returns\n    - policy-returns-v2#sec-2\n"
PROPOSAL = (["faq-shipping#damaged", "unknown-doc#1"], "shingle-jaccard", 0.9, "proposed: faq")
LATER = (["unknown-doc#1", "zz-doc#2"], "shingle-jaccard", 0.9, "proposed: later")


def _repo(tmp_path: Path, classes: str = "", proposal: Proposal = PROPOSAL) -> Path:
    labels = dict(LABELS)
    text = labels["returns-damaged"].replace("pool:\n", classes + "pool:\n")
    labels["returns-damaged"] = add_proposals(text, [proposal])
    repo = make_repo(tmp_path / "repo", labels)
    assert cli(repo, "pool", "a", "b", "--depth", "3") == 0
    return repo


def _label_text(repo: Path) -> str:
    return (repo / "labels" / "returns-damaged.yaml").read_text(encoding="utf-8")


def test_a_duplicate_makes_a_class_in_its_place_before_a_proposal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, CLASS, LATER)
    path = repo / "labels" / "returns-damaged.yaml"
    set_verdict(path, "tenant-acme#returns", "{duplicate-of: policy-returns-v3#sec-2}")
    commit_as(repo, ALICE, "alice judges")
    before = _label_text(repo)
    assert cli(repo, "merge", "--partial") == 0
    text = _label_text(repo)
    proposal = before[before.index("  # proposed: later") : before.index("pool:")]
    assert proposal in text  # the proposal and its comment line, byte for byte
    assert (
        "relevant_classes:\n  - - handbook#returns\n    - policy-returns-v2#sec-2\n"
        "  - - policy-returns-v3#sec-2\n    - tenant-acme#returns\n  # proposed: later\n"
    ) in text  # the comment line stays above its proposal
    label = label_from_data(yamlfile.load_fast(path))
    assert label.relevant_classes[1] == ("policy-returns-v3#sec-2", "tenant-acme#returns")
    assert label.gain["tenant-acme#returns"] == 1
    assert [p.members for p in label.proposed_classes] == [tuple(LATER[0])]
    assert cli(repo, "validate", "--allow-pending") == 0


def test_a_new_class_after_the_proposals_it_sorts_after(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    path = repo / "labels" / "returns-damaged.yaml"
    set_verdict(path, "tenant-acme#returns", "{duplicate-of: policy-returns-v3#sec-2}")
    commit_as(repo, ALICE, "alice judges")
    assert cli(repo, "merge", "--partial") == 0
    assert (
        "    proposed: {method: shingle-jaccard, score: 0.9}\n"
        "  - - policy-returns-v3#sec-2\n    - tenant-acme#returns\npool:\n"
    ) in _label_text(repo)
    assert cli(repo, "validate", "--allow-pending") == 0


def test_a_duplicate_joins_an_accepted_class_beside_a_proposal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels_class = CLASS.replace("handbook#returns", "policy-returns-v3#sec-2")
    labels_class = labels_class.replace("policy-returns-v2#sec-2", "zz-copy#1")
    repo = _repo(tmp_path, labels_class)
    path = repo / "labels" / "returns-damaged.yaml"
    set_verdict(path, "tenant-acme#returns", "{duplicate-of: zz-copy#1}")
    commit_as(repo, ALICE, "alice judges")
    assert cli(repo, "merge", "--partial") == 0
    text = _label_text(repo)
    assert (
        "  - - policy-returns-v3#sec-2\n    - tenant-acme#returns\n    - zz-copy#1\n"
        "  # proposed: faq\n  - members: [faq-shipping#damaged, unknown-doc#1]\n"
    ) in text
    assert cli(repo, "validate", "--allow-pending") == 0
    blame = git(repo, "blame", "--line-porcelain", "labels/returns-damaged.yaml")
    authors = [ln[7:] for ln in blame.splitlines() if ln.startswith("author ")]
    assert authors[text.splitlines().index("    - tenant-acme#returns")] == "Alice Judge"


def test_a_duplicate_of_a_proposed_member_waits_for_the_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    path = repo / "labels" / "returns-damaged.yaml"
    set_verdict(path, "faq-shipping#damaged", "{duplicate-of: policy-returns-v3#sec-2}")
    commit_as(repo, ALICE, "alice judges")
    capsys.readouterr()
    assert cli(repo, "merge", "--partial") == 0
    out = capsys.readouterr().out
    assert "faq-shipping#damaged is in a proposed class" in out
    assert "{doc: faq-shipping#damaged, verdict: {duplicate-of: policy-returns-v3#sec-2}}" in (
        _label_text(repo)
    )
