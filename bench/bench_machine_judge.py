"""``labelpool judge --machine`` against a chat-completions server on loopback: the benchmark of
issue 25 (10,000 documents, a server answering each request after 50 ms, 16 in flight).

The repository: ``bench_repo``'s generator with ``docs // PER_QUESTION`` questions, a batch
made by ``labelpool pool bm25 dense hybrid --depth 40`` then cut to its first
:data:`PER_QUESTION` documents a question (what ``pool`` writes, shorter: the cut is one more
commit), a corpus (``corpus/corpus.jsonl``) holding a text for every pending document, and a
machine judge ``bench`` of kind ``openai`` whose ``base_url`` is the server's, with the
prompt labelpool ships.

The server (:class:`Server`, run in this process on its own threads: ``ThreadingHTTPServer``,
one thread per connection, so every request in flight is held at once) answers every
``POST .../chat/completions`` after :data:`DELAY` seconds with a grade drawn from the prompt's
hash, and counts the requests and the most in flight at once.

The figure is the whole ``labelpool judge --machine bench --concurrency 16`` process, cold (an
empty response cache), from the pooled commit each time: asking, writing every verdict and
committing. The floor is the waiting alone: ``docs x DELAY / concurrency``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import bench_repo
from bench_measure import Measurement, Sample, measure
from bench_repo import git

NAME = "bench"
DELAY = 0.05  # seconds the server waits before each answer
CONCURRENCY = 16
PER_QUESTION = 10
POOL = ("pool", "bm25", "dense", "hybrid", "--depth", "40", "--no-text")
WAIT = "wait floor"  # the row of the floor: docs x DELAY / CONCURRENCY
PROMPT = Path(__file__).resolve().parents[1] / "tools" / "labelpool" / "data" / "judge-prompt.txt"


def row_name(docs: int) -> str:
    return f"judge --machine, {docs:,} docs ({DELAY * 1000:.0f} ms server, {CONCURRENCY} in flight)"


def floor_seconds(docs: int) -> float:
    """The waiting alone: every request takes :data:`DELAY`, :data:`CONCURRENCY` at a time."""
    return docs * DELAY / CONCURRENCY


class Server:
    """A chat-completions server on loopback answering each request after ``delay`` seconds."""

    def __init__(self, delay: float = DELAY) -> None:
        self.requests = 0
        self.in_flight = 0
        self.most_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out as written

            def log_message(self, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                server._enter()
                try:
                    length = int(self.headers.get("content-length", "0"))
                    body = json.loads(self.rfile.read(length) or b"{}")
                    time.sleep(delay)
                    prompt = str(body.get("messages", [{}])[-1].get("content", ""))
                    grade = hashlib.sha256(prompt.encode()).digest()[0] % 4
                    data = json.dumps(_completion(body, str(grade))).encode()
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    server._leave()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.request_queue_size = 128
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _enter(self) -> None:
        with self._lock:
            self.requests += 1
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def __enter__(self) -> Server:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(body: dict[str, Any], content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-bench",
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
        "usage": {"prompt_tokens": 300, "completion_tokens": 1, "total_tokens": 301},
    }


def _cut(text: str, keep: int) -> tuple[str, list[str]]:
    """A label file's pending batch cut to its first ``keep`` documents: (text, their ids)."""
    lines = text.split("\n")
    out: list[str] = []
    docs: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("- {doc: ") and stripped.endswith("verdict: null}"):
            if len(docs) >= keep:
                continue
            docs.append(stripped.removeprefix("- {doc: ").split(",", 1)[0])
        out.append(line)
    return "\n".join(out), docs


