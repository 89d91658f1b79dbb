"""A real HTTP server on loopback that speaks OpenAI's chat-completions protocol, scripted.

The test puts a script in the passage it judges, between ``<<`` and ``>>``: steps separated by
``;``, one step per request for the same script (the last repeats):

* ``reply=TEXT``: answer with ``TEXT`` as the message's content;
* ``status=N``: answer HTTP ``N`` with an OpenAI-style error body (``retry-after-ms: 1`` unless
  ``slow-retry`` is in the script, so that the client's backoff is exercised);
* ``sleep=S,reply=TEXT``: wait S seconds, then answer;
* ``echo``: answer with the request's Authorization header as content (and a 500 with it in
  the error body for ``status-echo``), as a careless proxy would.

Every request is recorded (:attr:`ChatServer.requests`: the JSON body and the headers).
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_SCRIPT = re.compile(r"<<(.*?)>>", re.DOTALL)


class ChatServer:
    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, Any], dict[str, str]]] = []
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                server._record(body, headers)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "no such route"}})
                    return
                prompt = body["messages"][-1]["content"]
                found = _SCRIPT.search(prompt)
                script = found.group(1) if found else "reply=0"
                step = server._step(script)
                self._answer(script, step, body, headers)

            def _answer(
                self, script: str, step: str, body: dict[str, Any], headers: dict[str, str]
            ) -> None:
                parts = dict(p.split("=", 1) if "=" in p else (p, "") for p in step.split(","))
                if "sleep" in parts:
                    time.sleep(float(parts["sleep"]))
                if "status" in parts:
                    status = int(parts["status"])
                    message = f"scripted {status}"
                    if "echo" in parts:
                        message += " " + headers.get("authorization", "")
                    extra = {} if "slow-retry" in script else {"retry-after-ms": "1"}
                    self._send(status, {"error": {"message": message, "type": "x"}}, extra)
                    return
                content = headers.get("authorization", "") if "echo" in parts else parts["reply"]
                self._send(200, _completion(body, content))

            def _send(self, status: int, obj: Any, extra: dict[str, str] | None = None) -> None:
                data = json.dumps(obj).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in (extra or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _record(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        with self._lock:
            self.requests.append((body, headers))

    def _step(self, script: str) -> str:
        with self._lock:
            n = self._counts.get(script, 0)
            self._counts[script] = n + 1
        steps = [s for s in script.split(";") if s and s != "slow-retry"]
        return steps[min(n, len(steps) - 1)]

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(body: dict[str, Any], content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": body.get("model", "m"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11},
    }
