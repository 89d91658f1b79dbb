"""``labelpool judge --machine NAME`` through the command line, with a ``command`` judge
program: a batch filled, committed as the machine, merged into the record as a machine's;
seats; can't judge; the response cache; refusals."""

from __future__ import annotations

from pathlib import Path

from labelpool import yamlfile
from machine_scenario import asked, env, labelpool, machine_repo
from pool_scenario import git

IDENTITY_PREFIX = "toy@sha256:"


def _identity(repo: Path) -> str:
    out = git(repo, "log", "-1", "--format=%an")
    assert out.startswith(IDENTITY_PREFIX)
    return out.strip()


def test_fills_commits_as_the_machine_and_merge_records_a_machines_verdict(
    tmp_path: Path,
) -> None:
    repo = machine_repo(tmp_path / "r")
    # the user's own git identity in the environment does not sign the machine's commit
    e = env(tmp_path / "cache", GIT_AUTHOR_NAME="Ana Lopez", GIT_AUTHOR_EMAIL="ana@example.org")
    proc = labelpool(repo, "judge", "--machine", "toy", env=e)
    assert proc.returncode == 0, proc.stderr
    assert "4 verdicts written, 1 can't judge, 0 without an answer" in proc.stdout
    assert len(asked(repo)) == 5
    identity = _identity(repo)
    assert git(repo, "log", "-1", "--format=%ae %ce") == (
        "machine@labelpool.invalid machine@labelpool.invalid\n"
    )
    body = git(repo, "log", "-1", "--format=%B")
    assert f"Labelpool-Judge: {identity}\n" in body
    assert "Labelpool-Judge-Kind: machine\n" in body
    assert "Labelpool-Model: toy-length\n" in body
    assert "Labelpool-Judge-Sha256: " in body and "Labelpool-Version: " in body
    assert git(repo, "status", "--porcelain") == ""
    text = (repo / "labels" / "cancel-order.yaml").read_text(encoding="utf-8")
    assert f"# can't judge: machine judge {identity}: cannot tell" in text
    assert "{doc: 'no', verdict: null}" in text  # left for a person
    # a rerun asks nothing (the can't-judge answer is in the cache) and changes nothing
    before = git(repo, "rev-parse", "HEAD")
    proc = labelpool(repo, "judge", "--machine", "toy", env=e)
    assert proc.returncode == 0, proc.stderr
    assert "from the cache 1" in proc.stdout and len(asked(repo)) == 5
    assert git(repo, "rev-parse", "HEAD") == before
    # merge credits the machine: a machine's verdict in the record
    proc = labelpool(repo, "merge", env=e)
    assert proc.returncode == 1, proc.stderr  # the can't-judge document stays pending
    assert "still pending: 1 entry" in proc.stdout
    data = yamlfile.load_roundtrip(repo / "labels" / "cancel-order.yaml").data
    assert [dict(v) for v in data["verdicts"]["1239"]] == [
        {"judge": identity, "kind": "machine", "verdict": 1}
    ]


