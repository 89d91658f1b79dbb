"""The ``pending`` block of a label file: write a judging batch, read verdicts, drop resolved ones.

A batch is made for review on GitHub, where a reviewer changes one line per suggestion, so it
is written as text (not through a YAML dumper) in exactly this shape::

    pending:
      - batch: '2026-12-02-bm25+dense@20'
        systems:
          - bm25
          - dense
        depth: 20
        date: '2026-12-02'
        runs:                       # git blob id of each pooled run file
          bm25: 5f1c...
          dense: 9ab0...
        docs:
          # question: My parcel arrived damaged. Can I send it back?
          # text: Items damaged in transit may be returned within 30 days ...
          #       (long chunk text wrapped into comment lines of at most ~100 characters)
          - {doc: tenant-acme#returns, verdict: null}

``carried:`` (before ``docs``, only when there are some) names the documents of the pooled
union that an accepted class judges already, each with the judged member whose verdict the
class carries (``doc: member``, one a line): nobody is asked to judge them, and ``merge``
records their verdicts once the batch is resolved.

Each document is one line directly under its chunk text, so one diff hunk shows the question,
the text and the verdict. ``full_depth: {system: k}`` is added when a budget (``--max-docs``)
left part of a system's top ``depth`` out of the batch: ``k`` is the depth that the batch and
the judged set cover in full, the ``k`` its ``pool`` entry gets once the batch is merged.

Removing resolved entries is a text edit as well: the entry's line and the comment lines right
above it go (a ``# question:`` line stays with the batch), an emptied batch goes, and an
emptied ``pending`` key goes; every other line of the file is left as it was.
"""

from __future__ import annotations

import hashlib
import random
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from labelpool.errors import InputError
from labelpool.model import BatchHead, DuplicateOf, Verdict, _verdict
from labelpool.words import one_line
from labelpool.yamlfile import id_text, needs_quotes

TEXT_WIDTH = 100  # comment lines are wrapped at about this many characters
MAX_TEXT_CHARS = 4000  # longer chunk text is cut (and says so) to bound a batch's size
ENTRY_INDENT = 6
NOT_IN_CORPUS = "(not in the corpus)"


class BatchError(InputError):
    """A pending block cannot be read or edited (exit 1): ``path:line:col: message``."""


def batch_id(date: str, systems: Sequence[str], depth: int) -> str:
    """``2026-12-02-bm25+dense@20``."""
    return f"{date}-{'+'.join(systems)}@{depth}"


def quote(value: str) -> str:
    """``value`` as a YAML scalar safe in block and flow context under YAML 1.1 and 1.2."""
    return id_text(value)


_PLAIN_PERSON = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._'-]*? <[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+>$")


def judge_scalar(judge: str) -> str:
    """A judge as a YAML scalar: ``Name <email>`` plain where that reads back as itself in
    block and flow context, else as :func:`quote` writes it."""
    if _PLAIN_PERSON.match(judge) and "  " not in judge and not needs_quotes(judge):
        return judge
    return quote(judge)


def single_quoted(value: str) -> str:
    """``value`` always in single quotes (a batch id: system names may hold ``'``)."""
    return "'" + value.replace("'", "''") + "'"


def clean_text(text: str) -> str:
    """Text fit for one comment: controls, bidi and format characters become spaces."""
    return one_line(text)


def comment_lines(label: str, text: str, indent: int = ENTRY_INDENT) -> list[str]:
    """``# label: text`` wrapped into comment lines of about :data:`TEXT_WIDTH` characters."""
    text = clean_text(text)
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS].rstrip() + " [... cut by labelpool]"
    head = f"# {label}: "
    width = max(TEXT_WIDTH - indent - len(head), 20)
    parts = textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False)
    parts = parts or [""]
    pad = " " * indent
    lines = [f"{pad}{head}{parts[0]}".rstrip()]
    lines += [f"{pad}#{' ' * (len(head) - 1)}{p}" for p in parts[1:]]
    return lines


def seat_order(docs: Sequence[str], qid: str, batch: str, seat: int) -> tuple[str, ...]:
    """``docs`` in the order of one seat of a batch for several judges: shuffled with a seed
    from (question, batch, seat), so each judge reads them in another order, and a rerun
    writes the same one."""
    key = "\x00".join((qid, batch, str(seat))).encode("utf-8")
    seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    out = sorted(docs)
    random.Random(seed).shuffle(out)
    return tuple(out)


