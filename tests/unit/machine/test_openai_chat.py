"""The openai backend against a real chat-completions server on loopback (tests/chat_server.py):
scripted replies, 429 storms, 500s, timeouts, unreadable answers, many threads, a planted key."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from chat_server import ChatServer
from labelpool.errors import UsageError
from labelpool.machine import backends
from labelpool.machine.definition import MachineJudge, load
from labelpool.machine.openai_chat import OpenAIChat
from labelpool.machine.protocol import Item, Reply

KEY = "sk-planted-0123456789abcdefghijklmnopqrstuvwxyz"
TEMPLATE = "Question: {question}\nPassage: {passage}\nAnswer with one number.\n"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as s:
        yield s


def _judge(tmp_path: Path, url: str, extra: str = "", key_env: str | None = None) -> MachineJudge:
    judges = tmp_path / "judges"
    judges.mkdir(exist_ok=True)
    (judges / "j.prompt.txt").write_text(TEMPLATE, encoding="utf-8")
    text = (
        "kind: openai\nmodel: test-model\nprompt: j.prompt.txt\n"
        f"base_url: {url}\ntimeout: 2\nretries: 6\ntemperature: 0.5\ntop_p: 0.9\n"
        "max_tokens: 8\nseed: 40\n"
    )
    if key_env is not None:
        text += f"api_key_env: {key_env}\n"
    (judges / "j.yaml").write_text(text + extra, encoding="utf-8")
    return load(tmp_path, "j")


def _item(script: str, doc: str = "d1") -> Item:
    return Item("q1", "is it?", doc, f"passage <<{script}>>", (0, 1, 2, 3))


def _ask(judge: MachineJudge, script: str, doc: str = "d1") -> Reply:
    backend = backends.backend(judge)
    try:
        return backend.ask(_item(script, doc))
    finally:
        backend.close()


def test_a_plain_answer_and_what_is_sent(tmp_path: Path, server: ChatServer) -> None:
    judge = _judge(tmp_path, server.url)
    reply = _ask(judge, "reply=2")
    assert (reply.doc_id, reply.grade, reply.error, reply.raw, reply.cost) == (
        "d1",
        2,
        None,
        "2",
        11,
    )
    body, headers = server.requests[0]
    assert body["model"] == "test-model"
    assert (body["temperature"], body["top_p"], body["max_tokens"], body["seed"]) == (
        0.5,
        0.9,
        8,
        40,
    )
    assert body.get("n", 1) == 1
    assert body["messages"] == [
        {
            "role": "user",
            "content": TEMPLATE.format(question="is it?", passage="passage <<reply=2>>"),
        }
    ]
    assert headers["authorization"] == "Bearer not-needed"


@pytest.mark.parametrize(
    ("said", "grade", "why"),
    [
        ("2.", 2, None),
        ("Grade: 3", 3, None),
        ("Relevant", None, "no number"),
        ("", None, "an empty reply"),
        ("7", None, "7 is not a grade"),
        ("2.5", None, "no number"),
        ("-1", None, "-1 is not a grade"),
    ],
)
def test_replies_read_onto_the_scale_never_guessed(
    tmp_path: Path, server: ChatServer, said: str, grade: int | None, why: str | None
) -> None:
    reply = _ask(_judge(tmp_path, server.url), f"reply={said}")
    assert reply.grade == grade
    assert reply.raw == said
    if why is None:
        assert reply.error is None
    else:
        assert reply.error is not None and reply.error.startswith("can't judge")
        assert why in reply.error


def test_answer_words(tmp_path: Path, server: ChatServer) -> None:
    judge = _judge(tmp_path, server.url, "grades: [0, 1]\nanswer: {relevant: 1, irrelevant: 0}\n")
    assert _ask(judge, "reply=Relevant.").grade == 1
    assert _ask(judge, "reply= IRRELEVANT").grade == 0
    reply = _ask(judge, "reply=not relevant")
    assert reply.grade is None and reply.error and "none of the answer's words" in reply.error


def test_a_429_storm_then_an_answer(tmp_path: Path, server: ChatServer) -> None:
    reply = _ask(
        _judge(tmp_path, server.url), "status=429;status=429;status=429;status=429;reply=1"
    )
    assert (reply.grade, reply.error) == (1, None)
    assert len(server.requests) == 5


def test_backoff_without_retry_after(tmp_path: Path, server: ChatServer) -> None:
    start = time.monotonic()
    reply = _ask(_judge(tmp_path, server.url), "slow-retry;status=503;status=500;reply=3")
    took = time.monotonic() - start
    assert reply.grade == 3
    assert took >= 0.5 * 0.75 + 1.0 * 0.75  # 0.5 s then 1 s, less up to a quarter


def test_500s_past_every_retry_are_no_answer(tmp_path: Path, server: ChatServer) -> None:
    judge = _judge(tmp_path, server.url)
    reply = _ask(judge, "status=500")
    assert reply.grade is None
    assert reply.error is not None and reply.error.startswith(
        "no answer: the endpoint answered HTTP 500"
    )
    assert len(server.requests) == 1 + 6


def test_a_400_is_not_retried(tmp_path: Path, server: ChatServer) -> None:
    reply = _ask(_judge(tmp_path, server.url), "status=400")
    assert reply.grade is None and reply.error and "HTTP 400" in reply.error
    assert len(server.requests) == 1


def test_a_slow_reply_times_out_and_is_retried(tmp_path: Path, server: ChatServer) -> None:
    judge = _judge(tmp_path, server.url)
    judge = MachineJudge(**{**judge.__dict__, "timeout": 0.3, "retries": 1})
    assert _ask(judge, "sleep=1,reply=1;reply=2").grade == 2  # the retry is fast
    reply = _ask(judge, "sleep=1,reply=1", doc="d2")  # every attempt is slow
    assert (
        reply.grade is None and reply.error == "no answer: the request timed out after every retry"
    )


def test_no_server_is_no_answer(tmp_path: Path) -> None:
    judge = _judge(tmp_path, "http://127.0.0.1:9/v1")
    judge = MachineJudge(**{**judge.__dict__, "retries": 0})
    reply = _ask(judge, "reply=1")
    assert (
        reply.grade is None
        and reply.error
        and reply.error.startswith("no answer: could not connect")
    )


@pytest.mark.parametrize(
    ("how", "said", "grade"),
    [
        ("majority", ["1", "2", "2"], 2),
        ("majority", ["1", "2", "3"], 1),  # a tie: the lower
        ("mean", ["1", "2", "2"], 2),
        ("mean", ["1", "2"], 1),  # 1.5: half down
        ("majority", ["x", "3", "y"], 3),  # unreadable samples count for nothing
    ],
)
def test_samples_combine(
    tmp_path: Path, server: ChatServer, how: str, said: list[str], grade: int
) -> None:
    judge = _judge(tmp_path, server.url, f"samples: {len(said)}\ncombine: {how}\n")
    reply = _ask(judge, ";".join(f"reply={s}" for s in said))
    assert (reply.grade, reply.error) == (grade, None)
    assert json.loads(reply.raw) == said
    assert reply.cost == 11 * len(said)
    assert [b["seed"] for b, _ in server.requests] == [40 + i for i in range(len(said))]


def test_no_readable_sample_is_cant_judge(tmp_path: Path, server: ChatServer) -> None:
    reply = _ask(_judge(tmp_path, server.url, "samples: 2\n"), "reply=maybe")
    assert reply.grade is None and reply.error and reply.error.startswith("can't judge")
    assert json.loads(reply.raw) == ["maybe", "maybe"]


def test_many_threads_at_once(tmp_path: Path, server: ChatServer) -> None:
    judge = _judge(tmp_path, server.url)
    backend = OpenAIChat(judge)
    scripts = {f"d{i}": f"status=429;sleep=0.05,reply={i % 4}" for i in range(48)}
    try:
        with ThreadPoolExecutor(max_workers=12) as pool:
            replies = list(pool.map(lambda d: backend.ask(_item(scripts[d], d)), scripts))
    finally:
        backend.close()
    assert [(r.doc_id, r.grade) for r in replies] == [(f"d{i}", i % 4) for i in range(48)]


def test_a_planted_key_reaches_the_server_and_nothing_else(
    tmp_path: Path,
    server: ChatServer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("LP_TEST_KEY", KEY)
    monkeypatch.setenv("OPENAI_LOG", "debug")
    caplog.set_level(logging.DEBUG)
    judge = _judge(tmp_path, server.url, key_env="LP_TEST_KEY")
    backend = backends.backend(judge)
    try:
        replies = [
            backend.ask(_item("echo")),
            backend.ask(_item("status=500,echo", "d2")),
            backend.ask(_item("status=401,echo", "d3")),
        ]
    finally:
        backend.close()
    assert server.requests[0][1]["authorization"] == f"Bearer {KEY}"
    assert replies[0].raw == "Bearer ***"
    texts = [repr(r) for r in replies] + [caplog.text, *capfd.readouterr()]
    texts += [(tmp_path / "judges" / n).read_text() for n in ("j.yaml", "j.prompt.txt")]
    leaks = [t[max(0, t.find(KEY[10:30]) - 200) :][:400] for t in texts if KEY[10:30] in t]
    assert leaks == []
    assert any("***" in (r.error or "") for r in replies[1:])


def test_an_unset_key_variable_is_named_not_guessed(
    tmp_path: Path, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LP_NO_SUCH_KEY", raising=False)
    judge = _judge(tmp_path, server.url, key_env="LP_NO_SUCH_KEY")
    with pytest.raises(UsageError, match=r"LP_NO_SUCH_KEY \(api_key_env\) is not set"):
        backends.backend(judge)
    assert server.requests == []


def test_a_command_judge_goes_to_the_command_backend(tmp_path: Path) -> None:
    judges = tmp_path / "judges"
    judges.mkdir()
    (judges / "c.yaml").write_text('kind: command\nmodel: m\ncommand: ["true"]\n')
    judge = load(tmp_path, "c")
    try:
        made = backends.backend(judge, tmp_path)
    except UsageError as exc:  # before machine/command.py is merged
        assert "kind command" in str(exc)
    else:
        made.close()
