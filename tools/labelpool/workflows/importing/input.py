"""What every importer shares: its errors, the reading of a text file by lines (bounded, as
runs are), and the checks of a question id, a document id, a question text and a grade before
anything is built from them: validate's own rules (:mod:`labelpool.rules.written`), asked of
each record so that the error names the input's file and line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool.errors import InputError, UsageError
from labelpool.labelfile import NewLabel
from labelpool.rules.written import doc_id_problem, grade_problem, text_problem
from labelpool.textlines import BOM, split_lines, too_long

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
GRADE_RE = re.compile(r"[+-]?[0-9]+", re.ASCII)  # as trec_eval's atoi reads one (no "1_000")
BLOCK_BYTES = 1 << 20
HEAD_BYTES = 1 << 16
SHOWN = 60  # an error quotes at most this many characters of a value


class ImportFailed(InputError):
    """Bad input; ``str()`` names the file and line (exit 1)."""


class ImportUsageError(UsageError, ImportFailed):
    """A command-line mistake: a file that cannot be read, a bad option (exit 2)."""


@dataclass(frozen=True)
class Origin:
    """Where a question came from: the input file and the line of its first record."""

    path: Path
    line: int


@dataclass(frozen=True)
class Judgments:
    """Questions read from an input: a label each, where each came from (the input file, the
    line of its first record: what an error names), and how many questions of the questions
    file had no judgment."""

    items: list[NewLabel]
    origins: dict[str, Origin]
    unanswered: int = 0


def case_clash(qid: str, other: str, path: Path, line: int | None = None) -> ImportFailed:
    """Two question ids that differ only by case: one label file would replace the other on
    a case-insensitive disk (macOS, Windows)."""
    return ImportFailed(
        f"question id {qid!r} differs only by case from {other}: on a case-insensitive disk "
        "one label file would replace the other; nothing written",
        path=path,
        line=line,
        column=None if line is None else 1,
    )


def check_id(qid: str, path: Path, line: int | None = None, column: int | None = None) -> None:
    """Refuse a question id outside the allowlist before any path is built from it."""
    if not ID_RE.fullmatch(qid):
        raise ImportFailed(
            f"question id {quoted(qid, repr)} is not allowed "
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
            f"document id {quoted(doc)} {problem}; nothing written",
            path=path,
            line=line,
            column=column,
        )


def check_text(text: str, what: str, path: Path, line: int, column: int = 1) -> None:
    """Refuse a question text validate would refuse (a control or bidirectional character, a
    lone surrogate: :func:`labelpool.rules.written.text_problem`)."""
    problem = text_problem(text)
    if problem is not None:
        raise ImportFailed(
            f"{what} {problem}; nothing written", path=path, line=line, column=column
        )


def grade_of(raw: str, path: Path, line: int, column: int) -> int:
    """A qrels grade: a decimal integer within LP042's bound
    (:func:`labelpool.rules.written.grade_problem`)."""
    if raw.isdigit() and len(raw) < 7 and raw.isascii():
        return int(raw)  # the common grade: within the bound
    if not GRADE_RE.fullmatch(raw):
        raise ImportFailed(
            f"grade {quoted(raw, repr)} is not an integer", path=path, line=line, column=column
        )
    digits = raw.lstrip("+-").lstrip("0")
    value = int(raw) if len(digits) <= 18 else (-1 if raw.startswith("-") else 1) * 10**18
    problem = grade_problem(value)
    if problem is not None:
        raise ImportFailed(
            f"grade {quoted(raw, str)} {problem}; nothing written",
            path=path,
            line=line,
            column=column,
        )
    return value


def quoted(value: str, show: Callable[[object], str] = ascii) -> str:
    """``show(value)`` (its quoted form), or that of its start and its length when it is long:
    an error quotes an id, not a MiB of it."""
    if len(value) <= SHOWN:
        return show(value)
    return f"{show(value[:SHOWN])}... ({len(value):,} characters)"


def read_text(path: Path) -> str:
    """The whole file as text (UTF-8, a BOM dropped); errors name the file. For a document
    read whole (a JSON list of questions); line files are read by :func:`lines`."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ImportUsageError(f"cannot read: {exc.strerror or exc}", path=path) from None
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"not UTF-8 ({exc.reason} at byte {exc.start})", path=path) from None


def head(path: Path) -> bytes:
    """The file's first :data:`HEAD_BYTES` (a BOM dropped): enough to tell its format."""
    try:
        with path.open("rb") as handle:
            return handle.read(HEAD_BYTES).removeprefix(BOM)
    except OSError as exc:
        raise ImportUsageError(f"cannot read: {exc.strerror or exc}", path=path) from None


def lines(path: Path, kind: str = "a text file") -> Iterator[tuple[int, str]]:
    """``(1-based line number, line)`` of every non-blank line of a UTF-8 text file (a BOM
    dropped), read in blocks by the run readers' line reader (:mod:`labelpool.textlines`):
    a line longer than its bound (1 MiB) is refused at its number before it is held whole
    (``kind``: what such a file is not). Lines end at ``\n`` (a ``\r`` before it dropped) and at
    nothing else: not at NEL, U+2028, a form feed or a lone CR, which ``str.splitlines``
    also breaks at, so that line numbers are the ones an editor, git and trec_eval count,
    and such a character stays inside its field to be refused there."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ImportUsageError(f"cannot read: {exc.strerror or exc}", path=path) from None
    with handle:

        def read() -> bytes:
            try:
                return handle.read(BLOCK_BYTES)
            except OSError as exc:
                raise ImportUsageError(f"cannot read: {exc.strerror or exc}", path=path) from None

        def refuse(n: int) -> ImportFailed:
            return ImportFailed(too_long(kind), path=path, line=n, column=1)

        for n, raw in split_lines(read, refuse, lone_cr=False):
            yield n, _decoded(raw, path, n).removesuffix("\r")


def _decoded(raw: bytes, path: Path, n: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
        raise ImportFailed(
            f"not UTF-8 (invalid byte 0x{raw[exc.start]:02X})", path=path, line=n, column=column
        ) from None


def joined(numbered: Iterable[tuple[int, str]]) -> str:
    """The text of the numbered lines, blank lines put back: a line keeps its number."""
    parts: list[str] = []
    last = 0
    for n, line in numbered:
        parts.append("\n" * (n - last - 1) + line + "\n")
        last = n
    return "".join(parts)


def json_object(line: str, path: Path, n: int) -> dict[str, Any]:
    """One JSON Lines record, which must be an object; errors name the line (and column)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ImportFailed(
            f"invalid JSON: {exc.msg}", path=path, line=n, column=exc.colno
        ) from None
    except (ValueError, RecursionError) as exc:  # an integer of 4,300 digits; deep nesting
        raise ImportFailed(f"invalid JSON: {_json_reason(exc)}", path=path, line=n) from None
    if not isinstance(record, dict):
        raise ImportFailed("expected a JSON object", path=path, line=n, column=1)
    return record


def _json_reason(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return "a number too long to read"
