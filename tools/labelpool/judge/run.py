"""Start, serve and stop ``labelpool judge``.

:func:`prepare` reads what is pending (None: nothing to judge); :func:`bind` listens (a port in
use is :class:`PortInUse`, exit 1); :func:`serve` answers until SIGINT or SIGTERM, then lets
the requests in flight finish (a write under way lands whole) and returns how many verdicts
this page wrote that are not committed.
"""

from __future__ import annotations

import errno
import ipaddress
import secrets
import signal
import socket
import threading
from collections.abc import Callable
from types import FrameType

from labelpool import gitio
from labelpool.config import Config
from labelpool.errors import StateError
from labelpool.judge.server import JudgeServer
from labelpool.judge.session import Options, Session
from labelpool.workflows.judge import commit as judge_commit
from labelpool.workflows.judge import queue as judge_queue
from labelpool.workflows.judge import seats


class PortInUse(StateError):
    """The port is taken (exit 1)."""


class NotARepository(StateError):
    """The label repository is not in a git work tree (exit 1)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def prepare(
    cfg: Config, batch: str | None, question: str | None, commit_every: int | None
) -> Session | None:
    """The session of this run, or None when nothing is pending."""
    if gitio.toplevel(cfg.root) is None:
        raise NotARepository(
            "labelpool judge works in a git repository (its writes are committed)", path=cfg.root
        )
    name, email = gitio.user_identity(cfg.root)
    if commit_every is not None:
        judge_commit.identity(cfg.root)  # exit 2 without one
    queue = judge_queue.load(cfg, email, batch, question, seats.identity(name, email))
    if queue is None:
        return None
    return Session(cfg, queue, Options(name, email, commit_every))


def bind(session: Session, host: str, port: int) -> JudgeServer:
    token = secrets.token_urlsafe(32)
    try:
        return JudgeServer((host.strip("[]"), port), session, token)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(f"port {port} on {host} is in use (try --port 0)") from None
        if isinstance(exc, socket.gaierror) or exc.errno in (errno.EADDRNOTAVAIL,):
            raise PortInUse(f"cannot listen on {host}: {exc.strerror or exc}") from None
        raise


def url(server: JudgeServer, host: str) -> str:
    """The page's address: on a wildcard address (``0.0.0.0``, ``::``) the loopback one."""
    bare = host.strip("[]")
    if bare in ("0.0.0.0", "::", ""):
        bare = "127.0.0.1"
    shown = f"[{bare}]" if ":" in bare else bare
    return f"http://{shown}:{server.server_address[1]}/"


def serve(server: JudgeServer, ready: Callable[[], None] = lambda: None) -> int:
    """Serve until SIGINT or SIGTERM; the verdicts not committed. ``ready`` (print the
    address, open a browser) runs once the signals are ours, so a signal at any point after
    the address is out stops the server cleanly."""
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    # the handlers stay for the rest of the process: a second signal while the count below is
    # made changes nothing (the command ends right after)
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, stop)
    try:
        ready()
        server.serve_forever(poll_interval=0.1)
    finally:
        server.server_close()  # waits for the requests in flight
    return server.session.uncommitted()
