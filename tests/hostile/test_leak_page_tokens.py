"""Leak, the judging page: nothing it receives lets a judge compute a verdict it does not show
(issue 29, finding 2).

0.2 gave each entry's ``block`` as the plain SHA-256 of its line(s) as written
(``- {doc: D, verdict: V}``): hashing the few lines a verdict can make recovered the verdict
another judge wrote; a write's answer gave the verdict it replaced (``before``) outright.

The scenario: the example pooled (30 documents), some verdicts filled on disk by hand (another
judge: ``irrelevant``, a grade, a duplicate, a can't-judge note), the rest pending. Every route
of the real server on loopback is driven (the page, its assets, state, questions, texts, writes
that land, a stale one, refused ones, overwriting a hand-filled verdict and undoing it, the
commit); every answer body is kept. Every line, every span of consecutive lines and the whole
of every label file (as it was at each step) is hashed with MD5, SHA-1 and SHA-256; none of
these digests appears in any answer, in hex (either case), base64 or base64url (padded or
not).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import signal
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from judge_scenario import Client, pooled_example, start_server
from labelpool import batch
from labelpool.model import DuplicateOf

ENTRY = re.compile(r"^      - \{doc: (\S+), verdict: null\}$")
TYPO = "Relevantissimo"  # another judge's verdict, mistyped
SENT = "relevant"  # the one verdict this page sends: any other in an answer came from disk
HEX_LENGTHS = (32, 40, 64)  # MD5, SHA-1, SHA-256 in hex
B64_LENGTHS = (22, 24, 27, 28, 43, 44)  # the same in base64, unpadded and padded
RUN = re.compile(r"[A-Za-z0-9+/_=-]{22,}")  # a run of characters hex or base64 can be made of


def _digests(texts: Iterable[str]) -> set[bytes]:
    """MD5, SHA-1 and SHA-256 of every line, every span of consecutive lines (with and
    without a line end) and the whole of each text (with and without its last line end)."""
    pieces: set[str] = set()
    for text in texts:
        pieces.update((text, text.rstrip("\n"), text + "\n"))
        lines = text.split("\n")
        for i, line in enumerate(lines):
            pieces.add(line.strip())
            for j in range(i + 1, len(lines) + 1):
                span = "\n".join(lines[i:j])
                pieces.update((span, span + "\n"))
    out: set[bytes] = set()
    for piece in pieces:
        raw = piece.encode("utf-8")
        for algo in (hashlib.md5, hashlib.sha1, hashlib.sha256):
            out.add(algo(raw).digest())
    return out


def _encoded(body: str) -> Iterator[bytes]:
    """Every byte string a window of ``body`` decodes to as hex or base64(url) of a digest's
    length."""
    for run in RUN.finditer(body):
        s = run.group()
        for n in HEX_LENGTHS:
            for i in range(len(s) - n + 1):
                w = s[i : i + n]
                if all(c in "0123456789abcdefABCDEF" for c in w):
                    yield bytes.fromhex(w)
        for n in B64_LENGTHS:
            for i in range(len(s) - n + 1):
                w = s[i : i + n].replace("-", "+").replace("_", "/")
                try:
                    yield base64.b64decode(w + "=" * (-len(w) % 4), validate=True)
                except (binascii.Error, ValueError):
                    continue


def _found(bodies: Iterable[tuple[str, bytes]], digests: set[bytes]) -> list[str]:
    return [
        route
        for route, raw in bodies
        if any(d in digests for d in _encoded(raw.decode("utf-8", "replace")))
    ]


def _verdicts(obj: Any) -> Iterator[Any]:
    """Every value under a ``verdict`` key in a JSON answer."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "verdict":
                yield v
            yield from _verdicts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _verdicts(v)


