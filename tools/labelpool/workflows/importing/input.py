"""What every importer shares: its errors, the reading of a text file by lines, and the checks
of a question id and a document id before anything is built from them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labelpool.errors import InputError, UsageError
from labelpool.rules.written import doc_id_problem

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class ImportFailed(InputError):
    """Bad input; ``str()`` names the file and line (exit 1)."""


class ImportUsageError(UsageError, ImportFailed):
    """A command-line mistake: a file that cannot be read, a bad option (exit 2)."""


def check_id(qid: str, path: Path, line: int | None = None, column: int | None = None) -> None:
    """Refuse a question id outside the allowlist before any path is built from it."""
    if not ID_RE.fullmatch(qid):
        raise ImportFailed(
            f"question id {qid!r} is not allowed "
            "(letters, digits, '.', '_', '-'; starting with a letter or digit; at most 128)",
            path=path,
            line=line,
            column=column,
        )


def check_doc(doc: str, path: Path, line: int, column: int) -> None:
    """Refuse a document id that validate, ``pool`` and the run readers would refuse (empty,
    whitespace, a control or bidirectional character, not NFC): the rule ``pool`` applies
    before it writes (:func:`labelpool.rules.written.doc_id_problem`)."""
    problem = doc_id_problem(doc)
    if problem is not None:
        raise ImportFailed(
            f"document id {doc!a} {problem}; nothing written",
            path=path,
            line=line,
            column=column,
        )


def read_text(path: Path) -> str:
    """The whole file as text (UTF-8, a BOM dropped); errors name the file."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ImportUsageError(f"cannot read: {exc.strerror or exc}", path=path) from None
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"not UTF-8 ({exc.reason} at byte {exc.start})", path=path) from None


def split_lines(text: str) -> list[tuple[int, str]]:
    """``(1-based line number, line)``, lines ended by ``\n`` (a ``\r`` before it dropped)
    and by nothing else: not by NEL, U+2028, a form feed or a lone CR, which
    ``str.splitlines`` also breaks at, so that line numbers are the ones an editor, git and
    trec_eval count, and such a character stays inside its field to be refused there."""
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [(n, line.removesuffix("\r")) for n, line in enumerate(parts, start=1)]


def lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(1-based line number, line)`` of a text file (:func:`split_lines`)."""
    yield from split_lines(read_text(path))


def json_object(line: str, path: Path, n: int) -> dict[str, Any]:
    """One JSON Lines record, which must be an object; errors name the line (and column)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ImportFailed(
            f"invalid JSON: {exc.msg}", path=path, line=n, column=exc.colno
        ) from None
    if not isinstance(record, dict):
        raise ImportFailed("expected a JSON object", path=path, line=n, column=1)
    return record
