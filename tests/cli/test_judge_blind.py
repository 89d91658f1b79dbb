"""The judging page is blind to the pooled systems, and shows the batch's text of a document
the corpus lacks (House 0.2, newcomer findings).

0.2 before this change: the page showed the batch's name, which names the pooled systems
(``2026-12-04-bm25+dense@20``), and every ``/api/state`` answer carried it (the page echoed it
back on writes; a failed commit's error quoted it from git's command line); a document the
corpus lacks showed only "not in the corpus" in the relevant list's text, although the batch
carries its text comment.

The scenario pools two systems with names found nowhere else (``sysqxalpha``,
``sysqxbeta``), then drops one pooled document from the corpus. Every route the page uses is
fetched through the real server on loopback (no browser); one browser test checks what the
page shows.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from judge_scenario import (
    JUDGE_EMAIL,
    JUDGE_NAME,
    Client,
    Server,
    browser,
    current,
    labelpool,
    open_page,
    start_server,
)
from labelpool.batch import NOT_IN_CORPUS, text_of
from pool_scenario import committed_example, git

SYSTEMS = ("sysqxalpha", "sysqxbeta")
NOTE = "from the batch's comment; not in the corpus"


def _scenario(where: Path) -> tuple[Path, str, str, str, str]:
    """(repo, batch name, batch date, question, document): a batch of 30 documents pooled
    from ``SYSTEMS``; the document, an entry of the question, is no longer in the corpus."""
    repo = committed_example(where)
    shutil.copy(repo / "runs" / "bm25.trec", repo / "runs" / f"{SYSTEMS[0]}.trec")
    shutil.copy(repo / "runs" / "dense.trec", repo / "runs" / f"{SYSTEMS[1]}.trec")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two runs")
    proc = labelpool(repo, "pool", *SYSTEMS, "--depth", "20", "--max-docs", "30")
    assert proc.returncode == 0, proc.stderr
    found = None
    for path in sorted((repo / "labels").glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for n, line in enumerate(lines, 1):
            m = re.fullmatch(r"      - \{doc: (\S+), verdict: null\}", line)
            text = text_of(lines, n) if m else None
            if m and text and text != NOT_IN_CORPUS:
                found = (path.stem, m.group(1))
                break
        if found:
            break
    assert found is not None
    qid, doc = found
    label = (repo / "labels" / f"{qid}.yaml").read_text(encoding="utf-8")
    batch = re.search(r"  - batch: '([^']+)'\n(?:    .*\n)*?    date: '([^']+)'", label)
    assert batch is not None
    assert all(s in batch.group(1) for s in SYSTEMS)
    corpus = repo / "corpus" / "corpus.jsonl"
    rows = corpus.read_text(encoding="utf-8").splitlines()
    kept = [r for r in rows if json.loads(r)["_id"] != doc]
    assert len(kept) == len(rows) - 1
    corpus.write_text("\n".join(kept) + "\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "the corpus loses a document")
    git(repo, "config", "user.name", JUDGE_NAME)
    git(repo, "config", "user.email", JUDGE_EMAIL)
    return repo, batch.group(1), batch.group(2), qid, doc


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str, str, str]:
    return _scenario(tmp_path_factory.mktemp("judge-blind"))


def _comment_text(repo: Path, qid: str, doc: str) -> str:
    lines = (repo / "labels" / f"{qid}.yaml").read_text(encoding="utf-8").split("\n")
    n = next(i for i, ln in enumerate(lines, 1) if ln.startswith(f"      - {{doc: {doc},"))
    text = text_of(lines, n)
    assert text is not None
    return text


def _q(qid: str, doc: str | None = None) -> str:
    out = f"q={quote(qid, safe='')}"
    return out + (f"&doc={quote(doc, safe='')}" if doc is not None else "")


def _serve(tmp_path: Path, scenario: tuple[Path, str, str, str, str]) -> tuple[Path, Server]:
    repo = tmp_path / "repo"
    shutil.copytree(scenario[0], repo, symlinks=True)
    return repo, start_server(repo)


def _stop(server: Server) -> None:
    code, _out, err = server.stop(signal.SIGTERM)
    assert code == 0, err


def _relevant(state: dict[str, Any], qid: str, doc: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The write the page sends to judge ``doc`` relevant, as it saw the entry."""
    batch = state["batch"]
    return {"q": qid, "batch": batch, "doc": doc, "expect": entry["block"], "verdict": "relevant"}