@dataclass(frozen=True)
class NewBatch(BatchHead):
    """What ``labelpool pool`` writes into one label file."""

    runs: Mapping[str, str]  # system -> blob id of its run file
    docs: tuple[str, ...]  # in review order
    full_depth: Mapping[str, int] | None = None  # only when a budget cut the batch
    task: str | None = None  # ``second-opinion`` or ``adjudicate`` (None: judge the pool)
    seat: int | None = None  # 1..N when the batch is for N > 1 judges
    judge: str | None = None  # the seat's judge (``--assign``), else whoever claims it
    # document -> judged member: the union's documents an accepted class judges already
    carried: Mapping[str, str] | None = None


def render(batch: NewBatch, question: str | None, texts: Mapping[str, str | None] | None) -> str:
    """The batch as the text of one item of the ``pending`` list (ends with a newline).

    ``question`` None leaves the question comment out; ``texts`` None leaves chunk text out
    (``--no-text``); a document missing from ``texts`` is said to be not in the corpus.
    """
    lines = [
        f"  - batch: {single_quoted(batch.batch)}",
        "    systems:" if batch.systems else "    systems: []",
        *(f"      - {quote(s)}" for s in batch.systems),
        f"    depth: {batch.depth}",
        f"    date: '{batch.date}'",
    ]
    if batch.runs:
        lines.append("    runs:")
        lines += [f"      {quote(s)}: {blob}" for s, blob in batch.runs.items()]
    if batch.full_depth is not None:
        lines.append("    full_depth:")
        lines += [f"      {quote(s)}: {k}" for s, k in batch.full_depth.items()]
    if batch.task is not None:
        lines.append(f"    task: {batch.task}")
    if batch.seat is not None:
        lines.append(f"    seat: {batch.seat}")
    if batch.judge is not None:
        lines.append(f"    judge: {judge_scalar(batch.judge)}")
    if batch.carried:
        lines.append("    carried:  # judged through their class: merge records the verdict")
        lines += [f"      {quote(d)}: {quote(m)}" for d, m in sorted(batch.carried.items())]
    lines.append("    docs:")
    if question is not None:
        lines += comment_lines("question", question)
    for doc in batch.docs:
        if texts is not None:
            text = texts.get(doc)
            lines += comment_lines("text", NOT_IN_CORPUS if text is None else text)
        lines.append(f"      - {{doc: {quote(doc)}, verdict: null}}")
    return "\n".join(lines) + "\n"


def _is_top_key(line: str) -> bool:
    return bool(line) and not line[0].isspace() and not line.startswith("#")


_PENDING_KEY = re.compile(r"pending\s*:")


def _pending_span(lines: list[str]) -> tuple[int, int] | None:
    """0-based ``[start, end)`` of the top-level ``pending`` key's lines (trailing blank and
    column-0 comment lines excluded), or None when the file has no ``pending`` key."""
    start = next(
        (i for i, ln in enumerate(lines) if ln.startswith("pending") and _PENDING_KEY.match(ln)),
        None,
    )
    if start is None:
        return None
    end = start + 1
    while end < len(lines) and not _is_top_key(lines[end]):
        end += 1
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    return start, end


