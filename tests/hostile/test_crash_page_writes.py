"""What the judging page writes, validate accepts (issue 29, finding 4): a write validate would
refuse is answered 422 naming the rule, with nothing written.

0.2 wrote a document as its own duplicate (``{"duplicate-of": <the same id>}``: 200, and
``validate`` then refused the file, LP035): the page's write checked only that the edit read
back, and :func:`labelpool.rules.written.first_new_error`, the check ``pool`` runs, took such a
text as valid (its fast path ran the schema, which cannot see it). 0.2 answered a grade past
the bound or a value that is no verdict with a 400 that named no rule.

The property test sends hostile writes (verdict values, grades out of range, duplicates of
the document itself, of unknown and of hostile ids, notes with controls, bidi characters,
escapes, any unicode and great length) to a real page server and checks after each that the
server answered (never a 500) and the label file is unchanged or passes ``labelpool
validate``.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.hostile.labels_scenario import cli

from judge_scenario import Client, Server, pooled_example, start_server
from labelpool import schemas
from labelpool.model import DuplicateOf
from labelpool.workflows.judge import queue as judge_queue
from labelpool.workflows.judge.tokens import Tokens
from labelpool.workflows.judge.write import Rules, WriteRefused, write_verdict


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Server, Client]]:
    repo = pooled_example(tmp_path_factory.mktemp("page-writes"))
    server = start_server(repo)
    try:
        yield repo, server, Client(server)
    finally:
        code, _out, err = server.stop(signal.SIGTERM)
        assert code == 0, err


def _entries(c: Client) -> list[tuple[str, str]]:
    _, state = c.json("GET", "/api/state")
    return [(q["qid"], d["doc"]) for q in state["questions"] for d in q["docs"]]


def _seen(c: Client, qid: str, doc: str) -> tuple[str, dict[str, Any]]:
    """(the batch key, the entry as the page sees it now)."""
    _, state = c.json("GET", "/api/state")
    q = next(q for q in state["questions"] if q["qid"] == qid)
    return state["batch"], next(d for d in q["docs"] if d["doc"] == doc)


def _write(c: Client, qid: str, doc: str, **kw: Any) -> tuple[int, Any]:
    batch, entry = _seen(c, qid, doc)
    body = {"q": qid, "batch": batch, "doc": doc, "expect": entry["block"], **kw}
    status, raw = c.call("POST", "/api/verdict", body)
    c.bodies.clear()
    return status, json.loads(raw)


def _valid(capsys: pytest.CaptureFixture[str], repo: Path, path: Path) -> bool:
    code, out, err = cli(
        capsys, repo, "validate", "--allow-pending", "--no-cache", str(path.relative_to(repo))
    )
    assert code == 0, out + err
    return True


def test_a_document_as_its_own_duplicate_is_refused(
    served: tuple[Path, Server, Client], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _server, c = served
    entries = _entries(c)
    qid, doc = entries[0]
    others = [d for q, d in entries if q == qid and d != doc]
    path = repo / "labels" / f"{qid}.yaml"
    before = path.read_bytes()
    refused = [
        ({"verdict": {"duplicate-of": doc}}, "LP035"),
        ({"verdict": 10**7}, "LP042"),
        ({"verdict": "very relevant"}, "LP035"),
        ({"verdict": -1}, "LP035"),
        ({"verdict": None, "reason": "see \x1b[31mred"}, "LP003"),
        ({"verdict": None, "reason": "evil \u202etxt"}, "LP004"),
        ({"verdict": 3}, "above this repository's scale"),  # the example's scale ends at 2
    ]
    for kw, named in refused:
        status, answer = _write(c, qid, doc, **kw)
        assert status == 422, (kw, answer)
        assert named in answer["error"], (kw, answer)
        assert path.read_bytes() == before, kw
    # a duplicate of another document, a grade on the scale, a clean note: written, valid
    if others:
        assert _write(c, qid, doc, verdict={"duplicate-of": others[0]})[0] == 200
        assert _valid(capsys, repo, path)
    assert _write(c, qid, doc, verdict=2)[0] == 200
    assert _valid(capsys, repo, path)
    assert _write(c, qid, doc, verdict=None, reason="tabs\tand\nlines are spaces")[0] == 200
    assert "# can't judge: tabs and lines are spaces\n" in path.read_text(encoding="utf-8")
    assert _valid(capsys, repo, path)


def test_the_write_api_runs_validates_check(served: tuple[Path, Server, Client]) -> None:
    """:func:`write_verdict` itself refuses (not only the page's request checks): a document as
    its own duplicate, and a file the edit would take past the size bound (LP001)."""
    repo = served[0]
    cfg_rules = Rules(schemas.schema_path(schemas.LABEL, repo), 4 * 1024 * 1024, 32)
    tokens = Tokens()
    path = next(p for p in sorted((repo / "labels").glob("*.yaml")) if "pending:" in p.read_text())
    _d, text, batches = judge_queue.read_file(path)
    batch = batches[0].batch
    entry = judge_queue.entries_of(text, batches, batch)[0]
    token = tokens.of(path, batch, entry)
    before = path.read_bytes()
    with pytest.raises(WriteRefused, match="LP035"):
        write_verdict(
            repo,
            path,
            batch,
            entry.doc,
            token,
            DuplicateOf(entry.doc),
            tokens=tokens,
            rules=cfg_rules,
        )
    tight = Rules(cfg_rules.schema_file, len(before) + 20, 32)
    with pytest.raises(WriteRefused, match="LP001"):
        write_verdict(
            repo, path, batch, entry.doc, token, DuplicateOf("x" * 100), tokens=tokens, rules=tight
        )
    assert path.read_bytes() == before


HOSTILE_TEXT = [
    "",
    " ",
    "a b",
    "\u00a0",
    "\x00",
    "\x1b[31mred",
    "\\x1b[31m",
    "\\u202e",
    "\\0",
    "\u202e",
    "\u2066x\u2069",
    "\u2028",
    "\x85",
    "e\u0301",  # not NFC
    "\ufeff",
    "'quoted'",
    '"',
    "}, verdict: relevant",
    "# not a comment",
    "x\ny",
    "\ud800",  # a lone surrogate (JSON can carry one)
    "::error::forged",
    "[red]x",
    "<script>",
]
texts = st.one_of(
    st.sampled_from(HOSTILE_TEXT), st.text(max_size=40), st.text(min_size=2000, max_size=4000)
)
ids = st.one_of(st.sampled_from(["<self>", "<other>", "no-such-doc#1"]), texts)
anything = st.one_of(
    st.sampled_from(["relevant", "irrelevant", None, "RELEVANT", "null", "../x", ""]),
    st.booleans(),
    st.floats(allow_nan=False),
    st.builds(lambda d: {"duplicate-of": d, "also": 1}, ids),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
requests = st.one_of(
    st.tuples(st.none(), st.one_of(texts, st.just("x" * 60_000))),  # a can't-judge note
    st.tuples(st.builds(lambda d: {"duplicate-of": d}, ids), st.none()),  # a duplicate
    st.tuples(  # a grade
        st.one_of(
            st.integers(-3, 12),
            st.integers(10**6 - 2, 10**6 + 2),
            st.sampled_from([10**20, 2**63, -(2**63)]),
        ),
        st.none(),
    ),
    st.tuples(anything, st.one_of(st.none(), texts, st.integers())),  # anything else
)


@settings(
    max_examples=80,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(pick=st.integers(0, 10**6), sent=requests)
def test_whatever_the_page_is_sent_the_file_validates(
    served: tuple[Path, Server, Client],
    capsys: pytest.CaptureFixture[str],
    pick: int,
    sent: tuple[Any, Any],
) -> None:
    verdict, reason = sent
    repo, _server, c = served
    entries = _entries(c)
    qid, doc = entries[pick % len(entries)]
    others = [d for q, d in entries if q == qid and d != doc] or ["no-such-doc#2"]
    if isinstance(verdict, dict) and verdict.get("duplicate-of") in ("<self>", "<other>"):
        verdict = {
            **verdict,
            "duplicate-of": doc if verdict["duplicate-of"] == "<self>" else others[0],
        }
    path = repo / "labels" / f"{qid}.yaml"
    before = path.read_bytes()
    status, answer = _write(c, qid, doc, verdict=verdict, reason=reason)
    event(f"HTTP {status}")
    assert status in (200, 400, 413, 422), answer
    after = path.read_bytes()
    if status != 200:
        assert after == before, answer
    if after != before:
        assert _valid(capsys, repo, path)
    c.call("GET", f"/api/question?q={quote(qid, safe='')}")  # the page reads it back
    assert c.bodies[-1][1].startswith(b'{"question": {'), c.bodies[-1]
    c.bodies.clear()