def _hand_fill(repo: Path) -> dict[str, str]:
    """Another judge's verdicts, on disk, each in the first entry of a label file with two
    pending entries: ``irrelevant``, grade 2, a duplicate of the file's second entry, and a
    can't-judge note. Returns doc -> what was written."""
    filled: dict[str, str] = {}
    what = ["irrelevant", "2", "duplicate", "note"]
    for path in sorted((repo / "labels").glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").split("\n")
        at = [i for i, ln in enumerate(lines) if ENTRY.match(ln)]
        if len(at) < 2 or not what:
            continue
        docs = [ENTRY.fullmatch(lines[i]).group(1) for i in at]  # type: ignore[union-attr]
        kind = what.pop(0)
        if kind == "note":
            lines.insert(at[0], "      # can't judge: the other judge's note")
        else:
            token = batch.verdict_token(DuplicateOf(docs[1])) if kind == "duplicate" else kind
            lines[at[0]] = lines[at[0]].replace("verdict: null", f"verdict: {token}")
        filled[docs[0]] = kind
        path.write_text("\n".join(lines), encoding="utf-8")
    assert not what, "not enough label files with two pending entries"
    return filled


def _texts(repo: Path) -> set[str]:
    return {p.read_text(encoding="utf-8") for p in (repo / "labels").glob("*.yaml")}


def _q(qid: str, doc: str | None = None) -> str:
    out = f"q={quote(qid, safe='')}"
    return out + (f"&doc={quote(doc, safe='')}" if doc is not None else "")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pooled_example(tmp_path_factory.mktemp("leak-page"))


def test_no_answer_holds_a_digest_of_any_line(repo: Path) -> None:
    filled = _hand_fill(repo)
    seen = _texts(repo)
    server = start_server(repo)
    statuses: dict[str, int] = {}
    try:
        c = Client(server)

        def post(name: str, body: dict[str, Any]) -> Any:
            status, raw = c.call("POST", "/api/verdict", body)
            statuses[name] = status
            seen.update(_texts(repo))
            return json.loads(raw)

        for path in ("/judge.js", "/judge.css", "/favicon.ico", "/nowhere", "/api/nowhere"):
            c.call("GET", path)
        _, state = c.json("GET", "/api/state")
        docs = {d["doc"]: (q["qid"], d) for q in state["questions"] for d in q["docs"]}
        assert {docs[d][1]["status"] for d in filled} == {"judged", "cant"}
        for q in state["questions"]:
            _, answer = c.json("GET", f"/api/question?{_q(q['qid'])}")
            for r in answer["question"]["relevant"]:
                c.call("GET", f"/api/text?{_q(q['qid'], r['doc'])}")
        c.call("GET", f"/api/question?{_q('no-such-question')}")
        pending = [d for d, (_, e) in docs.items() if e["status"] == "pending"]

        def body(doc: str, entry: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
            qid, seen_entry = docs[doc]
            token = (entry or seen_entry)["block"]
            return {"q": qid, "batch": state["batch"], "doc": doc, "expect": token, **kw}

        post("write", body(pending[0], verdict=SENT))
        post("stale", body(pending[0], verdict=SENT))  # the token it had: 409, the question
        c.call("GET", f"/api/text?{_q(docs[pending[0]][0], pending[0])}")
        # overwrite the other judge's verdict, then undo: neither answer shows it
        theirs = next(d for d, kind in filled.items() if kind == "irrelevant")
        answer = post("overwrite", body(theirs, verdict=SENT))
        post("undo", body(theirs, answer.get("doc"), undo=answer.get("before", {}).get("undo")))
        post("self-duplicate", body(pending[1], verdict={"duplicate-of": pending[1]}))
        post("grade", body(pending[1], verdict=10**7))
        post("note", body(pending[1], verdict=None, reason="a \u202e note"))
        post("batch", {**body(pending[1], verdict=SENT), "batch": "9"})
        post("question", {**body(pending[1], verdict=SENT), "q": "no-such-question"})
        # another judge's typo makes a file unreadable: the page says where, not what
        used = {docs[d][0] for d in (pending[0], pending[1], theirs)}
        typo = next(d for d in pending if docs[d][0] not in used)  # a file the page did not write
        typo_file = repo / "labels" / f"{docs[typo][0]}.yaml"
        text = typo_file.read_text(encoding="utf-8")
        line = f"{{doc: {typo}, verdict: null}}"
        typo_file.write_text(text.replace(line, line.replace("null", TYPO)), encoding="utf-8")
        c.call("GET", f"/api/question?{_q(docs[typo][0])}")
        post("unreadable", body(typo, verdict=SENT))
        c.call("GET", "/api/state")
        statuses["commit"] = c.call("POST", "/api/commit", {})[0]
        seen.update(_texts(repo))
        c.call("GET", "/api/state")
    finally:
        code, _out, err = server.stop(signal.SIGTERM)
    assert code == 0, err

    digests = _digests(seen)
    # the detector finds a digest where one is (each encoding)
    line = next(ln for t in seen for ln in t.split("\n") if "verdict: irrelevant" in ln)
    sha = hashlib.sha256(line.encode()).digest()
    for planted in (sha.hex(), sha.hex().upper(), base64.b64encode(sha).decode()):
        assert _found([("planted", f'{{"block": "{planted}"}}'.encode())], digests)
    assert _found([("planted", base64.urlsafe_b64encode(sha).rstrip(b"="))], digests)

    assert not [r for r, raw in c.bodies if TYPO.lower().encode() in raw.lower()]
    leaking = _found(c.bodies, digests)
    assert not leaking, f"a digest of a label file's lines in: {leaking}"
    for route, raw in c.bodies:  # no verdict but the one this page sent
        if raw.startswith(b"{"):
            assert set(map(json.dumps, _verdicts(json.loads(raw)))) <= {"null", '"relevant"'}, route
    # the undo put the other judge's verdict back on disk
    assert any(f"{{doc: {theirs}, verdict: irrelevant}}" in t for t in _texts(repo))
    assert statuses == {
        "write": 200,
        "stale": 409,
        "overwrite": 200,
        "undo": 200,
        "self-duplicate": 422,
        "grade": 422,
        "note": 422,
        "batch": 400,
        "question": 404,
        "unreadable": 500,
        "commit": 200,
    }
