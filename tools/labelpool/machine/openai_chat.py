"""The ``openai`` backend: a machine judge asked through an OpenAI-compatible chat endpoint.

OpenAI, vLLM, llama.cpp's server and Ollama speak the same chat-completions protocol; the
``openai`` client library (the ``[openai]`` extra, imported on the first backend made) talks
to any of them at the judge's ``base_url``. One client serves every thread (its connection
pool is thread-safe). Each sample is one request with ``n=1`` (several samples: several
requests, the seed moved by one per sample so that they can differ), because llama.cpp's
server and Ollama do not honour ``n``.

Retries: the client's own, ``max_retries=judge.retries``: a 408, 409, 429 or 5xx reply, a
timeout (``judge.timeout`` seconds per request) or a lost connection is tried again after
0.5 s, 1 s, 2 s ... (at most 8 s, less up to a quarter at random), or after what the server's
``Retry-After`` asks for (up to a minute). What is still failing after the last retry is a
reply without a grade whose error starts ``no answer:``; a reply that came but does not say
a grade of the scale is ``can't judge:`` (:mod:`labelpool.machine.answer`), never a guess.

The API key comes from the environment variable the judge names (``api_key_env``); without
one the client sends ``not-needed`` (a local server asks for none). The key is never in a
Reply, an error or a log line of labelpool's: every text that leaves this module has it
replaced by ``***``, since a server may echo the request in its answer.
"""

from __future__ import annotations

import json
import os
from typing import Any

from labelpool.errors import UsageError
from labelpool.machine import answer
from labelpool.machine.definition import MachineJudge
from labelpool.machine.protocol import Item, Reply

NO_KEY = "not-needed"  # what a local server gets when the judge names no key
MASK = "***"
MAX_ERROR = 300  # characters of a server's error message kept


def key_of(judge: MachineJudge) -> str:
    """The API key for ``judge`` (:data:`NO_KEY` when it names no variable); UsageError naming
    the variable, never a value, when it names one that is unset."""
    if judge.api_key_env is None:
        return NO_KEY
    key = os.environ.get(judge.api_key_env, "")
    if not key:
        raise UsageError(
            f"machine judge {judge.name}: the environment variable {judge.api_key_env} "
            "(api_key_env) is not set; export it with the endpoint's API key"
        )
    return key


def _library() -> Any:
    try:
        import openai  # the [openai] extra; only the openai backend needs it
    except ImportError:
        raise UsageError(
            "the openai machine judge needs the openai client library: "
            "pip install 'labelpool[openai]'"
        ) from None
    return openai


class OpenAIChat:
    """A :class:`~labelpool.machine.protocol.Backend` asking a chat-completions endpoint."""

    def __init__(self, judge: MachineJudge) -> None:
        if judge.kind != "openai":
            raise UsageError(f"machine judge {judge.name} is of kind {judge.kind}, not openai")
        self.judge = judge
        self._key = key_of(judge)
        library = _library()
        self._failed: type[Exception] = library.OpenAIError
        self._client = library.OpenAI(
            base_url=judge.base_url,
            api_key=self._key,
            timeout=judge.timeout,
            max_retries=judge.retries,
        )

    def ask(self, item: Item) -> Reply:
        """One document judged: ``judge.samples`` requests, read and combined (thread-safe)."""
        prompt = self.judge.render(item.question, item.text)
        raws: list[str] = []
        grades: list[int] = []
        problems: list[str] = []
        cost = 0.0
        for sample in range(self.judge.samples):
            try:
                text, tokens = self._complete(prompt, sample)
            except self._failed as exc:  # every failure of the client, after its retries
                why = self._clean(_failure(exc))
                return Reply(item.doc_id, None, why, self._raw(raws), cost)
            cost += tokens
            text = self._clean(text)  # before anything quotes it, even in part
            raws.append(text)
            grade, problem = answer.read(text, item.grades, self.judge.words)
            if grade is None:
                problems.append(problem or "can't judge")
            else:
                grades.append(grade)
        raw = self._raw(raws)
        if not grades:
            return Reply(item.doc_id, None, problems[0], raw, cost)
        return Reply(item.doc_id, answer.combine(grades, self.judge.combine), None, raw, cost)

    def _complete(self, prompt: str, sample: int) -> tuple[str, float]:
        """(the reply's text, tokens used) of one request."""
        judge = self.judge
        extra: dict[str, Any] = {}
        if judge.seed is not None:
            extra["seed"] = judge.seed + sample
        response = self._client.chat.completions.create(
            model=judge.model,
            messages=[{"role": "user", "content": prompt}],
            temperature=judge.temperature,
            top_p=judge.top_p,
            max_tokens=judge.max_tokens,
            n=1,
            **extra,
        )
        choices = getattr(response, "choices", None) or []
        content = choices[0].message.content if choices else None
        usage = getattr(response, "usage", None)
        tokens = float(getattr(usage, "total_tokens", 0) or 0)
        return content or "", tokens

    def _raw(self, raws: list[str]) -> str:
        """The replies as received (the key masked): the one reply, or a JSON list of several
        samples."""
        if len(raws) == 1:
            return raws[0]
        return json.dumps(raws, ensure_ascii=False) if raws else ""

    def _clean(self, text: str) -> str:
        """``text`` with the API key masked (a server may echo the request)."""
        if self._key != NO_KEY and self._key in text:
            return text.replace(self._key, MASK)
        return text

    def close(self) -> None:
        self._client.close()


def _failure(exc: Exception) -> str:
    """Why no answer came, in words (the server's own message shortened)."""
    status = getattr(exc, "status_code", None)
    name = type(exc).__name__
    if name == "APITimeoutError":
        return "no answer: the request timed out after every retry"
    if name == "APIConnectionError":
        return "no answer: could not connect to the endpoint after every retry"
    if status is not None:
        detail = " ".join(str(getattr(exc, "message", "") or "").split())[:MAX_ERROR]
        return f"no answer: the endpoint answered HTTP {status}" + (f": {detail}" if detail else "")
    return f"no answer: {name}: " + " ".join(str(exc).split())[:MAX_ERROR]
