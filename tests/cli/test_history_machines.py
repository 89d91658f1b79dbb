"""``labelpool history`` shows a machine's verdict as a machine's, with its model and the
sha256 of its definition and prompt: read from the trailers of the commit that wrote it, else
from the judge's definition file when its identity is the recorded one, else said unknown."""

from __future__ import annotations

import json
from pathlib import Path

from labelpool.machine import definition
from machine_scenario import env, labelpool, machine_repo
from pool_scenario import git


def _judged_and_merged(tmp_path: Path) -> tuple[Path, dict[str, str], str]:
    repo = machine_repo(tmp_path / "r")
    e = env(tmp_path / "cache")
    proc = labelpool(repo, "judge", "--machine", "toy", env=e)
    assert proc.returncode == 0, proc.stderr
    judged = git(repo, "rev-parse", "HEAD").strip()
    labelpool(repo, "merge", env=e)  # exit 1: the can't-judge document stays pending
    return repo, e, judged


def test_model_and_hash_from_the_trailers(tmp_path: Path) -> None:
    repo, e, judged = _judged_and_merged(tmp_path)
    toy = definition.load(repo, "toy")
    proc = labelpool(repo, "history", "cancel-order", "1239", env={**e, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    assert (
        f"  judged by {toy.identity} (machine; model toy-length, from commit {judged[:10]}'s "
        "trailers): grade 1\n"
    ) in proc.stdout
    proc = labelpool(repo, "history", "cancel-order", "1239", "--format", "json", env=e)
    out = json.loads(proc.stdout)
    assert out["machine_judges"] == {
        toy.identity: {
            "model": "toy-length",
            "sha256": toy.sha256,
            "source": "trailer",
            "commit": judged,
        }
    }
    assert out["judgments"][0]["verdicts"][0]["kind"] == "machine"


def _hand_written(repo: Path, identity: str) -> None:
    """A machine's verdict written by hand and committed without trailers (as after a squash
    merge, which keeps none of the machine's commits)."""
    path = repo / "labels" / "cancel-order.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "judged_ids:\n",
        f"verdicts:\n  faq-orders#cancel:\n    - {{judge: {identity}, kind: machine, verdict: 2}}\n"
        "judged_ids:\n",
        1,
    )
    path.write_text(text, encoding="utf-8")
    git(repo, "commit", "-qam", "a squash merge")


def test_model_from_the_definition_when_no_commit_says(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    toy = definition.load(repo, "toy")
    _hand_written(repo, toy.identity)
    e = {**env(tmp_path / "cache"), "COLUMNS": "200"}
    proc = labelpool(repo, "history", "cancel-order", "faq-orders#cancel", env=e)
    assert proc.returncode == 0, proc.stderr
    assert (
        f"  judged by {toy.identity} (machine; model toy-length, from its definition file): "
        "grade 2\n"
    ) in proc.stdout
    proc = labelpool(repo, "history", "cancel-order", "--format", "json", env=e)
    facts = json.loads(proc.stdout)["machine_judges"][toy.identity]
    assert facts == {
        "model": "toy-length",
        "sha256": toy.sha256,
        "source": "definition",
        "commit": None,
    }

    # the definition changed since: another judge, so it says nothing of the recorded one
    with open(repo / "judges" / "toy.yaml", "a", encoding="utf-8") as fh:
        fh.write("# a comment is a change\n")
    proc = labelpool(repo, "history", "cancel-order", "faq-orders#cancel", env=e)
    assert proc.returncode == 0, proc.stderr
    assert (
        f"  judged by {toy.identity} (machine; model unknown: no commit trailer or definition "
        "file names it): grade 2\n"
    ) in proc.stdout
    proc = labelpool(repo, "history", "cancel-order", "--format", "json", env=e)
    assert json.loads(proc.stdout)["machine_judges"] == {}


def test_a_trailer_whose_hash_is_not_the_identitys_is_not_believed(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    (repo / "judges" / "toy.yaml").unlink()
    git(repo, "commit", "-qam", "no definition")
    identity = "toy@sha256:0123456789ab"
    path = repo / "labels" / "cancel-order.yaml"
    _hand_written(repo, identity)
    path.write_text(path.read_text(encoding="utf-8").replace("verdict: 2}", "verdict: 1}"))
    git(
        repo,
        "commit",
        "-qam",
        "forged\n\nLabelpool-Judge: toy@sha256:0123456789ab\nLabelpool-Judge-Kind: machine\n"
        "Labelpool-Model: gpt-imaginary\nLabelpool-Judge-Sha256: " + "f" * 64,
    )
    e = {**env(tmp_path / "cache"), "COLUMNS": "200"}
    proc = labelpool(repo, "history", "cancel-order", "faq-orders#cancel", env=e)
    assert proc.returncode == 0, proc.stderr
    assert "gpt-imaginary" not in proc.stdout
    assert f"judged by {identity} (machine; model unknown" in proc.stdout


def test_no_machine_no_lookup(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    proc = labelpool(
        repo, "history", "cancel-order", "--format", "json", env=env(tmp_path / "cache")
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["machine_judges"] == {}


def test_the_oracle_is_a_machine_without_a_model(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    _hand_written(repo, "qrels:corpus/truth.qrels")
    e = {**env(tmp_path / "cache"), "COLUMNS": "200"}
    proc = labelpool(repo, "history", "cancel-order", "faq-orders#cancel", env=e)
    assert proc.returncode == 0, proc.stderr
    assert "  judged by qrels:corpus/truth.qrels (machine): grade 2\n" in proc.stdout
    proc = labelpool(repo, "history", "cancel-order", "--format", "json", env=e)
    assert json.loads(proc.stdout)["machine_judges"] == {}
