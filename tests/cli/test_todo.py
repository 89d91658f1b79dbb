"""``labelpool todo``: per batch and question filled/total, the first empty verdict, and
``--mine`` (issue 13, "What is left for me"). 0.1.0 had no such command: a judge counted
``verdict: null`` lines by hand."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from labelpool.cli import main
from pool_scenario import git, make_repo

ROOT = Path(__file__).resolve().parents[2]
ALICE = {"GIT_AUTHOR_NAME": "Alice Judge", "GIT_AUTHOR_EMAIL": "alice@example.invalid"}


@pytest.fixture
def pooled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = make_repo(tmp_path / "repo")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["pool", "a", "b", "--depth", "3"]) == 0
    return repo


def fill(repo: Path, qid: str, doc: str, verdict: str) -> None:
    path = repo / "labels" / f"{qid}.yaml"
    text = path.read_text(encoding="utf-8")
    quoted = f"'{doc}'" if doc in ("no", "1239") else doc
    old = f"- {{doc: {quoted}, verdict: null}}"
    assert text.count(old) == 1
    path.write_text(text.replace(old, f"- {{doc: {quoted}, verdict: {verdict}}}"), "utf-8")


def line_of(repo: Path, qid: str, needle: str) -> int:
    lines = (repo / "labels" / f"{qid}.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def todo(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["todo", *args]) == 0
    return capsys.readouterr().out


def batch_name(repo: Path) -> str:
    text = (repo / "labels" / "cancel-order.yaml").read_text(encoding="utf-8")
    return text.split("- batch: '", 1)[1].split("'", 1)[0]


def test_counts_and_the_first_empty_verdict(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = batch_name(pooled)
    first = line_of(pooled, "cancel-order", "verdict: null")
    assert todo(capsys) == (
        f"batch {batch}: 0/5 filled\n"
        "  cancel-order     0/2\n"
        "  returns-damaged  0/3\n"
        f"next: labels/cancel-order.yaml:{first}\n"
    )
    fill(pooled, "cancel-order", "no", "irrelevant")
    fill(pooled, "cancel-order", "1239", "relevant")
    fill(pooled, "returns-damaged", "faq-shipping#damaged", "2")
    second = line_of(pooled, "returns-damaged", "verdict: null")
    out = todo(capsys)
    assert out.startswith(f"batch {batch}: 3/5 filled\n  cancel-order     2/2\n")
    assert out.endswith(f"next: labels/returns-damaged.yaml:{second}\n")
    for doc in ("policy-returns-v2#sec-2", "tenant-acme#returns"):
        fill(pooled, "returns-damaged", doc, "irrelevant")
    assert todo(capsys).endswith(
        "next: none, every verdict is filled (`labelpool merge` folds them)\n"
    )
    assert main(["merge"]) == 0
    assert todo(capsys) == "no pending batch: nothing to judge\n"


def test_json_matches_its_schema_and_batch_filters(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = batch_name(pooled)
    schema = json.loads((ROOT / "schema" / "todo-report.schema.json").read_text("utf-8"))
    doc = json.loads(todo(capsys, "--format", "json", "--batch", batch))
    jsonschema.validate(doc, schema)
    assert (doc["filled"], doc["total"]) == (0, 5)
    assert doc["next"] == {
        "path": "labels/cancel-order.yaml",
        "line": line_of(pooled, "cancel-order", "verdict: null"),
    }
    assert [q["id"] for q in doc["batches"][0]["questions"]] == ["cancel-order", "returns-damaged"]
    capsys.readouterr()
    assert main(["todo", "--batch", "no-such-batch"]) == 2
    assert f"--batch no-such-batch: no pending batch of that name (pending: {batch})" in (
        capsys.readouterr().err
    )


def test_two_batches_and_a_subfolder(
    pooled: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = batch_name(pooled)
    # what depth 3 left: a second batch, on a branch of its own
    assert main(["pool", "a", "b", "--depth", "4", "--branch", "second-batch"]) == 0
    out = todo(capsys)
    second = [ln.split()[1].rstrip(":") for ln in out.splitlines() if ln.startswith("batch ")]
    assert first in second and len(second) == 2
    other = next(b for b in second if b != first)
    only = todo(capsys, "--batch", other)
    assert only.startswith(f"batch {other}: 0/1 filled\n  returns-damaged  0/1\n")
    monkeypatch.chdir(pooled / "labels")
    assert "next: cancel-order.yaml:" in todo(capsys)  # a path that opens from here


def test_mine_counts_lines_last_changed_by_me(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(pooled, "returns-damaged", "faq-shipping#damaged", "2")
    fill(pooled, "returns-damaged", "policy-returns-v2#sec-2", "irrelevant")
    git(pooled, "commit", "-q", "-am", "alice judges", env=ALICE)
    fill(pooled, "cancel-order", "no", "irrelevant")  # mine, not committed yet
    out = todo(capsys, "--mine")
    assert "0/5" not in out
    assert "  cancel-order     1/2 (mine: 1)\n" in out
    assert "  returns-damaged  2/3 (mine: 0)\n" in out
    assert "mine: verdict lines last changed by Runner <runner@example.invalid>" in out
    git(pooled, "commit", "-q", "-am", "runner judges")  # committed as the current user
    doc = json.loads(todo(capsys, "--mine", "--format", "json"))
    assert (doc["filled"], doc["mine"], doc["me"]) == (3, 1, "Runner <runner@example.invalid>")
    fill(pooled, "returns-damaged", "tenant-acme#returns", "relevant")
    assert json.loads(todo(capsys, "--mine", "--format", "json"))["mine"] == 2
