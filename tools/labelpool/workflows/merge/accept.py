"""Accepted proposals credited to their reviewer: the class rewritten in the accepted form.

A proposed class (``labelfile/classes.py``) is accepted by deleting its ``proposed:`` line.
``merge`` finds each class in the mapping form with no ``proposed`` left, looks in the file's
history (one ``git log -p`` of the file, newest first) for the commit that deleted the line
right under its ``members`` line, and rewrites the class into the accepted list form in a
commit authored by that commit's author (its ``Co-authored-by:`` trailers kept: a GitHub
suggestion is committed by whoever clicked, with the reviewer as co-author), so that ``git
blame`` on the class names the reviewer, as it names a judge on a verdict. The proposal's
comment line above the class goes with it. An accepted extension (``extends: MEMBER`` under
its ``members``) is folded into the class holding MEMBER in the same commit: its members are
written into that class (:func:`labelpool.labelfile.accepted.extend_classes`, every other
entry kept) and the entry, with its comment line, removed. A class whose deletion is not
committed, or whose history does not say who deleted the line, is left as written (it is a
class all the same) and named in a note; so is a stale extension, whose MEMBER no accepted
class holds any longer or whose members another class holds (validate refuses it: LP064,
LP030), with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from labelpool import gitio, yamlfile
from labelpool.labelfile.accepted import extend_classes
from labelpool.labelfile.classes import quote
from labelpool.labelindex import blobids
from labelpool.rules import classes as classes_mod
from labelpool.workflows.audit import attribution
from labelpool.workflows.merge.fold import Judge
from labelpool.workflows.validate.warm import LABEL_SUFFIXES

_MEMBERS = re.compile(r"^( *)- members: (\[[^\n]*\])[ ]*\n\Z")
_EXTENDS = re.compile(r"^( *)extends: ([^\n]*)\n\Z")
_PROPOSED = re.compile(r"^( *)proposed: ")


@dataclass(frozen=True)
class Accepted:
    """The accepted classes one reviewer's commit rewrites: the new text of each file."""

    reviewer: Judge
    texts: Mapping[Path, str]
    classes: int


def _extends_at(lines: list[str], i: int) -> str | None:
    """The ``extends:`` line right under the ``- members:`` line ``i`` (None: none)."""
    m = _MEMBERS.match(lines[i])
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    e = _EXTENDS.match(nxt)
    if m is None or e is None or len(e.group(1)) != len(m.group(1)) + 2:
        return None
    return nxt


def accepted_lines(text: str) -> list[int]:
    """0-based lines of the ``- members: [...]`` entries (and ``extends:``, an extension)
    without a ``proposed:`` line."""
    lines = text.splitlines(keepends=True)
    out = []
    for i, line in enumerate(lines):
        m = _MEMBERS.match(line)
        if m is None:
            continue
        after = i + 2 if _extends_at(lines, i) is not None else i + 1
        nxt = lines[after] if after < len(lines) else ""
        inner = len(m.group(1)) + 2
        if nxt.startswith(" " * inner) and nxt[inner : inner + 1].strip():
            continue  # another key of the mapping (``proposed:``, or one unknown to us)
        out.append(i)
    return out


def rewrite(text: str, at: Iterable[int], path: Path | str = "<label>") -> str:
    """``text`` with the classes at ``at`` (from :func:`accepted_lines`) in the list form,
    their ``# proposed:`` comment line dropped; the extensions among them folded into their
    classes (see the module; a stale one is a ``ValueError``: :func:`stale`)."""
    lines = text.splitlines(keepends=True)
    joins: list[tuple[str, list[str]]] = []
    for i in sorted(at, reverse=True):
        m = _MEMBERS.match(lines[i])
        assert m is not None
        pad = m.group(1)
        members = yamlfile.loads_fast(f"m: {m.group(2)}\n")["m"]
        extends = _extends_at(lines, i)
        start = i - 1 if i and lines[i - 1].startswith(f"{pad}# proposed:") else i
        if extends is not None:
            target = yamlfile.loads_fast(f"e: {extends.strip()[len('extends:') :]}\n")["e"]
            joins.append((str(target), [str(d) for d in members]))
            lines[start : i + 2] = []
            continue
        new = [f"{pad}- - {quote(str(members[0]))}\n"]
        new += [f"{pad}  - {quote(str(d))}\n" for d in members[1:]]
        lines[start : i + 1] = new
    out = "".join(lines)
    if not joins:
        return out
    data = yamlfile.loads_roundtrip(out, path)
    extend_classes(data, joins[::-1])
    return yamlfile.dumps(data, path=path)


def stale(text: str, i: int) -> str | None:
    """Why the accepted entry at line ``i`` of ``text`` cannot be folded (an extension whose
    member no accepted class holds, or whose members another class holds), else None."""
    if _extends_at(text.splitlines(keepends=True), i) is None:
        return None
    raw = yamlfile.loads_roundtrip(text).get("relevant_classes")
    every = list(classes_mod.entries(raw))
    here = next(
        (e for e, item in zip(every, raw, strict=True) if getattr(item.lc, "line", None) == i),
        None,
    )
    if here is None or here.extends is None:
        return "an extension this reading cannot find"
    home = classes_mod.extended(every, here)
    if home is None:
        return f"it extends {here.extends}, which no accepted class holds any longer (LP064)"
    for e in every:
        taken = set(map(str, e.members)).intersection(map(str, here.members))
        if e.index not in (here.index, home.index) and taken:
            return f"{', '.join(sorted(taken))} also in relevant_classes[{e.index}] (LP030)"
    return None