def test_dry_run_prints_the_first_request_and_asks_nothing(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    proc = labelpool(repo, "judge", "--machine", "toy", "--dry-run", env=env(tmp_path / "c"))
    assert proc.returncode == 0, proc.stderr
    first, line = proc.stdout.splitlines()
    assert first.startswith("# toy@sha256:")
    assert line.startswith('{"question_id": ') and '"grades": [0, 1, 2, 3]}' in line
    assert asked(repo) == [] and git(repo, "status", "--porcelain") == ""


def test_max_docs_and_a_second_run(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    e = env(tmp_path / "cache")
    proc = labelpool(repo, "judge", "--machine", "toy", "--max-docs", "2", env=e)
    assert proc.returncode == 0, proc.stderr
    assert len(asked(repo)) == 2
    proc = labelpool(repo, "judge", "--machine", "toy", "--concurrency", "3", env=e)
    assert proc.returncode == 0, proc.stderr
    assert len(asked(repo)) == 5  # each document asked once
    assert len(set(asked(repo))) == 5


def test_a_seat_of_a_batch_for_two_judges(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r", "--judges", "2")
    e = env(tmp_path / "cache")
    proc = labelpool(repo, "judge", "--machine", "toy", env=e)
    assert proc.returncode == 0, proc.stderr
    identity = _identity(repo)
    text = (repo / "labels" / "returns-damaged.yaml").read_text(encoding="utf-8")
    assert text.count(f"judge: {identity!r}") == 1  # one seat claimed
    data = yamlfile.load_roundtrip(repo / "labels" / "returns-damaged.yaml").data
    seats = {p["seat"]: p for p in data["pending"]}
    mine = [s for s in seats.values() if s.get("judge") == identity]
    other = [s for s in seats.values() if s.get("judge") is None]
    assert len(mine) == 1 and len(other) == 1
    assert all(d["verdict"] is not None for d in mine[0]["docs"])
    assert all(d["verdict"] is None for d in other[0]["docs"])  # the person's seat
    # a second run takes no second seat
    proc = labelpool(repo, "judge", "--machine", "toy", env=e)
    assert proc.returncode == 0, proc.stderr
    assert "nothing pending" in proc.stdout or "0 verdicts written" in proc.stdout


def test_someone_elses_uncommitted_verdict_is_refused(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    path = repo / "labels" / "returns-damaged.yaml"
    text = path.read_text(encoding="utf-8")
    first = text.index("verdict: null}")
    path.write_text(text[:first] + "verdict: 0}" + text[first + 14 :], encoding="utf-8")
    proc = labelpool(repo, "judge", "--machine", "toy", env=env(tmp_path / "cache"))
    assert proc.returncode == 1
    assert "uncommitted verdicts that are not this machine judge's" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert asked(repo) == []


def test_a_program_that_dies_leaves_the_batch_pending_and_exits_1(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r", program="import sys\nsys.exit(5)\n")
    e = env(tmp_path / "cache")
    before = {p.name: p.read_bytes() for p in (repo / "labels").iterdir()}
    proc = labelpool(repo, "judge", "--machine", "toy", env=e)
    assert proc.returncode == 1
    assert "got no answer: run again" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert {p.name: p.read_bytes() for p in (repo / "labels").iterdir()} == before


def test_hostile_answers_are_cant_judge_never_a_verdict(tmp_path: Path) -> None:
    hostile = (
        "import json, sys\n"
        "outs = ['2.', json.dumps({'doc_id': 'x', 'grade': 1}), '\\x1b[31mred', "
        "json.dumps({'doc_id': None, 'grade': 9}), '::error::x']\n"
        "for i, line in enumerate(sys.stdin):\n"
        "    r = json.loads(line)\n"
        "    out = outs[i % len(outs)]\n"
        "    if i == 3:\n"
        "        out = json.dumps({'doc_id': r['doc_id'], 'grade': 9})\n"
        "    print(out, flush=True)\n"
    )
    repo = machine_repo(tmp_path / "r", program=hostile)
    proc = labelpool(repo, "judge", "--machine", "toy", env=env(tmp_path / "cache"))
    assert proc.returncode == 0, proc.stderr
    assert "0 verdicts written, 5 can't judge" in proc.stdout
    for p in (repo / "labels").iterdir():
        text = p.read_text(encoding="utf-8")
        assert "\x1b" not in text
        assert "verdict: 1}" not in text and "verdict: 9}" not in text
        for line in text.splitlines():
            assert "verdict:" not in line or "verdict: null}" in line


def test_options_without_machine_and_bad_values(tmp_path: Path) -> None:
    repo = machine_repo(tmp_path / "r")
    e = env(tmp_path / "cache")
    proc = labelpool(repo, "judge", "--dry-run", "--no-browser", env=e)
    assert proc.returncode == 2 and "go with --machine" in proc.stderr
    proc = labelpool(repo, "judge", "--machine", "toy", "--concurrency", "0", env=e)
    assert proc.returncode == 2 and "--concurrency must be at least 1" in proc.stderr
    proc = labelpool(repo, "judge", "--machine", "nope", env=e)
    assert proc.returncode == 1 and "no machine judge 'nope'" in proc.stderr
