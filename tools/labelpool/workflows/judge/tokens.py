"""``labelpool judge``, what the page holds of an entry: an opaque token, never its text.

A write carries the token of the entry as the page last saw it; a write on disk meanwhile
(another page, an editor, ``git pull``) changes the entry and so its token, and the write is
a conflict (409, the page reloads the question). The token must not let a judge learn the
verdict the page hides: a plain hash of the entry's lines (0.2's SHA-256) is reversed by
hashing the few lines a verdict can make. It is an HMAC-SHA256 under a key made for the run
(``secrets.token_bytes(32)``, held by the server and never sent) over the entry's file, batch,
document and block (the can't-judge line, if any, and the entry line, as on disk): equal for
an unchanged entry within one run, unpredictable without the key, and of another value in
every other run.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from labelpool.workflows.judge.queue import Entry

KEY_BYTES = 32


def _new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


@dataclass(frozen=True)
class Tokens:
    """The tokens of one run: its key, made once (at start), never written or sent."""

    key: bytes = field(default_factory=_new_key, repr=False)

    def of(self, path: Path, batch: str, entry: Entry) -> str:
        """The token of ``entry`` of ``batch`` in the label file ``path``, as it is now."""
        mac = hmac.new(self.key, digestmod=hashlib.sha256)
        for part in (str(path), batch, entry.doc, entry.block):
            raw = part.encode("utf-8", "surrogateescape")
            mac.update(len(raw).to_bytes(8, "big"))  # each part framed: no two splits agree
            mac.update(raw)
        return mac.hexdigest()

    def matches(self, token: str, path: Path, batch: str, entry: Entry) -> bool:
        """Whether ``token`` (from a request) is ``entry``'s now (a constant-time compare)."""
        given = token.encode("utf-8", "surrogatepass")
        return hmac.compare_digest(given, self.of(path, batch, entry).encode("ascii"))
