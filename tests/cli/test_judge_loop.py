"""The issue's end to end: a batch ``labelpool pool`` made on the example is judged in the page
with the keyboard only (verdicts from the example's ground truth), committed from the page,
merged, and ``labelpool history`` names the judge."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge_scenario import (
    JUDGE_EMAIL,
    JUDGE_NAME,
    browser,
    current,
    labelpool,
    open_page,
    pooled_example,
    press,
    start_server,
)
from pool_scenario import git


def truth(repo: Path) -> dict[tuple[str, str], int]:
    out = {}
    for line in (repo / "corpus" / "ground-truth.qrels").read_text().splitlines():
        qid, _, doc, grade = line.split()
        out[(qid, doc)] = int(grade)
    return out


@pytest.fixture
def chrome() -> Iterator[Any]:
    with browser() as b:
        yield b


def test_judge_commit_merge_history_by_keyboard(tmp_path: Path, chrome: Any) -> None:
    repo = pooled_example(tmp_path)
    grades = truth(repo)
    server = start_server(repo)
    try:
        page = open_page(chrome, server.url)
        judged: dict[tuple[str, str], int] = {}
        for _ in range(30):
            qid, doc = current(page)
            grade = min(grades.get((qid, doc), 0), 2)
            press(page, str(grade))
            judged[(qid, doc)] = grade
        assert len(judged) == 30
        assert page.text_content("#progress").startswith("30 / 30 judged; ")
        assert "every document of this batch" in page.text_content("#message").lower()
        # the keyboard reaches the commit button: Tab to it, Enter
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.id") == "commit-button"
        press(page, "Enter")
        assert "committed" in page.text_content("#message")
        assert not page.errors
    finally:
        code, out, err = server.stop(signal.SIGTERM)
    assert code == 0, err
    assert out.splitlines()[-1] == "labelpool judge: stopped; 0 verdicts not committed"
    assert not git(repo, "status", "--porcelain")
    authors = git(repo, "log", "-2", "--format=%an <%ae>|%s").splitlines()
    assert authors[0].startswith(f"{JUDGE_NAME} <{JUDGE_EMAIL}>|labelpool judge: 30 verdicts")
    assert authors[1].startswith("Runner <runner@example.invalid>|labelpool pool: batch")

    merged = labelpool(repo, "merge")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert f"{JUDGE_NAME} <{JUDGE_EMAIL}>: 30 verdicts" in merged.stdout
    assert labelpool(repo, "validate", "--provenance").returncode == 0
    (qid, doc), grade = next(iter(judged.items()))
    history = labelpool(repo, "history", qid, doc)
    assert history.returncode == 0, history.stderr
    assert f"{JUDGE_NAME} <{JUDGE_EMAIL}>" in history.stdout
    label = (repo / "labels" / f"{qid}.yaml").read_text()
    assert "pending:" not in label or f"doc: {doc}," not in label
    assert doc in label
