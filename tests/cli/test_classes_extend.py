"""A proposal that extends an accepted class (``extends: MEMBER``), through the CLI on real git
repositories: ``classes propose`` and ``import duplicates`` write it instead of counting it,
a reviewer accepts it by deleting its ``proposed:`` line, ``merge`` folds its members into the
class in the reviewer's commit, and an extension whose class changed since waits, with why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.labelfile.classes import add_proposals
from labelpool.model import Label, label_from_data
from pool_scenario import cli, committed_example, git, make_repo

RITA = {"GIT_AUTHOR_NAME": "Rita Review", "GIT_AUTHOR_EMAIL": "rita@example.invalid"}
GUS = {"GIT_AUTHOR_NAME": "Gus Hub", "GIT_AUTHOR_EMAIL": "gus@example.invalid"}
CLASS = "relevant_classes:\n  - - handbook#returns\n    - policy-returns-v3#sec-2\n"
PROPOSED_A = "    proposed: {method: shingle-jaccard, score: 0.91}\n"
PROPOSED_B = "    proposed: {method: shingle-containment, score: 0.95}\n"
FILE = "labels/returns-damaged.yaml"


@pytest.fixture
def extending(tmp_path: Path) -> Path:
    """The scenario with a class on main and, on a branch, two extensions of it."""
    repo = make_repo(tmp_path / "repo")
    path = repo / FILE
    text = path.read_text(encoding="utf-8").replace("pool:\n", CLASS + "pool:\n")
    path.write_text(text, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "a class by hand")
    git(repo, "checkout", "-q", "-b", "classes/proposed")
    text = add_proposals(
        path.read_text(encoding="utf-8"),
        [
            (["tenant-acme#returns"], "shingle-jaccard", 0.91, "proposed: a", "handbook#returns"),
            (
                ["faq-shipping#damaged"],
                "shingle-containment",
                0.95,
                "proposed: b",
                "policy-returns-v3#sec-2",
            ),
        ],
    )
    path.write_text(text, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "labelpool classes propose")
    return Path(repo)


def _label(repo: Path) -> Label:
    return label_from_data(yamlfile.load_fast(repo / FILE))


def _accept(repo: Path, line: str, who: dict[str, str], message: str) -> None:
    path = repo / FILE
    text = path.read_text(encoding="utf-8")
    assert text.count(line) == 1
    path.write_text(text.replace(line, ""), encoding="utf-8")
    git(repo, "commit", "-q", "-am", message, env=who)


def test_two_extensions_of_one_class_fold_in_their_reviewers_commits(
    extending: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (extending / FILE).read_text(encoding="utf-8")
    assert "  - members: [tenant-acme#returns]\n    extends: handbook#returns\n" in text
    assert cli(extending, "validate") == 1  # two extensions wait (LP062)
    err = capsys.readouterr().out
    assert "proposed extension tenant-acme#returns of the class of handbook#returns" in err
    assert cli(extending, "validate", "--allow-pending") == 0
    _accept(extending, PROPOSED_A, RITA, "acme's page is the handbook's")
    # accepted, not merged yet: scoring reads the larger class already
    label = _label(extending)
    assert label.relevant_classes == (
        ("handbook#returns", "policy-returns-v3#sec-2", "tenant-acme#returns"),
    )
    assert label.gain["tenant-acme#returns"] == 1
    _accept(extending, PROPOSED_B, GUS, "the faq says the policy")
    capsys.readouterr()
    assert cli(extending, "merge") == 0
    out = capsys.readouterr().out
    assert "Rita Review <rita@example.invalid>: 1 proposed class accepted" in out
    assert "Gus Hub <gus@example.invalid>: 1 proposed class accepted" in out
    text = (extending / FILE).read_text(encoding="utf-8")
    assert "members:" not in text and "extends:" not in text and "# proposed" not in text
    assert (
        "relevant_classes:\n  - - faq-shipping#damaged\n    - handbook#returns\n"
        "    - policy-returns-v3#sec-2\n    - tenant-acme#returns\npool:\n"
    ) in text
    assert "owner: support-team  # an unknown key survives" in text
    blame = git(extending, "blame", "--line-porcelain", FILE)
    authors = [ln[7:] for ln in blame.splitlines() if ln.startswith("author ")]
    lines = text.splitlines()
    assert authors[lines.index("    - tenant-acme#returns")] == "Rita Review"
    assert authors[lines.index("  - - faq-shipping#damaged")] == "Gus Hub"
    assert cli(extending, "validate") == 0
    head = git(extending, "rev-parse", "HEAD")
    assert cli(extending, "merge") == 0  # twice: nothing more
    assert git(extending, "rev-parse", "HEAD") == head


def test_an_extension_whose_class_was_removed_waits_with_why(
    extending: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _accept(extending, PROPOSED_A, RITA, "acme's page is the handbook's")
    path = extending / FILE
    path.write_text(
        path.read_text(encoding="utf-8").replace("  - - handbook#returns\n", "  - - x#1\n"),
        encoding="utf-8",
    )
    git(extending, "commit", "-q", "-am", "someone changes the class")
    capsys.readouterr()
    assert cli(extending, "validate", "--allow-pending") == 1
    assert "LP064 relevant_classes[1]: extends handbook#returns, which no" in (
        capsys.readouterr().out
    )
    before = path.read_text(encoding="utf-8")
    head = git(extending, "rev-parse", "HEAD")
    assert cli(extending, "merge") == 0
    err = capsys.readouterr().err
    assert "an accepted extension left as written: it extends handbook#returns" in err
    assert git(extending, "rev-parse", "HEAD") == head
    assert path.read_text(encoding="utf-8") == before
    label = _label(extending)
    assert "tenant-acme#returns" not in label.judged


def test_propose_across_the_corpus_extends_the_class_with_its_twin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = committed_example(tmp_path)
    capsys.readouterr()
    args = ["classes", "propose", "--corpus", "--questions", "table-cracked", "--branch", "x"]
    assert cli(repo, *args, "--format", "json") == 0
    report = json.loads(capsys.readouterr().out)
    ext = [p for p in report["proposals"] if p["extends"] is not None]
    assert report["extends"] == len(ext) == 1
    assert ext[0]["extends"] in ("faq-shipping#damaged", "handbook#returns-damaged")
    assert "export-pdf-2026#p7" in ext[0]["members"]
    assert "faq-shipping#damaged" not in ext[0]["members"]
    path = repo / "labels" / "table-cracked.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("    extends: "))
    assert " the class of " in lines[at - 2] and " differ in: " in lines[at - 2]
    assert lines[at + 1].startswith("    proposed: {method: shingle-")
    del lines[at + 1]
    path.write_text("".join(lines), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "accept", env=RITA)
    assert cli(repo, "merge") == 0
    assert git(repo, "log", "-1", "--format=%an").strip() == "Rita Review"
    label = label_from_data(yamlfile.load_fast(path))
    home = next(c for c in label.relevant_classes if "faq-shipping#damaged" in c)
    assert set(ext[0]["members"]) <= set(home)
    assert "extends:" not in path.read_text(encoding="utf-8")
    assert cli(repo, "validate", "--allow-pending") == 0


def test_import_duplicates_extends_a_class_the_file_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = committed_example(tmp_path)
    dups = tmp_path / "dups.txt"
    dups.write_text(
        "faq-shipping#damaged:product-oak-table#delivery-returns\n"
        "handbook#returns-damaged:faq-shipping#damaged\n",  # the class says it already
        encoding="utf-8",
    )
    capsys.readouterr()
    assert cli(repo, "import", "duplicates", str(dups), "--format", "json") == 0
    report = json.loads(capsys.readouterr().out)
    mine = [p for p in report["proposals"] if p["question"] == "table-cracked"]
    assert mine == [
        {
            "question": "table-cracked",
            "path": mine[0]["path"],
            "members": ["product-oak-table#delivery-returns"],
            "extends": "faq-shipping#damaged",
        }
    ]
    assert report["extends"] >= 1
    text = (repo / "labels" / "table-cracked.yaml").read_text(encoding="utf-8")
    assert (
        "  # proposed: product-oak-table#delivery-returns joins the class of "
        "faq-shipping#damaged from the duplicate map dups.txt\n"
        "  - members: [product-oak-table#delivery-returns]\n"
        "    extends: faq-shipping#damaged\n"
        "    proposed: {method: duplicate-map, score: 1.0}\n"
    ) in text


def test_fmt_writes_an_extensions_keys_in_their_order(
    extending: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = extending / FILE
    text = path.read_text(encoding="utf-8")
    a = "  # proposed: a\n  - members: [tenant-acme#returns]\n    extends: handbook#returns\n"
    b_start = text.index("  # proposed: b\n")
    b = text[b_start : text.index("pool:\n")]
    assert text[b_start - len(a + PROPOSED_A) : b_start] == a + PROPOSED_A
    messy_a = (
        "  # proposed: a\n  - proposed: {method: shingle-jaccard, score: 0.91}\n"
        "    extends: handbook#returns\n    members: [tenant-acme#returns]\n"
    )
    messy = text.replace(a + PROPOSED_A + b, messy_a + b)
    assert messy != text
    path.write_text(messy, encoding="utf-8")
    assert cli(extending, "fmt") == 0
    assert path.read_text(encoding="utf-8") == text
    assert cli(extending, "validate", "--allow-pending") == 0