def make_repo(folder: Path, docs: int, seed: int, labelpool: list[str]) -> Path:
    """The repository at ``folder`` (made once per size and seed; reused when present), its
    ``main`` at the commit whose batch holds ``docs`` pending documents."""
    done = folder / ".complete"
    if done.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)  # a generation cut short
    n = -(-docs // PER_QUESTION)
    repo = bench_repo.make_repo(folder, n, seed)
    proc = subprocess.run(
        [*labelpool, *POOL], cwd=repo.root, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"pool failed: {proc.stderr.strip()[-500:]}")
    pending: list[str] = []
    left = docs
    for path in sorted(repo.labels.iterdir()):
        text = path.read_text(encoding="utf-8")
        if "\npending:" not in text:
            continue
        cut, kept = _cut(text, min(PER_QUESTION, left))
        left -= len(kept)
        pending += kept
        path.write_text(cut, encoding="utf-8")
    if left:
        raise RuntimeError(f"the pool left {left} documents short of {docs}")
    (repo.root / "corpus").mkdir()
    words = bench_repo.WORDS
    with (repo.root / "corpus" / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for doc in sorted(set(pending)):
            k = int(doc[1:])
            body = " ".join(words[(k * 7 + i * 3) % len(words)] for i in range(60))
            out.write(json.dumps({"_id": doc, "title": f"Document {doc}", "text": body}) + "\n")
    pyproject = repo.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8") + 'corpus = "corpus/corpus.jsonl"\n',
        encoding="utf-8",
    )
    judges = repo.root / "judges"
    judges.mkdir()
    (judges / f"{NAME}.prompt.txt").write_bytes(PROMPT.read_bytes())
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", f"the batch cut to {PER_QUESTION} a question; corpus")
    done.write_text(str(len(pending)), encoding="utf-8")
    return folder


def judge_file(root: Path, url: str) -> None:
    """The judge ``bench`` pointing at ``url``, committed (the port changes from run to run)."""
    path = root / "judges" / f"{NAME}.yaml"
    text = (
        "kind: openai\n"
        "model: bench-model\n"
        f"prompt: {NAME}.prompt.txt\n"
        "grades: [0, 1, 2, 3]\n"
        f'base_url: "{url}"\n'
        "timeout: 30\n"
        "retries: 2\n"
    )
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.write_text(text, encoding="utf-8")
    git(root, "add", "--", str(path.relative_to(root)))
    git(root, "commit", "-q", "-m", "the bench judge's endpoint")


def _reset(root: Path, base: str) -> None:
    git(root, "checkout", "-q", "-f", "main")
    git(root, "reset", "-q", "--hard", base)
    git(root, "clean", "-q", "-fdx", "--", "labels")


def wait_floor(docs: int) -> Measurement:
    """The floor as a row: the waiting alone (no process: no CPU, no memory)."""
    return Measurement(WAIT, (Sample(floor_seconds(docs), 0.0, 0.0, 0, ""),))


def measure_judge(
    work: Path, docs: int, seed: int, repeat: int, labelpool: list[str]
) -> tuple[list[Measurement], str]:
    """The benchmark's rows (the wait floor, then the command) and a note on what it saw:
    the requests the server answered, the most in flight at once, and the machine's load."""
    root = make_repo(work / f"machine-judge-{docs}-{seed}", docs, seed, labelpool)
    load = os.getloadavg()[0]
    with Server() as server:
        judge_file(root, server.url)
        base = git(root, "rev-parse", "HEAD").strip()
        cmd = [*labelpool, "judge", "--machine", NAME, "--concurrency", str(CONCURRENCY)]
        m = measure(
            row_name(docs),
            cmd,
            root,
            repeat,
            before=lambda: _reset(root, base),
            after=lambda: _reset(root, base),
        )
        asked = server.requests
        most = server.most_in_flight
    load_after = os.getloadavg()[0]
    note = (
        f"judge --machine: {docs:,} documents ({docs // PER_QUESTION:,} questions x "
        f"{PER_QUESTION}), server answering after {DELAY * 1000:.0f} ms; {asked:,} requests "
        f"in {repeat} run(s), at most {most} in flight; load average {load:.1f} before, "
        f"{load_after:.1f} after"
    )
    return [wait_floor(docs), m], note
