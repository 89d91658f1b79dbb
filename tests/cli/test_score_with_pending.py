"""``labelpool score --with-pending``: scores as if the filled verdicts of the working tree
were merged (issue 13, "What is left for me"). 0.1.0 had no such option (exit 2): a judge
had to merge to see what the verdicts so far do to the scores."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from labelpool.cli import main
from pool_scenario import git, make_repo, snapshot

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = {
    ("returns-damaged", "faq-shipping#damaged"): "2",
    ("returns-damaged", "tenant-acme#returns"): "relevant",
    ("cancel-order", "no"): "irrelevant",
}


@pytest.fixture
def pooled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = make_repo(tmp_path / "repo")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["pool", "a", "b", "--depth", "3"]) == 0
    for (qid, doc), verdict in VERDICTS.items():
        path = repo / "labels" / f"{qid}.yaml"
        quoted = f"'{doc}'" if doc == "no" else doc
        text = path.read_text(encoding="utf-8")
        old = f"- {{doc: {quoted}, verdict: null}}"
        assert text.count(old) == 1
        path.write_text(text.replace(old, f"- {{doc: {quoted}, verdict: {verdict}}}"), "utf-8")
    return repo


def score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["score", "a", "b", "-m", "P@3,R@3,nDCG@3", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_preview_equals_the_merge_and_writes_nothing(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(pooled / "labels")
    code, out, _ = score(capsys, "--format", "json")
    assert code == 0
    plain = json.loads(out)
    code, out, _ = score(capsys, "--format", "json", "--with-pending")
    assert code == 0
    preview = json.loads(out)
    schema = json.loads((ROOT / "schema" / "score-report.schema.json").read_text("utf-8"))
    jsonschema.validate(preview, schema)
    assert preview["preview"] == {"filled_not_merged": 3}
    assert "preview" not in plain
    assert preview["systems"] != plain["systems"]  # the verdicts change the scores
    assert snapshot(pooled / "labels") == before  # a preview writes nothing

    assert main(["merge", "--no-commit", "--partial"]) == 0
    code, out, _ = score(capsys, "--format", "json")
    merged = json.loads(out)
    assert preview["systems"] == merged["systems"]


def test_text_starts_with_the_preview_line(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = score(capsys, "--with-pending")
    assert code == 0
    assert out.startswith("preview: 3 filled verdicts not merged\n")
    code, out, _ = score(capsys, "--with-pending", "--format", "markdown")
    assert out.startswith("preview: 3 filled verdicts not merged\n\n")
    code, out, err = score(capsys, "--with-pending", "--format", "csv")
    assert out.startswith("system,") and "preview: 3 filled verdicts not merged\n" in err
    code, _, err = score(capsys, "--with-pending", "--format", "trec_eval")
    assert code == 2 and "--with-pending: not with --format trec_eval" in err


def test_a_contradiction_exits_1_with_merges_message(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = pooled / "labels" / "returns-damaged.yaml"
    text = path.read_text(encoding="utf-8")
    # a judgment added by hand meanwhile: the pending verdict 2 contradicts "irrelevant"
    path.write_text(
        text.replace("judged_ids:\n", "judged_ids:\n  - faq-shipping#damaged\n", 1), "utf-8"
    )
    before = snapshot(pooled / "labels")
    code, out, err = score(capsys, "--with-pending")
    assert (code, out) == (1, "")
    message = err.strip()
    assert "verdict 2 for faq-shipping#damaged contradicts" in message
    assert main(["merge", "--no-commit"]) == 1
    assert capsys.readouterr().err.strip() == message  # merge's own words
    assert snapshot(pooled / "labels") == before
    git(pooled, "status", "--short")