def deleted_by(
    top: Path, rel: str, members_line: str, extends_line: str | None = None
) -> str | None:
    """The newest commit whose diff of ``rel`` deleted a ``proposed:`` line right under
    ``members_line`` (an extension: under ``extends_line``, right under ``members_line``)
    (None: none did)."""
    commit = None
    wanted = [b" " + members_line.encode("utf-8")]
    if extends_line is not None:
        wanted.append(b" " + extends_line.encode("utf-8"))
    before: list[bytes] = [b"", b""]
    args = ["log", "--format=%x01%H", "-p", *gitio.PATCH_OPTIONS, "-U2", "--", rel]
    with gitio.stream(top, *args) as out:
        for raw in out:
            if raw.startswith(b"\x01"):
                commit = raw[1:].strip().decode()
            elif (
                raw.startswith(b"-")
                and before[-len(wanted) :] == wanted
                and _PROPOSED.match(raw[1:].decode())
            ):
                return commit
            before = [before[-1], raw]
    return None


def gather(
    labels_dir: Path,
    top: Path,
    base: str,
    current: Mapping[Path, str],
    read: Mapping[Path, str] | None = None,
) -> tuple[dict[Path, str], list[str]]:
    """The label files at ``base`` that may hold an accepted class in the mapping form, as
    ``current`` has them (else as the working tree does); a file changed since ``base`` is
    left out, with a note: a deletion not committed has no reviewer yet. ``read``: the
    working tree's text of the files the caller has read already (not read again)."""
    now: dict[Path, str] | None = None  # ``current`` by resolved path, when first needed
    rel_dir = labels_dir.resolve().relative_to(top.resolve()).as_posix()
    held = {str(p): t for p, t in (read or {}).items()}
    texts: dict[Path, str] = {}
    notes: list[str] = []
    for rel, (_mode, blob) in sorted(gitio.tree_entries(top, base, rel_dir).items()):
        if not rel.endswith(tuple(LABEL_SUFFIXES)):
            continue
        disk = held.get(str(top / rel))
        if disk is None:
            try:
                disk = (top / rel).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        if "- members:" not in disk or not accepted_lines(disk):
            continue  # most files: no path resolved
        path = (top / rel).resolve()
        if now is None:
            now = {p.resolve(): t for p, t in current.items()}
        if blobids.blob_id_like(disk, blob) != blob:
            notes.append(f"{rel}: changed since the last commit; its accepted classes wait")
            continue
        texts[path] = now.get(path, disk)
    return texts, notes


def find(top: Path, base: str, texts: Mapping[Path, str]) -> tuple[list[Accepted], list[str]]:
    """Each reviewer's rewrite of the accepted classes in ``texts`` (label files as
    :func:`gather` gives them), and notes."""
    notes: list[str] = []
    found: dict[str, list[tuple[Path, int]]] = {}
    for path, text in sorted(texts.items()):
        if "- members:" not in text:
            continue
        rel = path.resolve().relative_to(top.resolve()).as_posix()
        lines = text.splitlines(keepends=True)
        for i in accepted_lines(text):
            why = stale(text, i)
            if why is not None:
                notes.append(f"{rel}:{i + 1}: an accepted extension left as written: {why}")
                continue
            commit = deleted_by(top, rel, lines[i], _extends_at(lines, i))
            if commit is None:
                notes.append(f"{rel}:{i + 1}: an accepted class whose reviewer git does not name")
                continue
            found.setdefault(commit, []).append((path, i))
    authors = attribution.authors_of(top, found)
    by_judge: dict[Judge, dict[Path, list[int]]] = {}
    for commit, places in found.items():
        a = authors[commit]
        judge = Judge(a.name, a.email, co_authors=a.co_authors, commit=commit)
        for path, i in places:
            by_judge.setdefault(judge, {}).setdefault(path, []).append(i)
    out: list[Accepted] = []
    current = dict(texts)
    for judge in sorted(by_judge):
        changed = {}
        for path, at in by_judge[judge].items():
            # lines of a file another reviewer rewrote first moved: find them again
            moved = _again(texts[path], current[path], at)
            current[path] = changed[path] = rewrite(current[path], moved, path)
        out.append(Accepted(judge, changed, sum(map(len, by_judge[judge].values()))))
    return out, notes


def _again(original: str, now: str, at: list[int]) -> list[int]:
    """The lines of the entries ``at`` of ``original`` in ``now`` (same ``members`` text, and
    ``extends`` line for an extension)."""
    if original == now:
        return at
    olines, nlines = original.splitlines(keepends=True), now.splitlines(keepends=True)
    wanted = {(olines[i], _extends_at(olines, i)) for i in at}
    return [i for i in accepted_lines(now) if (nlines[i], _extends_at(nlines, i)) in wanted]


def message(reviewer: Judge, classes: int, files: int) -> str:
    """The commit message of one reviewer's accepted classes."""
    lines = [
        f"labelpool merge: {classes} proposed class{'es' if classes != 1 else ''} accepted "
        f"by {reviewer.name}",
        "",
        f"Reviewer: {reviewer}. The classes whose `proposed:` line they deleted (commit "
        f"{reviewer.commit[:12]}) are written in the accepted form in {files} label "
        f"file{'s' if files != 1 else ''}; scoring uses them.",
    ]
    if reviewer.co_authors:
        lines.append("")
        lines += [f"Co-authored-by: {n} <{e}>" for n, e in reviewer.co_authors]
    return "\n".join(lines) + "\n"
