"""``labelpool judge --machine NAME --calibrate``: the machine's verdict beside a person's on
documents already judged, the lists unchanged, ``agreement`` pairing them; a rerun asks
nothing; someone's uncommitted change is refused."""

from __future__ import annotations

from pathlib import Path

from labelpool import yamlfile
from machine_scenario import asked, env, labelpool, machine_repo
from pool_scenario import git

ANA = {"GIT_AUTHOR_NAME": "Ana Lopez", "GIT_AUTHOR_EMAIL": "ana@example.org"}


def judged_by_ana(where: Path, cache: Path) -> Path:
    """The scenario's batch judged by Ana (every verdict 1 in returns-damaged) and merged."""
    repo = machine_repo(where)
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("verdict: null}", "verdict: 1}"),
        encoding="utf-8",
    )
    git(
        repo,
        "commit",
        "-qam",
        "ana judges",
        env={**ANA, "GIT_COMMITTER_NAME": "Ana Lopez", "GIT_COMMITTER_EMAIL": "ana@example.org"},
    )
    proc = labelpool(
        repo,
        "merge",
        env=env(cache, GIT_AUTHOR_NAME="Ana Lopez", GIT_AUTHOR_EMAIL="ana@example.org"),
    )
    assert "Ana Lopez <ana@example.org>: 3 verdicts" in proc.stdout, proc.stdout + proc.stderr
    return repo


def test_calibration_beside_a_person(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    repo = judged_by_ana(tmp_path / "r", cache)
    path = repo / "labels" / "returns-damaged.yaml"
    before = yamlfile.load_roundtrip(path).data
    proc = labelpool(repo, "judge", "--machine", "toy", "--calibrate", env=env(cache))
    assert proc.returncode == 0, proc.stderr
    assert "3 verdicts written" in proc.stdout
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "log", "-1", "--format=%ae %s").startswith(
        "machine@labelpool.invalid labelpool judge --machine --calibrate"
    )
    after = yamlfile.load_roundtrip(path).data
    for key in ("relevant_doc_ids", "judged_ids", "grades"):
        assert after.get(key) == before.get(key), key  # a machine never outranks a person
    rec = {d: [dict(v) for v in vs] for d, vs in after["verdicts"].items()}
    assert rec["faq-shipping#damaged"][0] == {"judge": "Ana Lopez <ana@example.org>", "verdict": 1}
    machine = rec["faq-shipping#damaged"][1]
    assert machine["kind"] == "machine" and machine["judge"].startswith("toy@sha256:")
    assert len(asked(repo)) == 3
    # a rerun asks nothing and writes nothing
    head = git(repo, "rev-parse", "HEAD")
    proc = labelpool(repo, "judge", "--machine", "toy", "--calibrate", env=env(cache))
    assert proc.returncode == 0, proc.stderr
    assert len(asked(repo)) == 3 and git(repo, "rev-parse", "HEAD") == head
    # agreement pairs the person and the machine
    proc = labelpool(repo, "agreement", env=env(cache))
    assert proc.returncode == 0, proc.stderr
    assert "Ana Lopez <ana@example.org> and toy@sha256:" in proc.stdout


def test_someone_elses_uncommitted_change_is_refused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    repo = judged_by_ana(tmp_path / "r", cache)
    path = repo / "labels" / "returns-damaged.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "owner: me\n", encoding="utf-8")
    proc = labelpool(repo, "judge", "--machine", "toy", "--calibrate", env=env(cache))
    assert proc.returncode == 1
    assert "not this machine judge's" in proc.stderr and "Traceback" not in proc.stderr
    assert asked(repo) == []
