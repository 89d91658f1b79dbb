"""The judging page's writes while ``merge`` runs (issue 29: one writer at a time).

Before the repository lock the page took a lock of its own (``.git/labelpool/judge.lock``)
that ``merge`` never took: a verdict the page wrote into a label file while a merge was
folding that file was answered 200 and then overwritten by the merge's copy of the file,
read before it. Now each page write takes the repository lock, waiting up to 5 s for a
writer that holds it, and is refused (HTTP 503, naming the writer, nothing written) past that.
"""

from __future__ import annotations

import fcntl
import http.client
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.hostile.writers_scenario import JUDGE

from faults import REAL_GIT, copy_repo, git_wrapper, run, set_verdict
from judge_scenario import pooled_example, start_server
from pool_scenario import git

MERGE = ("merge", "--partial")


def _call(port: int, method: str, path: str, token: str, body: object = None) -> tuple[int, Any]:
    host = f"127.0.0.1:{port}"
    headers = {"Host": host, "X-Labelpool-Token": token}
    data = None
    if body is not None:
        headers.update({"Origin": f"http://{host}", "Content-Type": "application/json"})
        data = json.dumps(body).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=data, headers=headers)
    res = conn.getresponse()
    raw = res.read()
    conn.close()
    return res.status, json.loads(raw) if raw.startswith(b"{") else raw.decode()


def _token(port: int) -> str:
    _, html = _call(port, "GET", "/", "")
    match = re.search(r'name="labelpool-token" content="([^"]+)"', html)
    assert match is not None
    return match.group(1)


def _two_pending(state: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """A question with at least two pending documents, and its documents."""
    for q in state["questions"]:
        if len(q["docs"]) >= 2:
            return q["qid"], q["docs"]
    raise AssertionError("no question with two pending documents")


def _write(port: int, token: str, state: dict[str, Any], qid: str, doc: dict[str, Any]) -> Any:
    body = {
        "q": qid,
        "batch": state["batch"],
        "doc": doc["doc"],
        "expect": doc["block"],
        "verdict": "relevant",
    }
    return _call(port, "POST", "/api/verdict", token, body)


def test_a_page_write_during_a_merge_of_its_file_is_not_lost(tmp_path: Path) -> None:
    repo = pooled_example(tmp_path / "a")
    server = start_server(repo)
    try:
        token = _token(server.port)
        _, state = _call(server.port, "GET", "/api/state", token)
        qid, docs = _two_pending(state)
        label = repo / "labels" / f"{qid}.yaml"
        set_verdict(label, docs[0]["doc"], "0")  # the judge's verdict the merge folds
        git(repo, "commit", "-q", "-am", "one verdict", env=JUDGE)
        # the merge, slowed down after it has read the files: 2 s at its git fast-import
        wrapper = git_wrapper(tmp_path / "bin")
        calls = run(copy_repo(repo, tmp_path / "probe"), *MERGE, wrapper=wrapper).git_log
        at = next(i for i, c in enumerate(calls, 1) if c.startswith("fast-import"))
        counter = wrapper / "calls"
        counter.unlink(missing_ok=True)
        env = dict(os.environ)
        env.update(
            {
                "PATH": f"{wrapper}{os.pathsep}{env.get('PATH', '')}",
                "FAULT_REAL_GIT": REAL_GIT,
                "FAULT_GIT_COUNTER": str(counter),
                "FAULT_GIT_RUN_AT": str(at),
                "FAULT_GIT_RUN": "sleep 2",
            }
        )
        merge = subprocess.Popen(
            [sys.executable, "-m", "labelpool", *MERGE],
            cwd=repo,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while not (counter.is_file() and counter.read_text().strip() == str(at)):
            assert time.monotonic() < deadline and merge.poll() is None, merge.communicate()
            time.sleep(0.01)
        status, answer = _write(server.port, token, state, qid, docs[1])  # during the merge
        _, err = merge.communicate(timeout=120)
        assert merge.returncode == 0, err
        assert status == 200, answer
    finally:
        server.stop()
    text = label.read_text(encoding="utf-8")
    assert f"{{doc: {docs[1]['doc']}, verdict: relevant}}" in text  # the page's verdict landed
    assert f"{{doc: {docs[0]['doc']}, verdict:" not in text  # the judge's verdict folded
    assert git(repo, "status", "--porcelain") == f" M labels/{qid}.yaml\n"


def test_a_page_write_while_another_writer_holds_the_lock(tmp_path: Path) -> None:
    """The page waits 5 s for the lock, then answers 503 naming the holder (nothing
    written); once the lock is free the same write lands."""
    repo = pooled_example(tmp_path / "b")
    server = start_server(repo)
    lock = repo / ".git" / "labelpool" / "lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    try:
        token = _token(server.port)
        _, state = _call(server.port, "GET", "/api/state", token)
        qid, docs = _two_pending(state)
        label = repo / "labels" / f"{qid}.yaml"
        before = label.read_bytes()
        with open(lock, "r+" if lock.exists() else "w+") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            held.write(
                json.dumps(
                    {"command": "labelpool merge", "pid": 4242, "since": "2026-12-05T13:02:11Z"}
                )
                + "\n"
            )
            held.flush()
            started = time.monotonic()
            status, answer = _write(server.port, token, state, qid, docs[0])
            waited = time.monotonic() - started
        assert status == 503, answer
        assert answer["error"] == (
            "labelpool merge (pid 4242, since 2026-12-05 13:02:11 UTC) is writing this "
            "repository; nothing changed; try again when it ends"
        )
        assert 4.5 <= waited < 30
        assert label.read_bytes() == before
        status, answer = _write(server.port, token, state, qid, docs[0])
        assert status == 200, answer
    finally:
        server.stop()


def test_the_pages_commit_runs_a_hook_that_runs_labelpool_fmt(tmp_path: Path) -> None:
    """The page holds the repository lock while ``git commit`` runs its hooks; the
    ``pre-commit`` hook ``labelpool init`` installs runs ``labelpool fmt``, a writer: it is
    handed the page's lock instead of waiting for it (else it would be refused and the
    commit with it)."""
    repo = pooled_example(tmp_path / "c")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m labelpool fmt\n', encoding="utf-8")
    hook.chmod(0o755)
    server = start_server(repo)
    try:
        token = _token(server.port)
        _, state = _call(server.port, "GET", "/api/state", token)
        qid, docs = _two_pending(state)
        assert _write(server.port, token, state, qid, docs[0])[0] == 200
        status, answer = _call(server.port, "POST", "/api/commit", token, {})
    finally:
        server.stop()
    assert status == 200, answer
    assert answer["verdicts"] == 1
    assert git(repo, "status", "--porcelain") == ""
    # the token it handed down went with the lock: a writer now takes the lock as usual
    assert b"token" not in (repo / ".git" / "labelpool" / "lock").read_bytes()
