"""``labelpool judge`` without a browser: starting, refusing, stopping."""

from __future__ import annotations

import fcntl
import http.client
import json
import os
import re
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from judge_scenario import env_without_identity, labelpool, pooled_example, start_server
from pool_scenario import git, make_repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pooled_example(tmp_path_factory.mktemp("judge-cli"))


def test_nothing_pending_says_so_and_serves_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    proc = labelpool(repo, "judge", "--port", "0", "--no-browser")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "labelpool judge: nothing pending\n"


def test_a_port_in_use_is_exit_1(repo: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = labelpool(repo, "judge", "--port", str(port), "--no-browser", timeout=60)
    assert proc.returncode == 1
    assert f"port {port} on 127.0.0.1 is in use" in proc.stderr
    assert proc.stdout == ""


def test_commits_without_an_identity_are_exit_2(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    proc = labelpool(repo, "pool", "runs/a.trec", "runs/b.trec", "--depth", "3")
    assert proc.returncode == 0, proc.stderr
    proc = labelpool(repo, "judge", "--port", "0", "--no-browser", "--commit-every", "0")
    assert proc.returncode == 2
    assert "--commit-every must be at least 1" in proc.stderr
    git(repo, "config", "--unset", "user.name")
    git(repo, "config", "--unset", "user.email")
    env = env_without_identity(tmp_path / "home")
    args = ("judge", "--port", "0", "--no-browser")
    proc = labelpool(repo, *args, "--commit-every", "5", env=env)
    assert proc.returncode == 2, proc.stderr
    assert "user.name" in proc.stderr and "user.email" in proc.stderr
    assert proc.stdout == ""
    # without --commit-every the page starts (its commit button says what is missing)
    server = start_server(repo)
    code, _out, _ = server.stop(signal.SIGINT)
    assert code == 0


def test_unknown_batch_or_question_is_exit_2(repo: Path) -> None:
    proc = labelpool(repo, "judge", "--port", "0", "--no-browser", "--batch", "nope")
    assert proc.returncode == 2
    assert "--batch nope: no such pending batch" in proc.stderr
    proc = labelpool(repo, "judge", "--port", "0", "--no-browser", "--question", "nope")
    assert proc.returncode == 2
    assert "--question nope: no such question" in proc.stderr
    proc = labelpool(repo, "judge", "--port", "70000", "--no-browser")
    assert proc.returncode == 2


def test_a_question_with_nothing_pending(repo: Path) -> None:
    proc = labelpool(repo, "judge", "--port", "0", "--no-browser", "--question", "acme-returns")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "labelpool judge: nothing pending\n"


def test_a_non_loopback_host_warns(repo: Path) -> None:
    server = start_server(repo, "--host", "0.0.0.0")
    code, out, err = server.stop(signal.SIGINT)
    assert code == 0
    assert "warning: --host 0.0.0.0 is not a loopback address" in err
    assert out.splitlines()[-1] == "labelpool judge: stopped; 0 verdicts not committed"


def test_sigint_stops_with_exit_0(repo: Path) -> None:
    server = start_server(repo, "--question", "cookies")
    code, out, _ = server.stop(signal.SIGINT)
    assert code == 0
    assert out.splitlines() == ["labelpool judge: stopped; 0 verdicts not committed"]


def test_without_no_browser_the_page_opens_in_the_browser(repo: Path, tmp_path: Path) -> None:
    """``webbrowser`` honours ``BROWSER``: a script standing for the browser records the address
    it is given; the command serves on and stops with exit 0 (it was exit 70)."""
    opened = tmp_path / "opened"
    script = tmp_path / "record-url"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > '{opened}'\n", encoding="utf-8")
    script.chmod(0o755)
    env = {**os.environ, "BROWSER": str(script)}
    server = start_server(repo, "--question", "cookies", browser=True, env=env)
    code, out, err = server.stop(signal.SIGINT)
    assert code == 0, err
    assert opened.read_text(encoding="utf-8") == f"{server.url}\n"
    assert out.splitlines() == ["labelpool judge: stopped; 0 verdicts not committed"]


def test_not_a_git_repository(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", commit=False)
    proc = labelpool(repo, "judge", "--port", "0", "--no-browser")
    assert proc.returncode == 1
    assert "git repository" in proc.stderr


def _call(port: int, method: str, path: str, token: str, body: object = None) -> tuple[int, Any]:
    host = f"127.0.0.1:{port}"
    headers = {"Host": host, "X-Labelpool-Token": token}
    data = None
    if body is not None:
        headers.update({"Origin": f"http://{host}", "Content-Type": "application/json"})
        data = json.dumps(body).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=data, headers=headers)
    res = conn.getresponse()
    raw = res.read()
    conn.close()
    return res.status, json.loads(raw) if raw.startswith(b"{") else raw.decode()


def test_commit_every_n_writes(tmp_path: Path) -> None:
    repo = pooled_example(tmp_path)
    server = start_server(repo, "--commit-every", "2")
    try:
        _, html = _call(server.port, "GET", "/", "")
        token = re.search(r'name="labelpool-token" content="([^"]+)"', html).group(1)  # type: ignore[union-attr]
        status, state = _call(server.port, "GET", "/api/state", token)
        assert status == 200
        docs = [(q["qid"], d) for q in state["questions"] for d in q["docs"]][:3]
        head = git(repo, "rev-parse", "HEAD").strip()
        answers = []
        for (qid, d), verdict in zip(docs, ["relevant", "irrelevant", 2], strict=True):
            body = {
                "q": qid,
                "batch": state["batch"],
                "doc": d["doc"],
                "expect": d["block"],
                "verdict": verdict,
            }
            status, answer = _call(server.port, "POST", "/api/verdict", token, body)
            assert status == 200, answer
            answers.append(answer)
        assert answers[0]["committed"] is None
        assert answers[1]["committed"]["verdicts"] == 2
        assert answers[2]["uncommitted"] == 1
        log = git(repo, "log", "--format=%an|%s", f"{head}..HEAD").splitlines()
        assert len(log) == 1  # the commit names the batch; the page never receives its name
        assert re.fullmatch(
            r"Jo Judge\|labelpool judge: 2 verdicts \(batch .+-bm25\+dense@20\)", log[0]
        )
        # the same write again is no change; an old expectation is a conflict
        body = {
            "q": docs[0][0],
            "batch": state["batch"],
            "doc": docs[0][1]["doc"],
            "expect": docs[0][1]["block"],
            "verdict": "irrelevant",
        }
        status, answer = _call(server.port, "POST", "/api/verdict", token, body)
        assert status == 409 and answer["question"]["qid"] == docs[0][0]
    finally:
        code, out, _ = server.stop(signal.SIGTERM)
    assert code == 0
    assert out.splitlines()[-1] == "labelpool judge: stopped; 1 verdict not committed"
    # a restart resumes where the files say, blind: judged, but not whose or what
    server = start_server(repo)
    try:
        token = _token(server.port)
        _, again = _call(server.port, "GET", "/api/state", token)
    finally:
        server.stop(signal.SIGTERM)
    docs_again = {d["doc"]: d for q in again["questions"] for d in q["docs"]}
    for _qid, d in docs:
        assert docs_again[d["doc"]]["status"] == "judged"
        assert docs_again[d["doc"]]["verdict"] is None
        assert re.fullmatch(r"[0-9a-f]{64}", docs_again[d["doc"]]["block"])  # a fingerprint
    # nowhere in what the page receives: the entry lines held the verdicts written
    assert "verdict: " not in json.dumps(again)
    fields = {
        "doc",
        "shown",
        "block",
        "status",
        "verdict",
        "reason",
        "title",
        "text",
        "source",
        "note",
        "supersedes",
        "superseded_by",
    }
    assert all(set(d) == fields for d in docs_again.values())  # no system, rank or score
    assert not {"systems", "runs", "depth", "rank", "score"} & set(again)


def _token(port: int) -> str:
    _, html = _call(port, "GET", "/", "")
    match = re.search(r'name="labelpool-token" content="([^"]+)"', html)
    assert match is not None
    return match.group(1)


def test_two_pages_on_one_repository_lose_nothing(repo: Path) -> None:
    """Two servers on one repository write entries of the same files at the same time: every
    verdict lands (the lock), and a write against what the other page changed is a 409."""
    servers = [start_server(repo), start_server(repo)]
    try:
        tokens = [_token(s.port) for s in servers]
        status, state = _call(servers[0].port, "GET", "/api/state", tokens[0])
        assert status == 200
        # each page holds its own server's tokens (an HMAC under the run's key)
        seen = [
            {
                (q["qid"], d["doc"]): d["block"]
                for q in _call(s.port, "GET", "/api/state", t)[1]["questions"]
                for d in q["docs"]
            }
            for s, t in zip(servers, tokens, strict=True)
        ]
        assert seen[0].keys() == seen[1].keys()
        assert not set(seen[0].values()) & set(seen[1].values())  # another key, other tokens
        busiest = max(state["questions"], key=lambda q: len(q["docs"]))
        pending = [d for q in state["questions"] for d in q["docs"] if d["status"] == "pending"]
        jobs = [
            (q["qid"], d) for q in state["questions"] for d in q["docs"] if d["status"] == "pending"
        ]
        assert len(busiest["docs"]) >= 3 and len(jobs) == len(pending)
        results: list[int] = []

        def write(i: int, qid: str, d: dict[str, Any]) -> None:
            body = {
                "q": qid,
                "batch": state["batch"],
                "doc": d["doc"],
                "expect": seen[i % 2][(qid, d["doc"])],
                "verdict": "irrelevant",
            }
            s = servers[i % 2]
            results.append(_call(s.port, "POST", "/api/verdict", tokens[i % 2], body)[0])

        threads = [
            threading.Thread(target=write, args=(i, qid, d)) for i, (qid, d) in enumerate(jobs)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [200] * len(jobs)
        for qid, d in jobs:
            text = (repo / "labels" / f"{qid}.yaml").read_text(encoding="utf-8")
            assert f"{{doc: {d['doc']}, verdict: irrelevant}}" in text
        # the second page's view is stale now: its write is refused, the file keeps the first
        qid, d = jobs[0]
        before = (repo / "labels" / f"{qid}.yaml").read_bytes()
        body = {
            "q": qid,
            "batch": state["batch"],
            "doc": d["doc"],
            "expect": seen[1][(qid, d["doc"])],
            "verdict": "relevant",
        }
        assert _call(servers[1].port, "POST", "/api/verdict", tokens[1], body)[0] == 409
        assert (repo / "labels" / f"{qid}.yaml").read_bytes() == before
    finally:
        for s in servers:
            s.stop(signal.SIGINT)
        git(repo, "checkout", "--", "labels")


def test_commits_run_the_hooks(tmp_path: Path) -> None:
    repo = pooled_example(tmp_path)
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho ran >> .git/hook-ran\nexit $(cat .git/hook-exit)\n")
    hook.chmod(0o755)
    (repo / ".git" / "hook-exit").write_text("1\n")
    server = start_server(repo)
    try:
        token = _token(server.port)
        _, state = _call(server.port, "GET", "/api/state", token)
        q = state["questions"][0]
        d = q["docs"][0]
        body = {
            "q": q["qid"],
            "batch": state["batch"],
            "doc": d["doc"],
            "expect": d["block"],
            "verdict": "relevant",
        }
        assert _call(server.port, "POST", "/api/verdict", token, body)[0] == 200
        head = git(repo, "rev-parse", "HEAD")
        status, answer = _call(server.port, "POST", "/api/commit", token, {})
        assert status == 409 and "the commit failed" in answer["error"]
        assert git(repo, "rev-parse", "HEAD") == head  # the hook refused: nothing committed
        (repo / ".git" / "hook-exit").write_text("0\n")
        status, answer = _call(server.port, "POST", "/api/commit", token, {})
        assert status == 200 and answer["verdicts"] == 1 and answer["files"] == 1
        assert git(repo, "rev-parse", "HEAD") != head
        assert (repo / ".git" / "hook-ran").read_text() == "ran\nran\n"
        status, answer = _call(server.port, "POST", "/api/commit", token, {})
        assert status == 200 and answer["commit"] is None  # nothing left to commit
    finally:
        code, out, _ = server.stop(signal.SIGTERM)
    assert code == 0
    assert out.splitlines()[-1] == "labelpool judge: stopped; 0 verdicts not committed"


def test_sigterm_finishes_the_write_in_flight(tmp_path: Path) -> None:
    """A write waiting for the repository lock (up to 5 s) when SIGTERM comes still lands,
    and is counted."""
    repo = pooled_example(tmp_path)
    server = start_server(repo)
    lock = repo / ".git" / "labelpool" / "lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    answers: list[int] = []
    try:
        token = _token(server.port)
        _, state = _call(server.port, "GET", "/api/state", token)
        q = state["questions"][0]
        d = q["docs"][0]
        body = {
            "q": q["qid"],
            "batch": state["batch"],
            "doc": d["doc"],
            "expect": d["block"],
            "verdict": "relevant",
        }
        with open(lock, "a+") as held:
            fcntl.flock(held, fcntl.LOCK_EX)  # an editor's write under way, say
            writer = threading.Thread(
                target=lambda: answers.append(
                    _call(server.port, "POST", "/api/verdict", token, body)[0]
                )
            )
            writer.start()
            time.sleep(0.5)  # the request waits for the lock
            server.proc.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            assert server.proc.poll() is None  # still finishing the write
        writer.join(timeout=30)
    finally:
        code, out, _ = server.stop(signal.SIGTERM)
    assert answers == [200]
    assert code == 0
    assert out.splitlines()[-1] == "labelpool judge: stopped; 1 verdict not committed"
    text = (repo / "labels" / f"{q['qid']}.yaml").read_text(encoding="utf-8")
    assert f"{{doc: {d['doc']}, verdict: relevant}}" in text
