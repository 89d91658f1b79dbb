"""Leak, the judging page with several judges (issue 24): judge B's page never learns judge
A's verdicts, and a seat is claimed with its first verdict.

A batch pooled for two judges (``pool --judges 2``); A judges every document of their seat in
the real server (every verdict ``irrelevant``, a verdict this test never sends as B), then B
opens the page on the same working tree. Every answer B's server gives holds no
``irrelevant``, neither A's name nor email, no status but ``pending``; B's first write claims
the other seat. A sees "N documents wait for another judge" once their seat is done. A
verdict on a document the judge judged already is refused (409) without naming a verdict.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from judge_scenario import Client, start_server
from labelpool import yamlfile
from labelpool.model import label_from_data
from pool_scenario import git, make_repo

A_NAME, A_EMAIL = "Ana Lopez", "ana@example.org"
B_NAME, B_EMAIL = "Bo Chen", "bo@example.org"


def _as(repo: Path, name: str, email: str) -> None:
    git(repo, "config", "user.name", name)
    git(repo, "config", "user.email", email)


def _seats(repo: Path, qid: str) -> list[tuple[int | None, str | None, list[Any]]]:
    label = label_from_data(yamlfile.load_fast(repo / "labels" / f"{qid}.yaml"))
    return [(b.seat, b.judge, [d.verdict for d in b.docs]) for b in label.pending]


def _judge_all(client: Client, verdict: str) -> int:
    status, state = client.json("GET", "/api/state")
    assert status == 200
    n = 0
    for q in state["questions"]:
        for d in q["docs"]:
            body = {"batch": state["batch"], "q": q["qid"], "doc": d["doc"], "expect": d["block"]}
            status, answer = client.json("POST", "/api/verdict", {**body, "verdict": verdict})
            assert status == 200, answer
            n += 1
    return n


@pytest.fixture
def pooled(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    proc = git(repo, "status", "--porcelain")
    assert not proc
    from labelpool.cli import main

    assert main(["pool", "a", "b", "--depth", "3", "--judges", "2", "--repo", str(repo)]) == 0
    return repo


def test_judge_b_never_sees_judge_a_verdicts(pooled: Path) -> None:
    _as(pooled, A_NAME, A_EMAIL)
    server = start_server(pooled)
    try:
        a = Client(server)
        assert _judge_all(a, "irrelevant") == 5  # 3 + 2 documents in seat 1
        # the seat is claimed in A's name with the first verdict, the other left free
        seats = _seats(pooled, "returns-damaged")
        assert seats[0][:2] == (1, f"{A_NAME} <{A_EMAIL}>")
        assert seats[0][2] == ["irrelevant"] * 3
        assert seats[1][:2] == (2, None) and seats[1][2] == [None] * 3
        status, state = a.json("GET", "/api/state")
        assert state["waiting"] == 5
        assert state["waiting_shown"] == "5 documents wait for another judge"
    finally:
        server.stop()

    _as(pooled, B_NAME, B_EMAIL)
    server = start_server(pooled)
    try:
        b = Client(server)
        status, state = b.json("GET", "/api/state")
        assert status == 200 and state["waiting"] == 0
        docs = [d for q in state["questions"] for d in q["docs"]]
        assert len(docs) == 5 and {d["status"] for d in docs} == {"pending"}
        for q in state["questions"]:
            b.call("GET", f"/api/question?q={q['qid']}")
        assert _judge_all(b, "relevant") == 5
        seats = _seats(pooled, "returns-damaged")
        assert seats[0][2] == ["irrelevant"] * 3  # A's verdicts untouched
        assert seats[1][:2] == (2, f"{B_NAME} <{B_EMAIL}>")
        assert seats[1][2] == ["relevant"] * 3
    finally:
        server.stop()
    for route, body in b.bodies:
        if not route.split()[1].startswith("/api/"):
            continue  # the page itself: its buttons say "irrelevant"
        text = body.decode("utf-8", "replace").lower()
        for secret in ("irrelevant", A_NAME.lower(), A_EMAIL):
            assert secret not in text, (route, secret)


LABEL = """\
id: q1
question: Which?
judge: Ana Lopez <ana@example.org>
relevant_doc_ids:
  - d1
judged_ids:
  - d1
pool:
  - system: a
    k: 1
    date: '2026-06-02'
pending:
  - batch: '2026-06-03-second-opinion'
    systems:
      - a
    depth: 1
    date: '2026-06-03'
    task: second-opinion
    judge: Ana Lopez <ana@example.org>
    docs:
      - {doc: d2, verdict: null}
      - {doc: d1, verdict: null}
"""


def test_a_second_verdict_by_the_same_judge_is_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", labels={"q1": LABEL})
    _as(repo, A_NAME, A_EMAIL)
    before = (repo / "labels" / "q1.yaml").read_bytes()
    server = start_server(repo)
    try:
        a = Client(server)
        status, state = a.json("GET", "/api/state")
        docs = {d["doc"]: d for q in state["questions"] for d in q["docs"]}
        # a second opinion does not show the first verdict among the relevant ones
        assert [r["doc"] for q in state["questions"] for r in q["relevant"]] == []
        body = {"batch": state["batch"], "q": "q1", "doc": "d1", "expect": docs["d1"]["block"]}
        status, answer = a.json("POST", "/api/verdict", {**body, "verdict": "relevant"})
        assert status == 409, answer
        assert "you judged d1 already" in answer["error"]
        assert (repo / "labels" / "q1.yaml").read_bytes() == before
    finally:
        server.stop()


DISPUTED = """\
id: q1
question: Which?
judge: Ana Lopez <ana@example.org>
relevant_doc_ids:
  - d1
judged_ids:
  - d1
  - d2
verdicts:
  d2:
    - {judge: Ana Lopez <ana@example.org>, verdict: irrelevant}
    - {judge: Bo Chen <bo@example.org>, verdict: 1}
pool:
  - system: a
    k: 1
    date: '2026-06-02'
pending:
  - batch: '2026-06-03-adjudicate'
    systems: []
    depth: 1
    date: '2026-06-03'
    task: adjudicate
    docs:
      - {doc: d2, verdict: null}
"""


def test_the_adjudicator_sees_every_verdict_with_its_judge(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", labels={"q1": DISPUTED})
    _as(repo, "Cy Park", "cy@example.org")
    server = start_server(repo)
    try:
        c = Client(server)
        status, state = c.json("GET", "/api/state")
        (doc,) = [d for q in state["questions"] for d in q["docs"]]
        assert doc["verdicts"] == [
            {"judge": f"{A_NAME} <{A_EMAIL}>", "kind": "person", "verdict": "irrelevant"},
            {"judge": f"{B_NAME} <{B_EMAIL}>", "kind": "person", "verdict": 1},
        ]
        body = {"batch": state["batch"], "q": "q1", "doc": "d2", "expect": doc["block"]}
        status, answer = c.json("POST", "/api/verdict", {**body, "verdict": 1})
        assert status == 200, answer
    finally:
        server.stop()
    text = (repo / "labels" / "q1.yaml").read_text("utf-8")
    assert "    judge: Cy Park <cy@example.org>\n" in text  # claimed with the verdict
    from labelpool.cli import main

    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adjudicated")
    assert main(["merge", "--repo", str(repo)]) == 0
    label = label_from_data(yamlfile.load_fast(repo / "labels" / "q1.yaml"))
    assert label.verdicts["d2"][-1].adjudicator and "d2" in label.relevant_doc_ids
