"""``labelpool fmt``: bring label files into canonical form (order, quoting, block style)."""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from labelpool import atomic, repolock
from labelpool.labelfile import format_label
from labelpool.rules import linebreaks
from labelpool.words import counted
from labelpool.yamlfile import (
    CommentedMap,
    Document,
    YamlError,
    dumps,
    guard,
    load_roundtrip,
    loads_roundtrip,
)


@dataclass(frozen=True)
class FmtResult:
    changed: tuple[Path, ...]  # rewritten (or, with check, would be)
    unchanged: tuple[Path, ...]
    errors: tuple[str, ...]  # ``path:line:col: RULE message`` of files that cannot be read


def format_file(path: Path, *, check: bool = False) -> bool:
    """Format ``path`` in place (atomic write); True when it changed (would change, ``check``)."""
    try:
        special = not stat.S_ISREG(path.stat().st_mode) and not path.is_dir()
    except OSError:
        special = False  # reading it reports the problem
    if special:  # a FIFO would block the read
        raise YamlError(str(path), 1, 1, "LP015", "not a regular file")
    doc, before = _load(path)
    format_label(doc.data, doc.text)
    text = dumps(doc.data, check=False)  # what fmt cannot repair, validate reports in place
    if text == before:
        return False
    if path.is_symlink():
        raise YamlError(str(path), 1, 1, "LP037", "symlink; format the file itself")
    if not check:
        atomic.write_text(path, text)
    return True


def _load(path: Path) -> tuple[Document, str]:
    """The round-trip document to format and the file's text as it is. A lone CR, U+2028 or
    U+2029 (LP041) inside a value, or before the end of its git line, is read as a space;
    one anywhere else is a :class:`YamlError` at its place (what was meant is unknown).
    Loaded with ``repair=True``: fmt quotes the ambiguous scalars every other command refuses
    (LP021)."""
    try:
        raw = path.read_bytes()
    except OSError:
        raw = b""  # the load below reports it
    if not linebreaks.may_hold(raw):
        doc = load_roundtrip(path, repair=True)
        return doc, doc.text
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        doc = load_roundtrip(path, repair=True)  # reports LP002
        return doc, doc.text
    fixed = linebreaks.fix(text)
    if fixed.left:
        f = fixed.left[0]
        raise YamlError(str(path), f.line, f.col, f.rule, f.message)
    if not fixed.replaced:
        doc = load_roundtrip(path, repair=True)
        return doc, doc.text
    findings = guard(path, fixed.text.encode("utf-8"))
    if findings:
        raise YamlError.from_finding(findings[0])
    data = loads_roundtrip(fixed.text, path, repair=True)
    if not isinstance(data, CommentedMap):
        raise YamlError(str(path), 1, 1, "LP015", "the file is not a YAML mapping")
    return Document(path=path, data=data, text=fixed.text), text


def fmt(paths: list[Path], *, check: bool = False, wait: float = 0.0) -> FmtResult:
    """Format every file of ``paths`` (``check``: change nothing, say which would change).
    Writing takes the lock of each repository holding them (``wait``: seconds to wait for
    another writer) before any is read, and refuses a folder it cannot write before the
    first write."""
    if check:
        return _fmt(paths, check=True)
    folders = sorted({p.parent for p in paths})
    with repolock.held(*folders, command="labelpool fmt", wait=wait):
        atomic.refuse_unwritable(folders)
        return _fmt(paths, check=False)


def _fmt(paths: list[Path], *, check: bool) -> FmtResult:
    changed: list[Path] = []
    unchanged: list[Path] = []
    errors: list[str] = []
    for path in paths:
        try:
            (changed if format_file(path, check=check) else unchanged).append(path)
        except YamlError as exc:
            errors.append(str(exc))
        except OSError as exc:
            if not changed:
                raise
            done = f"reformatted before it: {counted(len(changed), 'file')}, the rest not"
            raise repolock.failed(exc, done) from None
    return FmtResult(tuple(changed), tuple(unchanged), tuple(errors))
