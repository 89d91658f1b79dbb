"""``labelpool judge`` in a real browser: keys write verdict lines, the diff is what hand
editing gives, commits carry the judge, nothing is lost when a file changes under the page,
hostile requests change nothing, and the page fits two screens without scrolling.

One server and one browser for the module (the tests run in file order and share them).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge_scenario import (
    JUDGE_EMAIL,
    JUDGE_NAME,
    Server,
    browser,
    current,
    label_text,
    open_page,
    pooled_example,
    press,
    start_server,
    tree_digest,
)
from pool_scenario import git


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pooled_example(tmp_path_factory.mktemp("judge-page"))


GUIDELINES = "Relevant: it answers the question.\nNever <script>alert(1)</script> \u202e here.\n"
QUESTION = "As an agent, <b>what</b> is my approval limit for refunds?"


@pytest.fixture(scope="module")
def server(repo: Path) -> Iterator[Server]:
    # guidelines and a question holding HTML, committed before the page starts
    (repo / "labels" / "GUIDELINES.md").write_text(GUIDELINES, encoding="utf-8")
    label = repo / "labels" / "agent-refund-limit.yaml"
    text = label.read_text(encoding="utf-8")
    old = "question: As an agent, what is my approval limit for refunds?"
    assert old in text
    label.write_text(text.replace(old, f"question: {QUESTION}"), encoding="utf-8")
    git(repo, "add", "-A")
    git(
        repo,
        "-c",
        "user.name=Runner",
        "-c",
        "user.email=runner@example.invalid",
        "commit",
        "-q",
        "-m",
        "guidelines",
    )
    s = start_server(repo)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    with browser() as b:
        yield b


@pytest.fixture(scope="module")
def page(chrome: Any, server: Server) -> Any:
    return open_page(chrome, server.url)


def changed_lines(repo: Path) -> list[tuple[str, str]]:
    """(removed, added) line pairs of ``git diff`` of the work tree, in order."""
    out = git(repo, "diff", "-U0", "--no-color")
    removed = [ln[1:] for ln in out.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    added = [ln[1:] for ln in out.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    return list(zip(removed, added, strict=False))


def entry_line(repo: Path, qid: str, doc: str) -> str:
    found = [ln for ln in label_text(repo, qid).splitlines() if f"{{doc: {doc}," in ln]
    assert len(found) == 1, found
    return found[0]


def token_of(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('meta[name=labelpool-token]').content"))


def test_file_text_is_shown_as_text(page: Any) -> None:
    assert current(page)[0] == "agent-refund-limit"
    assert page.text_content("#question") == QUESTION  # the tags as text
    assert page.locator("#question b").count() == 0
    page.click("#guidelines-button")
    shown = page.text_content("#guidelines")
    assert "<script>alert(1)</script>" in shown and "\\u202e" in shown  # bidi shown escaped
    assert "\u202e" not in shown
    assert page.locator("#guidelines-panel script").count() == 0
    page.click("#guidelines-close")
    assert not page.errors


def test_keys_write_only_the_verdict_token(repo: Path, page: Any) -> None:
    progress = page.text_content("#progress")
    # the batch by its date and size: its name names the pooled systems (blind judging)
    assert re.fullmatch(
        r"0 / 30 judged; 0 questions done · batch of [0-9-]{10}, 30 documents", progress
    )
    before = tree_digest(repo)
    qid, doc = current(page)
    assert entry_line(repo, qid, doc).endswith(f"{{doc: {doc}, verdict: null}}")
    press(page, "1")
    assert entry_line(repo, qid, doc) == f"      - {{doc: {doc}, verdict: relevant}}"
    # the only change in the whole tree is that token
    after = tree_digest(repo)
    assert [n for n in after if after[n] != before[n]] == [f"{qid}.yaml"]
    old_lines, new_lines = before[f"{qid}.yaml"].split(b"\n"), after[f"{qid}.yaml"].split(b"\n")
    diff = [(a, b) for a, b in zip(old_lines, new_lines, strict=True) if a != b]
    assert diff == [
        (f"      - {{doc: {doc}, verdict: null}}".encode(), new_lines[old_lines.index(diff[0][0])])
    ]
    assert current(page) != (qid, doc)  # moved on to the next pending document
    assert page.text_content("#progress").startswith("1 / 30 judged;")

    q2, d2 = current(page)
    press(page, "i")
    assert entry_line(repo, q2, d2).endswith(f"{{doc: {d2}, verdict: irrelevant}}")
    q3, d3 = current(page)
    press(page, "2")  # the example's grade scale goes to 2
    assert entry_line(repo, q3, d3).endswith(f"{{doc: {d3}, verdict: 2}}")
    q4, d4 = current(page)
    press(page, "5")  # above the scale: refused, nothing written
    assert current(page) == (q4, d4)
    assert "above this repository's scale" in page.text_content("#message")
    assert entry_line(repo, q4, d4).endswith("verdict: null}")
    assert not page.errors


def test_skip_undo_and_cant_judge(repo: Path, page: Any) -> None:
    q1, d1 = current(page)
    snapshot = tree_digest(repo)
    press(page, "s")  # skip: nothing written
    assert tree_digest(repo) == snapshot
    assert current(page) != (q1, d1)
    q2, d2 = current(page)
    text_before = label_text(repo, q2)
    press(page, "0")
    assert entry_line(repo, q2, d2).endswith("verdict: irrelevant}")
    press(page, "u")  # undo restores the file byte for byte
    assert label_text(repo, q2) == text_before
    assert current(page) == (q2, d2)

    page.keyboard.press("c")
    page.wait_for_selector("#cant-reason", state="visible")
    page.keyboard.type("needs the 2025 price list; j k s are typed, not keys")
    press(page, "Enter")
    lines = label_text(repo, q2).splitlines()
    at = next(i for i, ln in enumerate(lines) if f"{{doc: {d2}," in ln)
    assert lines[at] == f"      - {{doc: {d2}, verdict: null}}"  # stays pending
    assert lines[at - 1] == (
        "      # can't judge: needs the 2025 price list; j k s are typed, not keys"
    )
    assert current(page) != (q2, d2)
    # typing in the reason field pressed no key: only that one file changed
    changed = [n for n, b in tree_digest(repo).items() if b != snapshot[n]]
    assert changed == [f"{q2}.yaml"]
    press(page, "u")  # undo removes the note again
    assert label_text(repo, q2) == text_before
    assert validate(repo)


def validate(repo: Path) -> bool:
    from judge_scenario import labelpool

    proc = labelpool(repo, "validate", "--allow-pending")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return True


def test_duplicate_of_picks_a_relevant_document(repo: Path, page: Any) -> None:
    # find a pending document of a question that has a relevant document
    for _ in range(40):
        n = page.evaluate(
            "() => document.getElementById('relevant-summary').textContent.match(/\\((\\d+)\\)/)[1]"
        )
        if int(n) > 0 and "pending" in page.text_content("#doc-status"):
            break
        page.keyboard.press("j")
    else:
        pytest.fail("no pending document of a question with a relevant document")
    qid, doc = current(page)
    page.click("#relevant-summary")  # the relevant documents' text, on demand
    page.click("#relevant li:first-child button")
    page.wait_for_selector("#relevant li:first-child pre")
    assert len(page.text_content("#relevant li:first-child pre")) > 20
    page.click("#relevant-summary")
    page.keyboard.press("d")
    page.wait_for_selector("#picker", state="visible")
    target = page.text_content("#picker-list li:first-child button").split(" (")[0]
    press(page, "1")
    assert entry_line(repo, qid, doc).endswith(
        f"{{doc: {doc}, verdict: {{duplicate-of: {target}}}}}"
    )
    validate(repo)


def test_a_file_changed_under_the_page_loses_nothing(repo: Path, page: Any) -> None:
    qid, doc = current(page)
    path = repo / "labels" / f"{qid}.yaml"
    line = entry_line(repo, qid, doc)
    # an editor (or a second page, or git pull) sets this very verdict, and adds a comment
    edited = path.read_text(encoding="utf-8").replace(
        line, line.replace("verdict: null", "verdict: irrelevant")
    )
    edited = "# reviewed by the editor\n" + edited
    path.write_text(edited, encoding="utf-8")
    press(page, "1")  # the page saw `null`: 409, the editor's verdict stays
    assert path.read_text(encoding="utf-8") == edited
    assert "changed" in page.text_content("#message")
    assert current(page) == (qid, doc)
    press(page, "1")  # reloaded: now the page replaces what it has seen
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# reviewed by the editor\n")
    assert entry_line(repo, qid, doc).endswith("verdict: relevant}")
    theirs = line.replace("verdict: null", "verdict: irrelevant")
    assert text == edited.replace(theirs, line.replace("verdict: null", "verdict: relevant"))


def test_commit_takes_only_the_page_files_as_the_judge(repo: Path, page: Any) -> None:
    # another staged change stays staged and out of the commit
    (repo / "NOTES.md").write_text("unrelated work\n", encoding="utf-8")
    git(repo, "add", "NOTES.md")
    page_files = {
        ln[3:]
        for ln in git(repo, "status", "--porcelain").splitlines()
        if ln[3:].startswith("labels/")
    }
    head = git(repo, "rev-parse", "HEAD").strip()
    page.click("#commit-button")
    page.wait_for_function("() => document.body.dataset.busy !== '1'")
    assert "committed" in page.text_content("#message")
    log = git(repo, "log", "--format=%an <%ae>|%s", f"{head}..HEAD").splitlines()
    assert len(log) == 1
    author, subject = log[0].split("|")
    assert author == f"{JUDGE_NAME} <{JUDGE_EMAIL}>"
    assert re.fullmatch(r"labelpool judge: [0-9]+ verdicts \(batch .*@20\)", subject)
    files = set(git(repo, "show", "--name-only", "--format=", "HEAD").split())
    assert files == page_files
    assert git(repo, "diff", "--cached", "--name-only").split() == ["NOTES.md"]
    assert "not committed" not in page.text_content("#progress")


def _request(
    server: Server, method: str, path: str, headers: dict[str, str], body: Any = None
) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    data = None if body is None else json.dumps(body).encode()
    conn.request(method, path, body=data, headers=headers)
    status = conn.getresponse().status
    conn.close()
    return status


def test_hostile_requests_change_nothing(repo: Path, server: Server, page: Any) -> None:
    token = token_of(page)
    host = f"127.0.0.1:{server.port}"
    qid, doc = current(page)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/state", headers={"Host": host, "X-Labelpool-Token": token})
    state = json.loads(conn.getresponse().read())
    conn.close()
    entry = next(
        d for q in state["questions"] if q["qid"] == qid for d in q["docs"] if d["doc"] == doc
    )
    old_fingerprint = hashlib.sha256(entry_line(repo, qid, doc).encode()).hexdigest()
    good = {
        "q": qid,
        "batch": state["batch"],
        "doc": doc,
        "expect": entry["block"],  # the entry's opaque token
        "verdict": "relevant",
    }
    ok = {
        "Host": host,
        "Origin": f"http://{host}",
        "X-Labelpool-Token": token,
        "Content-Type": "application/json",
    }
    before = tree_digest(repo)
    cases = [
        ({**ok, "Origin": "http://evil.example"}, good, 403),  # cross-origin
        ({k: v for k, v in ok.items() if k != "Origin"}, good, 403),  # no origin
        ({k: v for k, v in ok.items() if k != "X-Labelpool-Token"}, good, 403),  # no token
        ({**ok, "X-Labelpool-Token": "0" * 43}, good, 403),  # wrong token
        (
            {
                **ok,
                "Host": f"evil.example:{server.port}",
                "Origin": f"http://evil.example:{server.port}",
            },
            good,
            403,
        ),
        ({**ok, "Content-Type": "text/plain"}, good, 415),  # a form post cannot be JSON
        (ok, {**good, "q": "../../pyproject"}, 404),  # a path where a question goes
        (ok, {**good, "q": "/etc/passwd"}, 404),
        (ok, {**good, "doc": "../x"}, 409),  # not a pending document of the question
        (ok, {**good, "verdict": "../../x"}, 422),  # not a verdict: validate's LP035
        (ok, {**good, "verdict": True}, 422),
        (ok, {**good, "expect": old_fingerprint}, 409),  # 0.2's SHA-256 of the line: stale
    ]
    for headers, body, status in cases:
        assert _request(server, "POST", "/api/verdict", headers, body) == status, (headers, body)
    assert _request(server, "GET", "/", {"Host": f"evil.example:{server.port}"}) == 403
    assert _request(server, "GET", "/", {"Host": "127.0.0.1"}) == 403
    assert _request(server, "GET", "/api/state", {"Host": host}) == 403  # no token
    for path in (
        "/../../etc/passwd",
        "/labels/cookies.yaml",
        "/%2e%2e/pyproject.toml",
        "/judge.js/../../pyproject.toml",
        "/api/../pyproject.toml",
    ):
        assert _request(server, "GET", path, {"Host": host, "X-Labelpool-Token": token}) == 404, (
            path
        )
    assert (
        _request(
            server,
            "GET",
            "/api/question?q=../../pyproject",
            {"Host": host, "X-Labelpool-Token": token},
        )
        == 404
    )
    assert (
        _request(
            server,
            "GET",
            "/api/text?q=x&doc=/etc/passwd",
            {"Host": host, "X-Labelpool-Token": token},
        )
        == 404
    )
    assert _request(server, "PUT", "/api/verdict", ok, good) == 405
    assert tree_digest(repo) == before
    # the real page's own write works with the same body
    assert _request(server, "POST", "/api/verdict", ok, good) == 200
    assert entry_line(repo, qid, doc).endswith("verdict: relevant}")
    page.reload()  # the page's own view of that document is stale now
    page.wait_for_selector("body[data-ready='1']")


def test_security_headers_and_token_in_the_html(server: Server, page: Any) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/", headers={"Host": f"localhost:{server.port}"})
    res = conn.getresponse()
    html = res.read().decode()
    assert res.status == 200
    assert res.getheader("Content-Security-Policy") == "default-src 'self'"
    assert token_of(page) in html and len(token_of(page)) >= 40
    assert '<script src="/judge.js"' in html and "http" not in html.split("<body>")[1]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_question_text_and_progress_fit_without_scrolling(
    chrome: Any, server: Server, size: tuple[int, int]
) -> None:
    width, height = size
    page = open_page(chrome, server.url, width, height)
    try:
        assert page.evaluate("() => document.documentElement.scrollHeight") <= height
        for sel in ("#question", "#text-box", "#progress", "#actions"):
            box = page.locator(sel).bounding_box()
            assert box is not None, sel
            assert box["x"] >= 0 and box["y"] >= 0, (sel, box)
            assert box["x"] + box["width"] <= width + 0.5, (sel, box)
            assert box["y"] + box["height"] <= height + 0.5, (sel, box)
            assert box["height"] > 0, sel
        assert page.locator("#text-box").bounding_box()["height"] >= 80
        assert page.locator("#text").text_content()
    finally:
        page.close()


def test_help_shows_the_keys(page: Any) -> None:
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    assert "duplicate of" in page.text_content("#help")
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()


def test_sigterm_says_what_is_not_committed(repo: Path, server: Server, page: Any) -> None:
    press(page, "0")  # one more verdict, not committed
    code, out, err = server.stop(signal.SIGTERM)
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "labelpool judge: stopped; 2 verdicts not committed"
