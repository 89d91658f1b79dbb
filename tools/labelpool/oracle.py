"""A reference qrels file standing in for a judge (``labelpool merge --oracle QRELS``).

The file is TREC qrels: ``qid iteration doc grade`` per line, whitespace separated. A grade
above 0 is relevant with that grade, 0 is irrelevant; a negative grade ("pooled, not judged")
is no verdict at all, like a document the reference does not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from labelpool.errors import InputError, UsageError

ORACLE_NAME = "labelpool oracle"
ORACLE_EMAIL = "oracle@labelpool.invalid"


class OracleError(InputError):
    """The qrels file's content is wrong; ``str()`` is a ``path:line:col: message`` line."""


class OracleFileMissing(UsageError, OracleError):
    """There is no qrels file to read (a usage error, exit 2)."""


@dataclass(frozen=True)
class Oracle:
    path: Path
    grades: Mapping[str, Mapping[str, int]]  # qid -> doc -> grade (>= 0 only)

    def verdict(self, qid: str, doc: str) -> int | None:
        """The reference grade of ``doc`` for ``qid`` (0 irrelevant), None when unknown."""
        return self.grades.get(qid, {}).get(doc)

    @property
    def identity(self) -> tuple[str, str]:
        return ORACLE_NAME, ORACLE_EMAIL


def read_qrels(path: Path) -> Oracle:
    """Read a TREC qrels file; a malformed line raises :class:`OracleError` with its position."""
    grades: dict[str, dict[str, int]] = {}
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        raise OracleFileMissing(f"cannot read qrels: {exc.strerror or exc}", path=path) from None
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        at_line = raw_bytes.count(b"\n", 0, exc.start) + 1
        at_col = exc.start - (raw_bytes.rfind(b"\n", 0, exc.start) + 1) + 1
        raise OracleError(
            f"not UTF-8 (byte 0x{raw_bytes[exc.start]:02X})", path=path, line=at_line, column=at_col
        ) from None
    if not text.strip():
        raise OracleError(
            "empty qrels file (no `qid iteration doc grade` line)", path=path, line=1, column=1
        )
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        # shape kept: an error at a line, like import corpus's <DOCNO> count (no shared logic)
        if len(parts) != 4:
            raise OracleError(
                f"expected 4 fields `qid iteration doc grade`, got {len(parts)}",
                path=path,
                line=number,
                column=1,
            )
        qid, _, doc, raw = parts
        try:
            grade = int(raw)
        except ValueError:
            col = line.rindex(raw) + 1
            raise OracleError(
                f"grade {raw!r} is not an integer", path=path, line=number, column=col
            ) from None
        if grade < 0:
            continue
        per_q = grades.setdefault(qid, {})
        if doc in per_q and per_q[doc] != grade:
            col = line.index(doc) + 1
            raise OracleError(
                f"{qid} {doc} has two grades ({per_q[doc]} and {grade})",
                path=path,
                line=number,
                column=col,
            )
        per_q[doc] = grade
    return Oracle(path=path, grades=grades)
