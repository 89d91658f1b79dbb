"""The one reading of a label file: its bytes -> plain data, the same for every command.

YAML 1.1 (PyYAML) and YAML 1.2 (ruamel) read some plain scalars differently: ``0o17`` is the
string ``0o17`` in one and 15 in the other; ``no`` is False or ``"no"``; ``017``, ``1_000``,
``1e3``, dates... Every command reads label files through this module (the working tree, git
revisions, the round-trip editor checked against it), and it takes a plain scalar as

* a string when every reader (PyYAML's resolver, ruamel's YAML 1.1 and 1.2 resolvers) takes it
  as a string;
* an integer, a number or null when it is written in the one form every reader reads alike
  (:data:`CANONICAL`: ``20``, ``-1``, ``0``, ``0.86``, ``null``, ``~``, nothing) and is not
  a key;
* anything else is *ambiguous*: the file is refused with LP021 at that scalar, the very
  finding ``labelpool validate`` reports there (:func:`ambiguous_finding`).

So two commands can never see two values for one scalar: a file reads one way, or not at all.
Quoted and block scalars are strings in every reader. The guard's checks (LP001-LP015) run
first, as before; a collection used as a mapping key is refused (LP039).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labelpool.findings import Finding
from labelpool.yamlfile.canonical import NotCanonical, read_canonical
from labelpool.yamlfile.errors import UnwritableError, YamlError
from labelpool.yamlfile.events import scan_events
from labelpool.yamlfile.fast import ODD, KeyPath
from labelpool.yamlfile.quoting import misread
from labelpool.yamlfile.textcheck import MAX_BYTES, MAX_DEPTH, text_findings

# Plain scalars that mean the same in YAML 1.1 and 1.2 and are the only non-strings a label
# needs (`k: 20`, `verdict: 2`, `k: null`, a proposed class's `score: 0.86`: digits, a point,
# digits, a float in every resolver).
CANONICAL = re.compile(r"(-?(0|[1-9][0-9]*)(\.[0-9]+)?|null|~|)\Z")
# Plain scalars any YAML 1.1 or 1.2 resolver might read as a non-string start like this
# (numbers, dates, sexagesimals, .inf/.nan, ~, =, <<, !, &, *, y/n, yes/no, on/off, true/false,
# null); every other plain scalar is a string for every reader and skips the checks.
SUSPECT = re.compile(
    r"[-+.0-9~=<!&*]|(?:[yYnN]|[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|[tT]rue"
    r"|TRUE|[fF]alse|FALSE|[nN]ull|NULL)\Z|\Z"
)
_NULLS = frozenset({"", "~", "null"})
LP021 = "LP021"
LP042 = "LP042"
# Python's int() refuses text of over 4,300 digits; LP042 bounds every number a label holds
# far below this, so a longer plain integer is refused where it stands, never converted.
MAX_INT_CHARS = 4000
MAX_POSITION_BYTES = 1 << 62  # text already guarded by the caller: no size bound again


def is_ambiguous(text: str, is_key: bool = False) -> bool:
    """Whether the plain scalar ``text`` is read differently by some YAML reader (LP021)."""
    if not SUSPECT.match(text):
        return False
    if not is_key and CANONICAL.match(text):
        return len(text) > MAX_INT_CHARS
    return misread(text)


def is_huge_integer(text: str, is_key: bool = False) -> bool:
    """A plain integer too long to convert (the reading refuses it as out of bounds)."""
    return not is_key and len(text) > MAX_INT_CHARS and bool(CANONICAL.match(text))


def value_of(text: str, is_key: bool = False) -> Any:
    """The one value of a plain scalar that :func:`is_ambiguous` accepts: an ``int``, a
    ``float`` or None for the canonical forms of a value, else the string written."""
    if is_key or not CANONICAL.match(text):
        return text
    if text in _NULLS:
        return None
    return float(text) if "." in text else int(text)


def dotted(keypath: KeyPath) -> str:
    """``pool[0].date`` for ("pool", 0, "date")."""
    out = ""
    for step in keypath:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top level)"


def ambiguous_finding(keypath: KeyPath, text: str, line: int, col: int, path: str = "") -> Finding:
    """The LP021 finding for the ambiguous plain scalar ``text`` at ``keypath`` (a key's path
    ends in ``"<key>"``): what validate lists and what every reader refuses the file with."""
    is_key = keypath[-1:] == ("<key>",)
    where = dotted(keypath[:-1]) + " (key)" if is_key else dotted(keypath)
    if is_huge_integer(text, is_key):
        return Finding(
            path,
            line,
            col,
            LP042,
            f"{where}: an integer of {len(text.lstrip('-')):,} digits is out of bounds "
            "(a label's numbers are at most 1,000,000,000)",
        )
    return Finding(
        path,
        line,
        col,
        LP021,
        f"{where}: plain {text} is read as a non-string by YAML 1.1 or 1.2 readers; quote it "
        f"('{text}') or run `labelpool fmt`",
    )


@dataclass
class Reading:
    """What the one reading found in a text: the guard's event findings, the data, and the
    ambiguous plain scalars as (keypath, event) (``event.value``, ``event.start_mark``).

    ``data`` is meaningful only without findings; an ambiguous scalar holds what YAML 1.2
    core makes of it (validate's schema check runs on it; no command ever uses it). ``top``:
    each top-level key -> [start mark of the key, of its value] (None when the text was read
    line by line). ``complex_key``: the start mark of a collection used as a key."""

    findings: list[Finding]
    data: Any = None
    ambiguous: list[tuple[KeyPath, Any]] = field(default_factory=list)
    top: dict[str, list[Any]] | None = None
    complex_key: Any = None

    def error(self, path: str) -> YamlError | None:
        """The error the file is refused with (None: it reads): the guard's first finding, a
        collection as a key, else the first ambiguous scalar."""
        if self.findings:
            return YamlError.from_finding(self.findings[0])
        if self.complex_key is not None:
            mark = self.complex_key
            return YamlError(
                path, mark.line + 1, mark.column + 1, "LP039", "a mapping key must be a scalar"
            )
        if self.ambiguous:
            keypath, event = min(
                self.ambiguous, key=lambda a: (a[1].start_mark.line, a[1].start_mark.column)
            )
            mark = event.start_mark
            f = ambiguous_finding(keypath, event.value, mark.line + 1, mark.column + 1, path)
            return YamlError.from_finding(f)
        return None


def _strict_plain(text: str, is_key: bool) -> Any:
    """``read_canonical``'s resolver: an ambiguous scalar leaves the file to the event pass,
    which says where it is."""
    if is_ambiguous(text, is_key):
        raise NotCanonical
    return value_of(text, is_key)


def core_value(text: str) -> Any:
    """What YAML 1.2 core makes of a plain scalar (null, bool, int, float, str)."""
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT12.match(text):
        return int(text) if len(text) <= MAX_INT_CHARS else text
    if _FLOAT12.match(text):
        return float(text)
    return text


_INT12 = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT12 = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")


def read_text(where: str, text: str, max_depth: int = MAX_DEPTH) -> Reading:
    """The one reading of guarded text (:func:`text_findings` accepted it): the block style
    labelpool writes line by line (``read_canonical``), anything else in one pass over the
    libyaml events (:func:`read_events`); plain scalars resolved as the module doc says."""
    data = read_canonical(text, max_depth, suspect=SUSPECT.match, plain=_strict_plain)
    if data is not ODD:
        return Reading([], data)
    return read_events(where, text, max_depth)


def read_events(where: str, text: str, max_depth: int = MAX_DEPTH) -> Reading:
    """:func:`read_text` through libyaml's events alone (the line reader is held to it)."""
    ambiguous: list[tuple[KeyPath, Any]] = []

    def on_plain(event: Any, keypath: KeyPath, is_key: bool) -> Any:
        value = event.value
        if is_ambiguous(value, is_key):
            ambiguous.append((keypath, event))
            return value if is_key else core_value(value)
        return value_of(value, is_key)

    result = scan_events(
        where, text, max_depth, suspect=SUSPECT.match, on_plain=on_plain, paths=True
    )
    return Reading(result.findings, result.data, ambiguous, result.top, result.complex_key)


def loads(
    raw: bytes,
    path: Path | str = "<string>",
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Plain data of one YAML file's bytes, the one reading; raises :class:`YamlError`: the
    guard's first finding, or LP021 at the first plain scalar YAML readers read differently."""
    where = str(path)
    found, text = text_findings(Path(where), raw, max_bytes)
    if found or text is None:
        raise YamlError.from_finding(found[0])
    reading = read_text(where, text, max_depth)
    error = reading.error(where)
    if error is not None:
        raise error
    return reading.data


def loads_text(text: str, path: Path | str = "<string>", *, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`loads` of text a caller has already guarded (no size bound again)."""
    return loads(text.encode("utf-8"), path, max_bytes=MAX_POSITION_BYTES, max_depth=max_depth)


def loads_written(text: str, path: Path | str = "<output>", *, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`loads_text` of text a writer is about to write: a refusal is an
    :class:`UnwritableError` citing the file it would become, never a position in it (the
    text is not on disk; the message says the line)."""
    try:
        return loads_text(text, path, max_depth=max_depth)
    except YamlError as exc:
        raise UnwritableError.from_error(exc) from None


def same(a: Any, b: Any) -> bool:
    """Equal, with equal types all the way down (``True`` is not ``1``, ``1`` not ``1.0``)."""
    return first_difference(a, b) is None


def first_difference(a: Any, b: Any, keypath: KeyPath = ()) -> KeyPath | None:
    """The keypath of the first place where ``a`` and ``b`` differ in value or type (None:
    nowhere); a mapping's key order does not count, a list's order does."""
    if type(a) is not type(b):
        return keypath
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return keypath
        for k in a:
            found = first_difference(a[k], b[k], (*keypath, k))
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return keypath
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, (*keypath, i))
            if found is not None:
                return found
        return None
    if a != b and not (a != a and b != b):  # nan is nan
        return keypath
    return None