def append(text: str, item: str) -> str:
    """``text`` with ``item`` (from :func:`render`) added as the last batch of ``pending``."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    span = _pending_span(lines)
    if span is None:
        return "".join(lines) + "pending:\n" + item
    start, end = span
    head = lines[start].split("#", 1)[0].strip()
    if head not in ("pending:", "pending: []", "pending: null", "pending: ~"):
        raise BatchError(
            "`pending` is not a block list; cannot add a batch",
            path="<text>",
            line=start + 1,
            column=1,
        )
    if head != "pending:":
        lines[start] = "pending:\n"
    return "".join(lines[:end]) + item + "".join(lines[end:])


@dataclass(frozen=True, slots=True)  # many thousands at once: no __dict__ each
class Entry:
    """One document of a pending batch, as read from a label file."""

    batch_index: int
    doc_index: int
    batch: str
    doc: str
    verdict: Verdict
    raw: Any  # the verdict as written (for messages)
    line: int  # 1-based line of the entry


@dataclass(frozen=True)
class PendingBatch:
    index: int
    batch: str
    systems: tuple[str, ...]
    depth: int
    date: str
    runs: Mapping[str, str]
    full_depth: Mapping[str, int]
    entries: tuple[Entry, ...]
    line: int
    seat: int | None = None  # the seat of a batch for several judges
    judge: str | None = None  # the seat's judge, when assigned or claimed
    task: str | None = None  # ``second-opinion`` or ``adjudicate``
    carried: Mapping[str, str] = field(default_factory=dict)  # document -> judged member

    @property
    def key(self) -> tuple[str, int | None]:
        """What names the entry in a file: its batch id and seat (unique per file)."""
        return (self.batch, self.seat)


def read(data: Any, path: str, line_of: Any) -> list[PendingBatch]:
    """Batches of a round-trip-loaded label (``line_of(keypath) -> 1-based line``)."""
    out: list[PendingBatch] = []
    pending = data.get("pending")
    if pending is None:
        return out
    if not isinstance(pending, list):
        raise BatchError(
            "`pending` is a list of batches", path=path, line=line_of(("pending",)), column=1
        )
    for bi, b in enumerate(pending):
        if not isinstance(b, Mapping) or not isinstance(b.get("docs") or [], list):
            raise BatchError(
                "a batch is a mapping with docs", path=path, line=line_of(("pending", bi)), column=1
            )
        entries = []
        for di, d in enumerate(b.get("docs") or ()):
            line = line_of(("pending", bi, "docs", di))
            if not isinstance(d, Mapping) or "doc" not in d:
                raise BatchError(
                    "a pending entry is `{doc: ID, verdict: ...}`", path=path, line=line, column=1
                )
            try:
                verdict = _verdict(d.get("verdict"))
            except ValueError as exc:
                raise BatchError(str(exc), path=path, line=line, column=1) from None
            raw = d.get("verdict")
            entries.append(
                Entry(bi, di, str(b.get("batch")), str(d["doc"]), verdict, raw, int(line))
            )
        out.append(
            PendingBatch(
                index=bi,
                batch=str(b.get("batch")),
                systems=tuple(str(s) for s in b.get("systems") or ()),
                depth=int(b.get("depth") or 0),
                date=str(b.get("date")),
                runs={str(k): str(v) for k, v in (b.get("runs") or {}).items()},
                full_depth={str(k): int(v) for k, v in (b.get("full_depth") or {}).items()},
                entries=tuple(entries),
                line=int(line_of(("pending", bi))),
                seat=_seat(b.get("seat")),
                judge=None if b.get("judge") is None else str(b.get("judge")),
                task=None if b.get("task") is None else str(b.get("task")),
                carried={str(k): str(v) for k, v in (b.get("carried") or {}).items()},
            )
        )
    return out


def _seat(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def remove(
    text: str, batches: Sequence[PendingBatch], drop: set[tuple[int, int]], path: str = "<text>"
) -> str:
    """``text`` without the entries ``(batch_index, doc_index)`` in ``drop`` and their comment
    lines; a batch left empty is removed whole, and ``pending`` too when no batch is left.

    ``batches`` are the positions read from ``text`` itself (:func:`read`).
    """
    if not drop:
        return text
    lines = text.splitlines(keepends=True)
    span = _pending_span(lines)
    if span is None:
        raise BatchError("no pending block to edit", path=path, line=1, column=1)
    start, end = span
    gone: set[int] = set()  # 0-based line numbers to delete
    left = [b for b in batches if any((b.index, e.doc_index) not in drop for e in b.entries)]
    if not left:
        gone.update(range(start, end))
    else:
        starts = sorted(b.line - 1 for b in batches)
        for b in batches:
            if b in left:
                continue
            b0 = b.line - 1
            later = [s for s in starts if s > b0]
            b1 = later[0] if later else end
            gone.update(range(b0, b1))
        for b in left:
            for e in b.entries:
                if (b.index, e.doc_index) not in drop:
                    continue
                i = e.line - 1
                _check_line(lines, e, path)
                gone.add(i)
                gone.update(_own_comments(lines, i, start))
    return "".join(ln for i, ln in enumerate(lines) if i not in gone)


def _own_comments(lines: list[str], i: int, floor: int) -> list[int]:
    """Comment lines above entry line ``i`` up to and including its ``# text:`` line (none when
    something else, or the batch's ``# question:``, comes first)."""
    out: list[int] = []
    j = i - 1
    while j > floor and lines[j].lstrip().startswith("#"):
        stripped = lines[j].lstrip()
        if stripped.startswith("# question:"):
            return []
        out.append(j)
        if stripped.startswith("# text:"):
            return out
        j -= 1
    return []


def relocate(
    old_text: str, new_text: str, batches: Sequence[PendingBatch], path: str = "<text>"
) -> list[PendingBatch]:
    """Positions of ``batches`` (read from ``old_text``) in ``new_text``, a rewrite that edited
    only lines outside the ``pending`` block (which must be byte-identical in both)."""
    old_lines = old_text.splitlines(keepends=True)
    new_lines = new_text.splitlines(keepends=True)
    old_span, new_span = _pending_span(old_lines), _pending_span(new_lines)
    if old_span is None or new_span is None:
        raise BatchError("the pending block disappeared in a rewrite", path=path, line=1, column=1)
    if old_lines[old_span[0] : old_span[1]] != new_lines[new_span[0] : new_span[1]]:
        raise BatchError(
            "the pending block changed in a rewrite", path=path, line=old_span[0] + 1, column=1
        )
    delta = new_span[0] - old_span[0]
    return [
        replace(
            b,
            line=b.line + delta,
            entries=tuple(replace(e, line=e.line + delta) for e in b.entries),
        )
        for b in batches
    ]


