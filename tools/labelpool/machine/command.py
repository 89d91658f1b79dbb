"""The ``command`` backend: a program speaking labelpool's JSON-lines protocol.

labelpool starts the program once (its ``command:`` argv, the repository root as its working
folder, a clean environment plus what the definition names) and writes one JSON object a line
to its stdin::

    {"question_id": "q1", "question": "...", "doc_id": "d7", "text": "...", "grades": [0, 1, 2, 3]}

and reads one a line from its stdout: ``{"doc_id": "d7", "grade": 2}`` or
``{"doc_id": "d7", "error": "why not"}``, with an optional ``"raw"`` (what the model said).

Requests are serialised: one in flight at a time (a lock; the threads of ``judge
--concurrency`` wait their turn), so each answer line belongs to the request just written.
Whatever goes wrong is an error :class:`~labelpool.machine.protocol.Reply`, never a guess and
never an exception:

* an answer that names another document, a grade outside the scale, a line that is not a JSON
  object, or a line longer than :data:`MAX_LINE`: the judge answered something unreadable (its
  line kept as ``raw``, so that the run records "can't judge");
* the program exits, closes its stdout, or is silent for ``timeout`` seconds: no answer at all
  (an error starting ``no answer:``, ``raw`` empty, as the ``openai`` backend says it: the
  run leaves the document pending and asks again next time). The program is
  killed (a late answer would belong to the wrong request) and started again for the next
  request; after :data:`MAX_FAILURES` such failures in a row every request fails at once.

The program's stderr is drained (never shown: it would reach a terminal unescaped); its last
:data:`STDERR_TAIL` bytes are quoted in the error of a program that died.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from labelpool.machine.protocol import Item, Reply

MAX_LINE = 1 << 20  # bytes of one answer line
MAX_FAILURES = 3  # failures in a row before the backend gives up on the program
STDERR_TAIL = 400  # bytes of the program's stderr quoted when it dies
KEPT_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def clean_env(extra: Mapping[str, str] = {}) -> dict[str, str]:
    """The program's environment: :data:`KEPT_ENV` from ours, and ``extra``."""
    env = {k: v for k, v in os.environ.items() if k in KEPT_ENV}
    env.setdefault("LANG", "C.UTF-8")
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra)
    return env


