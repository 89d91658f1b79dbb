"""The HTTP side of ``labelpool judge``: a fixed set of routes on a threading stdlib server.

Routes (nothing else exists; no part of a request's path or query becomes a file path):

* ``GET /``: the page, with this run's token inside; ``GET /judge.css``, ``GET /judge.js``:
  its assets, shipped in the package and read once at start;
* ``GET /api/state``, ``GET /api/question?q=QID``, ``GET /api/text?q=QID&doc=ID``: JSON;
* ``POST /api/verdict``, ``POST /api/commit``: the writes.

Every request needs a ``Host`` of ``127.0.0.1:P``, ``localhost:P`` or ``H:P`` (else 403: a
DNS-rebinding page has another host); every ``/api/`` request needs the token in
``X-Labelpool-Token``; every write also needs ``Origin: http://<its Host>`` and a JSON body.
Every answer carries ``Content-Security-Policy: default-src 'self'``.
"""

from __future__ import annotations

import hmac
import json
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from labelpool import repolock
from labelpool.errors import InputError, LabelpoolError
from labelpool.judge import page
from labelpool.judge.session import BadRequest, NotFound, Session
from labelpool.render import sanitize
from labelpool.workflows.judge import commit as judge_commit
from labelpool.workflows.judge.queue import JudgeInputError
from labelpool.workflows.judge.write import Conflict, WriteRefused

MAX_BODY = 64 * 1024
TOKEN_HEADER = "X-Labelpool-Token"
CSP = "default-src 'self'"


class JudgeServer(ThreadingHTTPServer):
    daemon_threads = False  # a write in flight finishes before the process ends
    block_on_close = True
    allow_reuse_address = False  # a port in use is an error, not shared
    request_queue_size = 64  # connections waiting to be accepted (5 reset some of a burst)

    def __init__(self, address: tuple[str, int], session: Session, token: str) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.session = session
        self.token = token
        self.assets = page.assets(token)
        port = self.server_address[1]
        host = address[0]
        names = {"127.0.0.1", "localhost", host}
        if ":" in host:  # an IPv6 literal is written in brackets
            names.add(f"[{host}]")
        self.hosts = frozenset(f"{n}:{port}" for n in names)
        self.in_flight = threading.Semaphore(64)


class Handler(BaseHTTPRequestHandler):
    server: JudgeServer
    server_version = "labelpool-judge"
    sys_version = ""
    protocol_version = "HTTP/1.0"  # one request per connection: nothing idles at shutdown
    timeout = 30  # seconds a silent connection may hold a thread

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: requests are not logged (stdout carries the address line)."""

    # --- answers ---------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        body = sanitize.json_dumps(obj).encode("ascii")
        self._send(status, body, "application/json; charset=utf-8")

    def _error(self, status: int, message: str, **extra: Any) -> None:
        """An error answer; the batch's name, which names the pooled systems, said as "this
        batch" (git's message of a failed commit quotes the commit message, which holds it)."""
        batch = self.server.session.batch
        if batch:
            message = message.replace(batch, "this batch")
        self._json(status, {"error": sanitize.text(message), **extra})

    # --- checks ----------------------------------------------------------------------------

    def _host_ok(self) -> bool:
        return self.headers.get("Host", "") in self.server.hosts

    def _token_ok(self) -> bool:
        given = self.headers.get(TOKEN_HEADER, "")
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.server.token.encode())

    def _origin_ok(self) -> bool:
        origin = self.headers.get("Origin")
        return origin is not None and origin == f"http://{self.headers.get('Host', '')}"

    # --- methods ---------------------------------------------------------------------------

    def do_GET(self) -> None:
        if not self._host_ok():
            self._error(HTTPStatus.FORBIDDEN, "wrong Host header")
            return
        url = urlsplit(self.path)
        asset = self.server.assets.get(url.path)
        if asset is not None:
            self._send(HTTPStatus.OK, asset.body, asset.ctype)
            return
        if url.path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "text/plain")
            return
        if not url.path.startswith("/api/"):
            self._error(HTTPStatus.NOT_FOUND, "not found")
            return
        if not self._token_ok():
            self._error(HTTPStatus.FORBIDDEN, "missing or wrong token")
            return
        query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        self._answer(url.path, query, None)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_POST(self) -> None:
        if not self._host_ok():
            self._error(HTTPStatus.FORBIDDEN, "wrong Host header")
            return
        if not self._token_ok() or not self._origin_ok():
            self._error(HTTPStatus.FORBIDDEN, "a write needs this page's token and origin")
            return
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip()
        if ctype != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "a write is JSON")
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "body too large")
            return
        try:
            payload = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, UnicodeDecodeError):
            self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON")
            return
        if not isinstance(payload, dict):
            self._error(HTTPStatus.BAD_REQUEST, "the body is a JSON object")
            return
        self._answer(urlsplit(self.path).path, {}, payload)

    def _refuse(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def _answer(self, route: str, query: dict[str, str], payload: dict[str, Any] | None) -> None:
        session = self.server.session
        try:
            with self.server.in_flight:
                if payload is None and route == "/api/state":
                    self._json(HTTPStatus.OK, session.state_json())
                elif payload is None and route == "/api/question":
                    q = session.question_json(query.get("q", ""))
                    self._json(HTTPStatus.OK, {"question": q})
                elif payload is None and route == "/api/text":
                    self._json(
                        HTTPStatus.OK, session.text_json(query.get("q", ""), query.get("doc", ""))
                    )
                elif payload is not None and route == "/api/verdict":
                    self._json(HTTPStatus.OK, session.write(payload))
                elif payload is not None and route == "/api/commit":
                    self._json(HTTPStatus.OK, session.commit())
                else:
                    self._error(HTTPStatus.NOT_FOUND, "not found")
        except Conflict as exc:
            q = None
            qid = payload.get("q") if payload else None
            if isinstance(qid, str):
                try:
                    q = session.question_json(qid)
                except (LabelpoolError, OSError):
                    q = None
            self._error(HTTPStatus.CONFLICT, str(exc), question=q)
        except (judge_commit.CommitFailed, judge_commit.NoIdentity) as exc:
            self._error(HTTPStatus.CONFLICT, str(exc))
        except (repolock.Busy, repolock.LockFailed, repolock.WriteFailed) as exc:
            # another writer (a merge) holds the repository, or it cannot be written
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, str(exc))
        except WriteRefused as exc:
            self._error(HTTPStatus.UNPROCESSABLE_ENTITY, str(exc))
        except BadRequest as exc:
            self._error(HTTPStatus.BAD_REQUEST, str(exc))
        except NotFound as exc:
            self._error(HTTPStatus.NOT_FOUND, str(exc))
        except LabelpoolError as exc:
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, _said(exc))
        except OSError as exc:
            self._error(
                HTTPStatus.INTERNAL_SERVER_ERROR, f"{exc.filename or ''}: {exc.strerror or exc}"
            )


def _said(exc: LabelpoolError) -> str:
    """What the page is told of an error: for a label file the reader refuses, where, not why
    (the reason may quote a verdict the page does not show, ``verdict 'Relevnat' is not ...``);
    ``labelpool validate`` in a terminal says why. The page's own refusals say what they are."""
    if isinstance(exc, InputError) and not isinstance(exc, JudgeInputError) and exc.path:
        return f"{exc.location}: the page cannot read this file; `labelpool validate` says why"
    return str(exc)
