"""Verdicts classes carried, recorded: ``pool`` names in the batch (``carried:``) each
document of the union an accepted class judges already; once the batch is resolved, ``merge``
records its verdict as ``{class: MEMBER, verdict: V}`` in ``verdicts``, as many lines as
``pool`` counted, in a commit of its own. Scoring gives the same numbers with or without the
line, no judge is credited with it, a second ``pool`` does not count it again, and a class
rejected before the merge records nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labelpool import yamlfile
from labelpool.model import label_from_data
from pool_scenario import LABELS, cli, git, make_repo

AL = {"GIT_AUTHOR_NAME": "Al Judge", "GIT_AUTHOR_EMAIL": "al@example.invalid"}
CLASS = "relevant_classes:\n  - - faq-shipping#damaged\n    - policy-returns-v3#sec-2\n"
LINE = "    - {class: policy-returns-v3#sec-2, verdict: relevant}\n"


def _pooled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict]:  # type: ignore[type-arg]
    labels = dict(LABELS)
    labels["returns-damaged"] = labels["returns-damaged"].replace("pool:\n", CLASS + "pool:\n")
    repo = make_repo(tmp_path / "repo", labels)
    capsys.readouterr()
    assert cli(repo, "pool", "a", "b", "--depth", "3", "--format", "json") == 0
    return repo, json.loads(capsys.readouterr().out)


def _judge_all(repo: Path) -> None:
    for qid in ("returns-damaged", "cancel-order"):
        path = repo / "labels" / f"{qid}.yaml"
        path.write_text(path.read_text("utf-8").replace("verdict: null", "verdict: irrelevant"))
    git(repo, "commit", "-q", "-am", "judged", env=AL)


def _text(repo: Path) -> str:
    return (repo / "labels" / "returns-damaged.yaml").read_text(encoding="utf-8")


def test_merge_records_what_pool_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, report = _pooled(tmp_path, capsys)
    assert [c["document"] for c in report["carried"]] == ["faq-shipping#damaged"]
    pooled = _text(repo)
    assert (
        "    carried:  # judged through their class: merge records the verdict\n"
        "      faq-shipping#damaged: policy-returns-v3#sec-2\n    docs:\n"
    ) in pooled
    assert cli(repo, "validate", "--allow-pending") == 0
    _judge_all(repo)
    assert cli(repo, "merge") == 0
    out = capsys.readouterr().out
    assert "carried by classes: 1 verdict recorded, commit" in out
    text = _text(repo)
    assert text.count("{class: ") == len(report["carried"])
    assert "verdicts:\n  faq-shipping#damaged:\n" + LINE in text
    assert "carried:" not in text  # the batch is resolved
    log = git(repo, "log", "-2", "--format=%an|%s").splitlines()
    assert log == [
        "Runner|labelpool merge: 1 verdict carried by classes",
        "Al Judge|labelpool merge: 4 verdicts by Al Judge (" + report["batch"] + ")",
    ]
    assert cli(repo, "validate") == 0
    label = label_from_data(yamlfile.load_fast(repo / "labels" / "returns-damaged.yaml"))
    assert label.class_verdicts == {"faq-shipping#damaged": ("policy-returns-v3#sec-2", "relevant")}
    assert "faq-shipping#damaged" not in label.verdicts  # no judge's verdict
    # scoring reads the class, not the line: the same qrels without it
    capsys.readouterr()
    assert cli(repo, "export", "trec") == 0
    with_line = capsys.readouterr().out
    assert "returns-damaged 0 faq-shipping#damaged 1" in with_line
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(text.replace("  faq-shipping#damaged:\n" + LINE, ""), encoding="utf-8")
    assert cli(repo, "export", "trec") == 0
    assert capsys.readouterr().out == with_line
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert cli(repo, "history", "returns-damaged", "faq-shipping#damaged") == 0
    assert "judged by" not in capsys.readouterr().out  # no judge credited with the class's
    head = git(repo, "rev-parse", "HEAD")
    assert cli(repo, "merge") == 0  # twice: nothing more
    assert git(repo, "rev-parse", "HEAD") == head


def test_a_second_pool_does_not_count_a_recorded_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = _pooled(tmp_path, capsys)
    _judge_all(repo)
    assert cli(repo, "merge") == 0
    capsys.readouterr()
    assert cli(repo, "pool", "a", "b", "--depth", "4", "--branch", "again", "--format", "json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["carried"] == []
    assert "faq-shipping#damaged" not in json.dumps(report["questions"])


def test_a_class_rejected_before_the_merge_records_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = _pooled(tmp_path, capsys)
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(_text(repo).replace(CLASS, ""), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "not one text after all")
    _judge_all(repo)
    capsys.readouterr()
    assert cli(repo, "merge") == 0
    assert "carried by classes" not in capsys.readouterr().out
    assert "{class: " not in _text(repo)
    assert cli(repo, "validate") == 0