def request_line(item: Item) -> bytes:
    """One request as the program reads it: a JSON object and a line end."""
    obj = {
        "question_id": item.question_id,
        "question": item.question,
        "doc_id": item.doc_id,
        "text": item.text,
        "grades": list(item.grades),
    }
    return (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")


def parse_answer(line: str, item: Item) -> Reply:
    """One answer line read as the reply to ``item`` (an error reply when it cannot be)."""
    raw = line

    def bad(why: str) -> Reply:
        return Reply(item.doc_id, None, why, raw=raw)

    try:
        obj = json.loads(line)
    except ValueError:
        return bad("the judge program wrote a line that is not JSON")
    if not isinstance(obj, dict):
        return bad("the judge program wrote JSON that is not an object")
    if obj.get("doc_id") != item.doc_id:
        return bad(f"the judge program answered for another document, not {item.doc_id}")
    said = obj.get("raw")
    if isinstance(said, str) and said:
        raw = said
    if "error" in obj and obj["error"] is not None:
        err = obj["error"]
        return bad(str(err) if isinstance(err, str) and err else "the judge program gave an error")
    grade = obj.get("grade")
    if isinstance(grade, bool) or not isinstance(grade, int):
        return bad("the judge program's answer has no integer grade")
    if grade not in item.grades:
        scale = ", ".join(str(g) for g in item.grades)
        return bad(f"the judge program answered {grade}, not a grade of the scale ({scale})")
    return Reply(item.doc_id, grade, raw=raw)


class CommandBackend:
    """One judge program, asked one request at a time (see the module doc)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str] = {},
        timeout: float = 60.0,
    ) -> None:
        if not command:
            raise ValueError("a command judge needs a command")
        self.command = tuple(command)
        self.cwd = cwd
        self.env = clean_env(env)
        self.timeout = timeout
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr = bytearray()
        self._failures = 0
        self._last_failure = ""

    # --- the program ---------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a ^C to labelpool does not reach it mid-answer
        )
        lines: queue.Queue[bytes | None] = queue.Queue()
        self._lines = lines
        self._stderr = bytearray()
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True).start()
        threading.Thread(target=self._drain, args=(proc.stderr,), daemon=True).start()
        return proc

    def _drain(self, stream: IO[bytes]) -> None:
        tail = self._stderr
        while chunk := stream.read1(65536):  # type: ignore[attr-defined]
            tail.extend(chunk)
            del tail[:-STDERR_TAIL]

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for stream in (proc.stdin,):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _died(self, proc: subprocess.Popen[bytes]) -> str:
        code = proc.poll()
        tail = bytes(self._stderr).decode("utf-8", "replace").strip()
        said = f"; its stderr ends: {tail[-STDERR_TAIL:]}" if tail else ""
        if code is None:
            return f"no answer: the judge program closed its output{said}"
        return f"no answer: the judge program exited with status {code}{said}"

    # --- Backend -------------------------------------------------------------------------

    def ask(self, item: Item) -> Reply:
        with self._lock:
            if self._failures >= MAX_FAILURES:
                return Reply(
                    item.doc_id,
                    None,
                    f"no answer: the judge program failed {MAX_FAILURES} times in a row "
                    f"(last: {self._last_failure})",
                )
            reply, failed = self._ask(item)
            if failed:
                self._failures += 1
                self._last_failure = reply.error or ""
                self._stop()
            else:
                self._failures = 0
            return reply

    def _ask(self, item: Item) -> tuple[Reply, bool]:
        """The reply, and whether the program failed (no answer: it is stopped)."""
        if self._proc is None:
            try:
                self._proc = self._start()
            except OSError as exc:
                why = f"no answer: cannot start the judge program: {exc}"
                return Reply(item.doc_id, None, why), True
        proc = self._proc
        assert proc.stdin is not None
        try:
            proc.stdin.write(request_line(item))
            proc.stdin.flush()
        except OSError:
            self._wait_briefly(proc)
            return Reply(item.doc_id, None, self._died(proc)), True
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            proc.kill()
            why = f"no answer: the judge program did not answer in {self.timeout:g} s"
            return Reply(item.doc_id, None, why), True
        if line is None:
            self._wait_briefly(proc)
            return Reply(item.doc_id, None, self._died(proc)), True
        if len(line) > MAX_LINE:
            proc.kill()
            reply = Reply(
                item.doc_id,
                None,
                f"the judge program wrote a line longer than {MAX_LINE:,} bytes",
                raw=line[:200].decode("utf-8", "replace"),
            )
            return reply, True
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        return parse_answer(text, item), False

    @staticmethod
    def _wait_briefly(proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=1.0)

    def close(self) -> None:
        with self._lock:
            self._stop()


def _read_lines(stream: IO[bytes], out: queue.Queue[bytes | None]) -> None:
    """Put each line of ``stream`` on ``out`` (a line is cut at :data:`MAX_LINE` + 1 bytes,
    and the program is then stopped by the asker); None at the end."""
    try:
        while line := stream.readline(MAX_LINE + 1):
            out.put(line)
            if len(line) > MAX_LINE:
                break
    except (OSError, ValueError):
        pass
    out.put(None)


def from_definition(judge: Any, root: Path) -> CommandBackend:
    """The backend of a ``command`` machine judge (``judge.command``, ``judge.timeout``, and
    ``judge.env`` when the definition names variables to pass)."""
    env = getattr(judge, "env", None) or {}
    return CommandBackend(tuple(judge.command), cwd=root, env=dict(env), timeout=judge.timeout)
