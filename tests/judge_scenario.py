"""The judging page's test scenario: the shipped example pooled with ``--max-docs 30`` in a
temp git repository, ``labelpool judge --port 0 --no-browser`` running on it, and headless
Chromium (Debian's ``chromium`` package) driven by Playwright.

The browser and a server are started once per test module (the page tests share them);
Chromium missing is an OS facility missing (``tests/conftest.py``'s skip rule).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conftest import skip_unless
from pool_scenario import committed_example, git

ROOT = Path(__file__).resolve().parents[1]
JUDGE_NAME, JUDGE_EMAIL = "Jo Judge", "jo.judge@example.org"
FIRST_LINE = re.compile(r"^labelpool judge: (http://127\.0\.0\.1:([0-9]+)/)$")


def labelpool(repo: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labelpool", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        **kw,
    )


def pooled_example(where: Path) -> Path:
    """The example in ``where`` as a git repository, with a batch of 30 documents on its batch
    branch (``labelpool pool runs/bm25.trec runs/dense.trec --depth 20 --max-docs 30``)."""
    repo = committed_example(where)  # committed, and the batch, by "Runner"; the judge is not
    proc = labelpool(
        repo, "pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "20", "--max-docs", "30"
    )
    assert proc.returncode == 0, proc.stderr
    assert not git(repo, "status", "--porcelain")
    git(repo, "config", "user.name", JUDGE_NAME)
    git(repo, "config", "user.email", JUDGE_EMAIL)
    return repo


@dataclass
class Server:
    proc: subprocess.Popen[str]
    url: str
    port: int

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, out, err


def start_server(
    repo: Path, *args: str, browser: bool = False, env: dict[str, str] | None = None
) -> Server:
    """``labelpool judge --port 0`` on ``repo``, with ``--no-browser`` unless ``browser``;
    returns once it has printed its address."""
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "labelpool", "judge", "--port", "0"),
            *(() if browser else ("--no-browser",)),
            *args,
        ],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline().rstrip("\n")
    match = FIRST_LINE.match(first)
    if match is None:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"first line {first!r}; stderr {err!r}")
    return Server(proc, match.group(1), int(match.group(2)))


def chromium() -> str:
    path = shutil.which("chromium")
    skip_unless(
        path,
        "chromium is not installed (apt-get install --no-install-recommends chromium "
        "fonts-dejavu-core)",
        "os",
    )
    assert path is not None
    return path


@contextmanager
def browser() -> Iterator[Any]:
    """One headless Chromium (Playwright on Debian's chromium)."""
    path = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def open_page(b: Any, url: str, width: int = 1280, height: int = 800) -> Any:
    page = b.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def current(page: Any) -> tuple[str, str]:
    """(question id, document id) the page shows."""
    qid, doc = page.evaluate(
        "() => { const t = document.getElementById('doc-id').textContent;"
        " const m = t.match(/^(.*)  \\(\\d+ of \\d+ for (.*)\\)$/); return [m[2], m[1]]; }"
    )
    return str(qid), str(doc)


def press(page: Any, key: str) -> None:
    """Press ``key`` and wait until the page has the server's answer (``data-busy``)."""
    page.keyboard.press(key)
    page.wait_for_function("() => document.body.dataset.busy !== '1'", timeout=10_000)


def label_text(repo: Path, qid: str) -> str:
    return (repo / "labels" / f"{qid}.yaml").read_text(encoding="utf-8")


def tree_digest(repo: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((repo / "labels").iterdir())}


def env_without_identity(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": str(home)})
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "EMAIL"):
        env.pop(key, None)
    return env


class Client:
    """Requests as the page makes them; every answer body is kept."""

    def __init__(self, server: Server) -> None:
        self.port = server.port
        self.host = f"127.0.0.1:{server.port}"
        self.bodies: list[tuple[str, bytes]] = []
        self.token = ""
        status, html = self.call("GET", "/")
        assert status == 200
        m = re.search(rb'name="labelpool-token" content="([^"]+)"', html)
        assert m is not None
        self.token = m.group(1).decode()

    def call(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        headers = {"Host": self.host, "X-Labelpool-Token": self.token}
        data = None
        if body is not None:
            headers.update({"Origin": f"http://{self.host}", "Content-Type": "application/json"})
            data = json.dumps(body).encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=data, headers=headers)
        res = conn.getresponse()
        raw = res.read()
        conn.close()
        self.bodies.append((f"{method} {path}", raw))
        return res.status, raw

    def json(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        status, raw = self.call(method, path, body)
        return status, json.loads(raw)