def test_no_answer_names_the_systems_or_the_batch(
    tmp_path: Path, scenario: tuple[Path, str, str, str, str]
) -> None:
    _, batch, date, qid, doc = scenario
    repo, server = _serve(tmp_path, scenario)
    try:
        c = Client(server)
        for asset in ("/judge.js", "/judge.css"):
            assert c.call("GET", asset)[0] == 200
        status, state = c.json("GET", "/api/state")
        assert status == 200
        assert state["batch_shown"] == f"batch of {date}, 30 documents"
        assert state["batch"] == "0"  # its index among the pending batches
        assert "batches" not in state
        questions = {q["qid"]: q for q in state["questions"]}
        for q in questions:
            status, answer = c.json("GET", f"/api/question?{_q(q)}")
            assert status == 200 and answer["question"]["qid"] == q
            for r in answer["question"]["relevant"]:
                assert c.call("GET", f"/api/text?{_q(q, r['doc'])}")[0] == 200
        entry = next(d for d in questions[qid]["docs"] if d["doc"] == doc)
        write = _relevant(state, qid, doc, entry)
        assert c.call("POST", "/api/verdict", write)[0] == 200
        assert c.call("GET", f"/api/text?{_q(qid, doc)}")[0] == 200
        # refusals: a stale view (409, with the question again), another batch (400)
        assert c.call("POST", "/api/verdict", {**write, "verdict": "irrelevant"})[0] == 409
        assert c.call("POST", "/api/verdict", {**write, "batch": batch})[0] == 400
        # a commit a hook refuses: git's command line held the commit message, with the batch
        hook = repo / ".git" / "hooks" / "pre-commit"
        hook.write_text("#!/bin/sh\necho refused >&2\nexit 1\n", encoding="utf-8")
        hook.chmod(0o755)
        status, answer = c.json("POST", "/api/commit", {})
        assert status == 409, answer
        assert answer["error"] == "the commit failed: git commit: refused", answer
        hook.unlink()
        status, answer = c.json("POST", "/api/commit", {})
        assert status == 200 and answer["verdicts"] == 1
    finally:
        _stop(server)
    # the commit itself names the batch (git history is not the page)
    assert batch in git(repo, "log", "-1", "--format=%s")

    routes = {r.split("?")[0] for r, _ in c.bodies}
    assert routes >= {
        "GET /",
        "GET /judge.js",
        "GET /judge.css",
        "GET /api/state",
        "GET /api/question",
        "GET /api/text",
        "POST /api/verdict",
        "POST /api/commit",
    }
    for route, raw in c.bodies:
        body = raw.decode("utf-8").lower()
        assert batch.lower() not in body, route
        for name in SYSTEMS:
            assert name not in body, (route, name)


def test_a_document_the_corpus_lacks_shows_the_batch_comment(
    tmp_path: Path, scenario: tuple[Path, str, str, str, str]
) -> None:
    _, _batch, _date, qid, doc = scenario
    repo, server = _serve(tmp_path, scenario)
    comment = _comment_text(repo, qid, doc)
    try:
        c = Client(server)
        _, state = c.json("GET", "/api/state")
        entry = next(d for q in state["questions"] for d in q["docs"] if d["doc"] == doc)
        assert (entry["source"], entry["note"], entry["text"]) == ("batch", NOTE, comment)
        assert c.call("GET", f"/api/text?{_q(qid, doc)}")[0] == 404  # not relevant (yet)
        write = _relevant(state, qid, doc, entry)
        assert c.call("POST", "/api/verdict", write)[0] == 200
        # judged relevant by this page: its text on demand (the relevant list) is the batch's
        # comment too, not "not in the corpus"
        status, text = c.json("GET", f"/api/text?{_q(qid, doc)}")
        assert status == 200
        assert (text["source"], text["note"], text["text"]) == ("batch", NOTE, comment)
    finally:
        _stop(server)


def test_the_page_shows_a_neutral_label_and_the_batch_comment(
    tmp_path: Path, scenario: tuple[Path, str, str, str, str]
) -> None:
    _, batch, date, qid, doc = scenario
    repo, server = _serve(tmp_path, scenario)
    try:
        with browser() as b:
            page = open_page(b, server.url)
            assert page.text_content("#progress") == (
                f"0 / 30 judged; 0 questions done · batch of {date}, 30 documents"
            )
            for _ in range(30):
                if current(page) == (qid, doc):
                    break
                page.keyboard.press("j")
            assert current(page) == (qid, doc)
            assert page.locator("#text-note").is_visible()
            assert page.text_content("#text-note") == f"({NOTE})"
            assert page.text_content("#text") == _comment_text(repo, qid, doc)
            shown = page.evaluate("() => document.documentElement.outerHTML")
            assert batch not in shown and not any(s in shown for s in SYSTEMS)
            assert not page.errors
    finally:
        _stop(server)
