"""``classes propose --corpus`` names the corpus documents that would join a file's document, so
that accepting the class moves scores: on the example, ``wrong-item`` judges the kettle's
delivery tab, and the dense run retrieves five other product pages carrying the same tab that
nobody judged for it; once a reviewer accepts the class, they are judged through it and the
dense run's unjudged rate falls. A group of more than ``MAX_JOINING`` corpus documents is a
template's boilerplate: counted, not named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from labelpool import yamlfile
from labelpool.model import label_from_data
from labelpool.workflows.classes.propose import MAX_JOINING
from pool_scenario import cli, committed_example, git

RITA = {"GIT_AUTHOR_NAME": "Rita Review", "GIT_AUTHOR_EMAIL": "rita@example.invalid"}
KETTLE = "product-kettle#delivery-returns"


def _json(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> dict[str, Any]:
    capsys.readouterr()
    assert cli(repo, *args, "--format", "json") == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _unjudged(capsys: pytest.CaptureFixture[str], repo: Path) -> float:
    report = _json(capsys, repo, "score", "dense", "-m", "P@10")
    (system,) = report["systems"]
    return float(system["unjudged_rate"])


def test_a_corpus_class_names_the_unjudged_twins_and_acceptance_moves_the_unjudged_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = committed_example(tmp_path)
    path = repo / "labels" / "wrong-item.yaml"
    before_label = label_from_data(yamlfile.load_fast(path))
    before = _unjudged(capsys, repo)
    args = ["classes", "propose", "--corpus", "--questions", "wrong-item", "--branch", "c"]
    report = _json(capsys, repo, *args)
    (proposal,) = report["proposals"]
    members = proposal["members"]
    named = set(members) - set(before_label.judged_ids)
    assert KETTLE in members and len(named) == proposal["joining"] == len(members) - 1
    assert all(m.endswith("#delivery-returns") for m in members)
    assert proposal["unnamed"] == 0 and report["crowded"] == 0
    # the differing words compare the judged page with one that joins it
    assert '"kettle"' in proposal["differs"]
    assert cli(repo, "validate", "--allow-pending") == 0
    assert _unjudged(capsys, repo) == before  # a proposal is never scored
    # the reviewer accepts: deletes the `proposed:` line, commits; merge credits them
    text = path.read_text(encoding="utf-8")
    kept = [ln for ln in text.splitlines(keepends=True) if "proposed: {method" not in ln]
    path.write_text("".join(kept), encoding="utf-8")
    git(repo, "commit", "-qam", "review: one delivery tab", env=RITA)
    assert cli(repo, "merge") == 0
    assert cli(repo, "validate") == 0
    after = _unjudged(capsys, repo)
    assert after < before
    label = label_from_data(yamlfile.load_fast(path))
    assert tuple(sorted(members)) in {tuple(sorted(c)) for c in label.relevant_classes}
    blame = git(repo, "blame", "--line-porcelain", "labels/wrong-item.yaml").splitlines()
    authors = [ln.removeprefix("author ") for ln in blame if ln.startswith("author ")]
    contents = [ln[1:] for ln in blame if ln.startswith("\t")]
    at = contents.index(f"  - - {members[0]}")
    assert authors[at] == "Rita Review"


def test_a_group_larger_than_the_bound_is_counted_not_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = committed_example(tmp_path)
    corpus = repo / "corpus" / "corpus.jsonl"
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    kettle = next(r for r in rows if r["_id"] == KETTLE)
    with corpus.open("a", encoding="utf-8") as fh:
        for i in range(MAX_JOINING + 5):
            fh.write(json.dumps({**kettle, "_id": f"mirror-{i}#delivery-returns"}) + "\n")
        fh.write(json.dumps({**kettle, "_id": "with space#delivery-returns"}) + "\n")
    git(repo, "commit", "-qam", "a mirrored template")
    args = ["classes", "propose", "--corpus", "--questions", "wrong-item", "--no-commit"]
    report = _json(capsys, repo, *args)
    assert report["proposals"] == [] and report["crowded"] == 1
    skipped = report["skipped"]
    assert {k: v for k, v in skipped[0].items() if k != "reason"} == {
        "question": "wrong-item",
        "document": "with space#delivery-returns",
    }
    assert "LP020" in skipped[0]["reason"]
    capsys.readouterr()
    assert cli(repo, *args) == 0
    out = capsys.readouterr().out
    assert f"classes of more than {MAX_JOINING} corpus documents" in out