def _check_line(lines: list[str], e: Entry, path: str) -> None:
    body = re.split(r"\s+#", lines[e.line - 1].rstrip("\r\n"), maxsplit=1)[0].strip()
    if not (body.startswith("- {") and body.endswith("}")):
        raise BatchError(
            "a pending entry must be one line `- {doc: ID, verdict: ...}`",
            path=path,
            line=e.line,
            column=1,
        )


_ENTRY = re.compile(r"^(\s*- \{doc: .*?, verdict:)")


def first_change_beyond_verdicts(base: str, text: str) -> int | None:
    """The 1-based line of the first difference between ``base`` and ``text`` that is not a
    ``verdict:`` value on a pending entry line of ``base``; None when there is none (the two
    differ in such values only, or not at all)."""
    old, new = base.split("\n"), text.split("\n")
    span = _pending_span([ln + "\n" for ln in old])
    for i in range(max(len(old), len(new))):
        if i >= len(old) or i >= len(new):
            return min(i + 1, len(new))
        if old[i] == new[i]:
            continue
        a, b = _ENTRY.match(old[i]), _ENTRY.match(new[i])
        inside = span is not None and span[0] < i < span[1]
        if not (inside and a and b and a.group(1) == b.group(1)):
            return i + 1
    return None


def check_one_line(text: str, batches: Sequence[PendingBatch], path: str = "<text>") -> None:
    """Raise :class:`BatchError` at the first entry not written on one line of its own."""
    lines = text.splitlines()
    for b in batches:
        for e in b.entries:
            _check_line(lines, e, path)


# --- one entry's verdict and notes, edited in place (``labelpool judge``) ----------------------

CANT_JUDGE = "# can't judge:"
MAX_REASON_CHARS = 500


def verdict_token(verdict: Verdict) -> str:
    """``verdict`` as the token written after ``verdict:`` (ids quoted as :func:`render`)."""
    if verdict is None:
        return "null"
    if isinstance(verdict, DuplicateOf):
        return f"{{duplicate-of: {quote(verdict.doc)}}}"
    if isinstance(verdict, bool) or not isinstance(verdict, (int, str)):
        raise ValueError(f"not a verdict: {verdict!r}")
    if isinstance(verdict, int):
        if verdict < 0:
            raise ValueError(f"a grade is >= 0, not {verdict}")
        return str(verdict)
    if verdict not in ("relevant", "irrelevant"):
        raise ValueError(f"not a verdict: {verdict!r}")
    return verdict


def set_verdict(line: str, token: str) -> str:
    """The entry line ``line`` (``- {doc: ID, verdict: V}``, maybe with a trailing comment,
    no line end) with ``V`` replaced by ``token``; every other character kept. Raises
    :class:`ValueError` for a line not in the one-line layout ``pool`` writes."""
    head = _ENTRY.match(line)
    body = re.split(r"\s+#", line, maxsplit=1)[0].rstrip()
    if head is None or not body.endswith("}") or len(body) <= len(head.group(1)):
        raise ValueError("not a one-line pending entry `- {doc: ID, verdict: ...}`")
    return head.group(1) + " " + token + "}" + line[len(body) :]


def reason_line(reason: str, indent: int) -> str:
    """The ``# can't judge: REASON`` comment line (no line end): one line, cleaned, cut."""
    text = clean_text(reason)[:MAX_REASON_CHARS].rstrip() or "(no reason given)"
    return f"{' ' * indent}{CANT_JUDGE} {text}"


def reason_of(lines: Sequence[str], entry_line: int) -> str | None:
    """The can't-judge reason written right above the 1-based ``entry_line``, or None."""
    i = entry_line - 2
    if i < 0:
        return None
    above = lines[i].strip()
    if above.startswith(CANT_JUDGE):
        return above[len(CANT_JUDGE) :].strip()
    return None


def text_of(lines: Sequence[str], entry_line: int) -> str | None:
    """The chunk text of the ``# text:`` comment lines above the 1-based ``entry_line`` (as
    :func:`render` wrote it, continuation lines joined), or None when there is none."""
    found = _own_comments(
        [ln if ln.endswith("\n") else ln + "\n" for ln in lines], entry_line - 1, 0
    )
    parts: list[str] = []
    for j in sorted(found):
        stripped = lines[j].strip()
        if stripped.startswith(CANT_JUDGE):
            continue
        if stripped.startswith("# text:"):
            parts = [stripped[len("# text:") :].strip()]
        elif parts:
            parts.append(stripped.lstrip("#").strip())
    return " ".join(p for p in parts if p) if parts else None
