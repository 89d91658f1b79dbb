"""What labelpool writes into a label file, validate accepts: the checks before a write.

``pool`` writes document ids from run files and a batch that can be long; before anything is
written it asks :func:`doc_id_problem` of every document (a clear message naming it) and
:func:`first_new_error` of every new file text (the size bound, then the text rules, the
schema, LP042 and LP035's self-duplicate; every per-file rule when one of those fails: the
net under the first check). The judging page asks :func:`first_new_error` of every verdict
it writes. ``import`` and ``add`` ask the same of every record they read, and
:func:`text_problem` of a question text, :func:`grade_problem` of a grade, so that the
message names the input's line; the net then runs on every text before anything is written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from labelpool.findings import Finding
from labelpool.limits import GRADE_MAX
from labelpool.rules import bounds, judges, linebreaks, pending, seats
from labelpool.rules import schema as schema_rule
from labelpool.rules.check import check_bytes
from labelpool.yamlfile import YamlError, loads_checked, text_findings
from labelpool.yamlfile.textcheck import BIDI_RE, CONTROL_OR_BIDI_RE, CONTROL_RE, char_name

# a new batch waits for its verdicts, a proposal for review (--allow-pending)
ALLOWED_NEW = frozenset({"LP034", "LP062"})
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def doc_id_problem(doc: str) -> str | None:
    """Why validate would refuse ``doc`` as a document id in a label file, or None.

    Empty or holding whitespace (LP020: the schema's pattern; a no-break space, U+2028, a
    lone CR and U+FEFF, whitespace to ECMA-262's regular expressions, too), a control or
    surrogate character (LP003), a bidirectional control (LP004), not in NFC (LP024)."""
    if not doc:
        return "is empty"
    if doc.isascii() and doc.isprintable() and " " not in doc:
        return None  # no whitespace, control or bidi character; ASCII is NFC (most ids)
    for ch in doc:
        if ch.isspace() or ch == "\ufeff":
            return f"holds whitespace {char_name(ch)} (LP020: a document id has none)"
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs"):
            return f"holds the control character {char_name(ch)} (LP003)"
        if BIDI_RE.match(ch):
            return f"holds the bidirectional control {char_name(ch)} (LP004)"
    if not unicodedata.is_normalized("NFC", doc):
        return "is not in Unicode NFC form (LP024)"
    return None


def text_problem(text: str) -> str | None:
    """Why validate would refuse ``text`` as a string value in a label file (a question, a
    system name), or None: a control character (LP003, the text rule's set: C0 but tab, LF and
    CR, DEL, C1), a bidirectional control (LP004), a lone surrogate (no UTF-8 can hold it,
    LP002). The writer would write such a character as a YAML escape; validate refuses the
    value it stands for as it refuses the raw character."""
    if text.isascii() and text.isprintable():
        return None  # the common case: no control character, no bidi, no surrogate
    bad = CONTROL_OR_BIDI_RE.search(text)
    if bad is not None:
        ch = bad.group()
        if CONTROL_RE.match(ch):
            return f"holds the control character {char_name(ch)} (LP003)"
        return f"holds the bidirectional control {char_name(ch)} (LP004)"
    surrogate = _SURROGATE_RE.search(text)
    if surrogate is not None:
        return f"holds the lone surrogate {char_name(surrogate.group())}: not UTF-8 (LP002)"
    return None


def grade_problem(grade: int) -> str | None:
    """Why LP042 would refuse ``grade`` (an integer from a qrels line), or None: outside
    ``-GRADE_MAX .. GRADE_MAX`` (:mod:`labelpool.limits`, the bound the rule reads)."""
    if -GRADE_MAX <= grade <= GRADE_MAX:
        return None
    bound = GRADE_MAX if grade > 0 else -GRADE_MAX
    return f"is beyond the bound {bound} (LP042)"


def _errors(raw: bytes, schema_file: Path, max_bytes: int, max_depth: int) -> list[Finding]:
    result = check_bytes(raw, schema_file, max_bytes=max_bytes, max_depth=max_depth)
    return [f for f in result.findings if f.severity == "error" and f.rule not in ALLOWED_NEW]


def _looks_valid(raw: bytes, data: Any, schema_file: Path, max_bytes: int, max_depth: int) -> bool:
    """The cheap checks of a new text: the text rules (LP001-LP006, LP041), then the plain
    data (read here unless given) against the schema, LP042 and LP035's document as its own
    duplicate (which the schema cannot see). A yes is final; a no is looked at by every
    per-file rule (:func:`first_new_error`)."""
    found, text = text_findings(Path(""), raw, max_bytes)
    if text is None or any(f.severity == "error" for f in found) or linebreaks.check(raw):
        return False
    if data is None:
        try:
            data = loads_checked(raw, max_bytes=max_bytes, max_depth=max_depth)
        except YamlError:
            return False
    return _fits(schema_rule.fast_check(schema_file), data)


def first_new_error(
    old: str | None,
    new: str,
    *,
    schema_file: Path,
    max_bytes: int,
    max_depth: int,
    data: Any = None,
) -> Finding | None:
    """The first error validate's per-file rules report on ``new`` and not on ``old`` (the
    file before the write; None for a new file), by rule and message: a write never adds
    a problem, and a file with one already is not refused for it. None when there is none.

    A text over ``max_bytes`` is LP001 at once. ``data``: ``new`` already read (the caller's
    read-back), spares reading it again. A text that passes the text rules, the schema and
    LP042 is taken at once (about 0.1 ms); only one that does not is looked at by every
    per-file rule (a few ms), old and new, to name the first new error."""
    raw = new.encode("utf-8", "surrogatepass")
    if len(raw) > max_bytes:
        return _too_large(raw, max_bytes)
    if _looks_valid(raw, data, schema_file, max_bytes, max_depth):
        return None
    found = _errors(raw, schema_file, max_bytes, max_depth)
    if not found or old is None:
        return found[0] if found else None
    before: dict[tuple[str, str], int] = {}
    for f in _errors(old.encode("utf-8", "surrogatepass"), schema_file, max_bytes, max_depth):
        before[(f.rule, f.message)] = before.get((f.rule, f.message), 0) + 1
    for f in found:
        key = (f.rule, f.message)
        if before.get(key, 0) > 0:
            before[key] -= 1
            continue
        return f
    return None


def first_error_of_new(
    news: Sequence[tuple[str, Any]],
    *,
    schema_file: Path,
    max_bytes: int,
    max_depth: int,
) -> tuple[int, Finding] | None:
    """:func:`first_new_error` of many new files (``import``'s): the index and first error of
    the first text validate would refuse, or None. ``news``: ``(text, data)``, ``data`` what
    the text reads as when the caller knows it (else None: it is read).

    The text rules (LP003-LP006, LP041) read every text within the size bound in one pass,
    joined (each ended by a newline, so that a character, a line start and a line break are
    what they are in the file alone): per file they would cost about as much as the writing.
    A text over the bound, one whose data is not known or fails the schema or LP042, and
    every text once the joined pass finds anything, goes through :func:`first_new_error`."""
    raws: list[bytes] = []
    within: list[bool] = []  # a text over the bound is left to first_new_error (LP001)
    for text, _ in news:
        raw = text.encode("utf-8", "surrogatepass")
        within.append(len(raw) <= max_bytes)
        if within[-1]:
            raws.append(raw if raw.endswith(b"\n") else raw + b"\n")
    joined = b"".join(raws)
    found_in_text, decoded = text_findings(Path(""), joined, len(joined))
    clean = (
        decoded is not None
        and not found_in_text
        and not joined.startswith(b"%")
        and b"\n%" not in joined
        and not linebreaks.check(joined)
    )
    fast = schema_rule.fast_check(schema_file)
    for i, (text, data) in enumerate(news):
        if clean and within[i] and data is not None and _fits(fast, data):
            continue
        found = first_new_error(
            None, text, schema_file=schema_file, max_bytes=max_bytes, max_depth=max_depth, data=data
        )
        if found is not None:
            return i, found
    return None


def _too_large(raw: bytes, max_bytes: int) -> Finding:
    return Finding(
        "", 1, 1, "LP001", f"the file would have {len(raw)} bytes; the bound is {max_bytes}"
    )


def _fits(fast: Any, data: Any) -> bool:
    """The data passes the schema, LP042, LP035's self-duplicate, the record's errors
    (LP043-LP046) and the seats' (LP048-LP049) (the data half of :func:`_looks_valid`)."""
    try:
        valid = bool(fast(data))
    except (ValueError, TypeError):  # a value JSON cannot hold (a date): not valid
        return False
    if not valid or bounds.first_violation(data) is not None:
        return False
    if next(pending.self_duplicates(data), None) is not None:
        return False
    if seats.has_seats(data) and seats.problems(data):
        return False
    return not judges.has_record(data) or judges.first_error(data) is None
