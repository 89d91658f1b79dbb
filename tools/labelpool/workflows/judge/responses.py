"""``labelpool judge --machine``, the response cache: what a machine judge answered, kept.

One file per judge identity in the cache folder (:func:`labelpool.cache.cache_dir`),
``machine-<sha256(identity)[:24]>.jsonl``: one JSON object a line, ``{"key": K, "grade": G,
"error": E, "raw": R, "cost": C}``, ``K`` the sha256 of (identity, question text, passage
text). The lines of the answers that came together are appended with one ``write`` on a file
opened for appending (``O_APPEND``) and synced once, before the verdicts they explain are
written to label files; a line cut by a kill does not parse and is ignored. So a rerun, or a
run resumed after a kill, asks nothing twice: a key in the file is answered from it.

Only answers are kept: a grade, or the judge's reply that gave none ("can't judge", with the
raw reply). A request that got no answer at all (the program died, the endpoint timed out after its
retries: an error starting ``no answer:``, or no raw reply) is not kept; a rerun asks it
again. Deleting the file is safe: the next run
asks again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from labelpool.machine.protocol import Reply


def key(identity: str, question: str, text: str) -> str:
    """The cache key of one request: sha256 of (judge identity, question text, passage text)."""
    return hashlib.sha256("\x00".join((identity, question, text)).encode("utf-8")).hexdigest()


def cache_file(directory: Path, identity: str) -> Path:
    name = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:24]
    return directory / f"machine-{name}.jsonl"


NO_ANSWER = "no answer:"  # how a backend's error starts when no answer came (after retries)


def keeps(reply: Reply) -> bool:
    """Whether a reply is an answer worth keeping: a grade, or an unreadable reply (not a
    request that got no answer: an error starting :data:`NO_ANSWER`, or no raw reply)."""
    if reply.grade is not None:
        return True
    return bool(reply.raw) and not (reply.error or "").startswith(NO_ANSWER)


def _reply(obj: Any, doc: str) -> Reply | None:
    if not isinstance(obj, dict):
        return None
    grade, error, raw, cost = obj.get("grade"), obj.get("error"), obj.get("raw"), obj.get("cost")
    if not isinstance(raw, str) or not isinstance(cost, (int, float)):
        return None
    if isinstance(grade, int) and not isinstance(grade, bool) and error is None:
        return Reply(doc, grade, None, raw, float(cost))
    if grade is None and isinstance(error, str):
        return Reply(doc, None, error, raw, float(cost))
    return None


class Responses:
    """The response cache of one judge identity: read once, appended as answers come."""

    def __init__(self, directory: Path, identity: str) -> None:
        self.identity = identity
        self.file = cache_file(directory, identity)
        self._lock = threading.Lock()
        self._known: dict[str, Any] = {}
        try:
            with open(self.file, "rb") as fh:
                for line in fh:
                    try:
                        obj = json.loads(line)
                    except ValueError:
                        continue  # a line cut by a kill
                    if isinstance(obj, dict) and isinstance(obj.get("key"), str):
                        self._known[obj["key"]] = obj
        except OSError:
            pass  # no cache yet, or unreadable: ask

    def get(self, question: str, text: str, doc: str) -> Reply | None:
        """The kept answer for (question, passage), as a reply about ``doc``; None if none."""
        obj = self._known.get(key(self.identity, question, text))
        return None if obj is None else _reply(obj, doc)

    def put(self, question: str, text: str, reply: Reply) -> None:
        """Keep ``reply`` (when :func:`keeps`): appended and synced before this returns."""
        self.put_many([(question, text, reply)])

    def put_many(self, items: Sequence[tuple[str, str, Reply]]) -> None:
        """Keep each ``(question, text, reply)`` (those that :func:`keeps`): appended with one
        write and synced once before this returns."""
        lines: list[bytes] = []
        objs: list[tuple[str, dict[str, Any]]] = []
        for question, text, reply in items:
            if not keeps(reply):
                continue
            k = key(self.identity, question, text)
            obj: dict[str, Any] = {
                "key": k,
                "grade": reply.grade,
                "error": reply.error,
                "raw": reply.raw,
                "cost": reply.cost,
            }
            objs.append((k, obj))
            lines.append(
                (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            )
        if not lines:
            return
        data = b"".join(lines)
        with self._lock:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.file, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                # a line cut by an earlier kill must not swallow this one
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    data = b"\n" + data
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            for k, obj in objs:
                self._known[k] = obj
