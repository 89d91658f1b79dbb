"""Commits that land whole or not at all: build as git objects, journal, move the branch once.

``merge`` and ``pool`` change many label files in one or more commits. They never write a
label file before the commits exist:

1. :func:`build` stores every new file content as a blob and chains the commits on the
   branch's commit (a temporary index; no ref, index entry or working-tree file changes).
2. :func:`land` writes the journal ``.git/labelpool/<kind>.json`` (through :mod:`atomic`):
   the ref, its old and new commit, the branch ``HEAD`` ends on, and per path the blob the
   working tree held before and the new blob. Then it moves the ref once
   (``git update-ref REF NEW OLD``: only if REF is still at OLD; OLD is all zeros for a branch
   that must not exist yet), points ``HEAD`` at it when asked, writes the new blobs into the
   working tree and the index (only those paths), and deletes the journal.
3. :func:`recover`, at the start of the next run, finishes a journal a kill left behind:
   the ref at NEW and every path holding its old or new blob -> the new blobs are checked out
   and the journal goes; the ref still at OLD -> nothing landed, the journal goes and the
   command starts over; anything else -> :class:`JournalError` naming the journal and the
   paths, exit 1, nothing changed.

A killed run therefore leaves either the old branch and the old files, or the new branch and
files that the next run completes; never one judge's verdicts in another judge's commit.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from labelpool import atomic, gitio
from labelpool.errors import StateError

Kind = Literal["merge", "pool", "classes"]


class JournalError(StateError):
    """A journal this run cannot finish or discard; exit 1."""


class StagingFailed(StateError):
    """The new files could not be written beside the journal (a full disk): nothing
    changed; exit 1."""


class RefMoved(StateError):
    """The branch moved between reading it and moving it: nothing changed; exit 1."""


@dataclass(frozen=True)
class Step:
    """One commit of a chain: new contents of paths (relative to the top level)."""

    files: Mapping[str, bytes]
    message: str
    author: tuple[str, str] | None = None  # None: whoever runs the command


@dataclass(frozen=True)
class Journal:
    kind: Kind
    ref: str  # the ref to move (refs/heads/...; HEAD when detached)
    old: str  # its commit before (gitio.ZERO_COMMIT: must not exist)
    new: str
    head: str | None  # the branch HEAD points to at the end (None: leave HEAD as it is)
    paths: Mapping[str, tuple[str, str, str]]  # path -> (mode, old blob, new blob)
    contents: Mapping[str, bytes] = field(default_factory=dict, compare=False)
    commits: tuple[str, ...] = ()  # every commit of the chain (build only)


def journal_path(top: Path, kind: Kind) -> Path:
    return gitio.git_dir(top) / "labelpool" / f"{kind}.json"


def build(
    top: Path,
    kind: Kind,
    steps: list[Step],
    *,
    ref: str,
    old: str,
    base: str,
    head: str | None,
    modes: Mapping[str, tuple[str, str]],
) -> Journal | None:
    """The commits of ``steps`` on ``base`` as objects, and the journal that moves ``ref``
    from ``old`` to the last of them (and ``HEAD`` to ``head``); None when no step changes
    anything. ``modes``: ``path -> (mode, blob)`` at ``base`` (:func:`gitio.tree_entries` of
    the folder holding every path); a path it lacks is a new regular file."""
    steps = [s for s in steps if s.files]
    final: dict[str, bytes] = {}
    for step in steps:
        final.update(step.files)
    for p in sorted(final):
        if modes.get(p, ("100644", ""))[0] not in ("100644", "100755") or (top / p).is_symlink():
            raise JournalError("LP037 symlink (or not a file in git); not replaced", path=top / p)
    order = sorted(final)
    contents = [c for s in steps for c in s.files.values()]
    ids = gitio.write_blobs(top, contents)
    it = iter(ids)
    chain: list[tuple[list[tuple[str, str, str]], str, tuple[str, str] | None]] = []
    last: dict[str, str] = {}
    for step in steps:
        entries = []
        for path in step.files:
            blob = next(it)
            last[path] = blob
            entries.append((modes.get(path, ("100644", ""))[0], blob, path))
        chain.append((entries, step.message, step.author))
    if not chain:
        return None
    folder = gitio.git_dir(top) / "labelpool"
    folder.mkdir(parents=True, exist_ok=True)
    commits = gitio.build_commits(top, _scratch_index(folder, kind), base, chain)
    # each commit changes only the paths of its step (one git diff-tree for the chain)
    gitio.confine(top, [(c, s.files) for c, s in zip(commits, steps, strict=True)], kind)
    before = dict(zip(order, _hash_or_absent(top, order), strict=True))
    paths = {p: (modes.get(p, ("100644", ""))[0], before[p], last[p]) for p in order}
    return Journal(kind, ref, old, commits[-1], head, paths, final, tuple(commits))


def _scratch_index(folder: Path, kind: Kind) -> Path:
    """This process's temporary index, ``<kind>.<pid>.index``: never another process's
    (two runs sharing one index file built a commit of an emptied index: finding 1 of
    issue 29). Those a killed run left (their process gone) are removed."""
    for old in folder.glob(f"{kind}.*.index*"):
        pid = old.name.split(".")[1]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            old.unlink(missing_ok=True)
    return folder / f"{kind}.{os.getpid()}.index"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def _hash_or_absent(top: Path, paths: list[str]) -> list[str]:
    present = [p for p in paths if (top / p).is_file()]
    ids = dict(zip(present, gitio.hash_files(top, present), strict=True))
    return [ids.get(p, "") for p in paths]


def land(top: Path, journal: Journal, reason: str) -> None:
    """Stage the new files, write the journal, move the ref once, point ``HEAD`` and the
    index at the new commit, move the new files in, delete the journal; :class:`RefMoved`
    (journal deleted, nothing changed) when the ref is not at ``old``. Every byte of the new
    files is on disk before the ref moves (staged under ``.git/labelpool/<kind>.stage/``),
    and a failure to write the ref, ``HEAD`` or the index moves everything back, so a full
    disk stops the run with nothing changed (:class:`StagingFailed`)."""
    path = journal_path(top, journal.kind)
    try:
        # a folder the files cannot be written into is refused before anything moves
        atomic.refuse_unwritable(sorted({(top / p).parent for p in journal.paths}))
        path.parent.mkdir(parents=True, exist_ok=True)
        _stage(top, journal)
        atomic.write_text(path, _dumps(journal))
        reserve = _stage_dir(top, journal.kind) / "reserve"
        atomic.write_bytes(reserve, bytes(_headroom(top)))
        reserve.unlink()  # its room is what git needs for the ref, HEAD and index below
    except OSError as exc:  # a full disk: nothing moved yet
        path.unlink(missing_ok=True)
        _clear(_stage_dir(top, journal.kind))
        raise StagingFailed(
            f"{exc.strerror or exc} (writing the new files before {_short(journal.ref)} "
            f"moves); nothing changed; {atomic.advice(exc)}",
            path=exc.filename,
        ) from None
    try:
        moved = gitio.update_ref(top, journal.ref, journal.new, journal.old, reason)
    except gitio.GitError as exc:  # git could not write the ref (a full disk): not moved
        _drop(top, journal, path)
        raise StagingFailed(f"{exc.message}; nothing changed") from None
    if not moved:
        _drop(top, journal, path)
        now = gitio.ref_value(top, journal.ref) or gitio.ZERO_COMMIT
        raise RefMoved(
            f"{_short(journal.ref)} moved during {journal.kind} (was {journal.old}, now {now}); "
            f"nothing changed; run {journal.kind} again"
        )
    head_before = gitio.head_ref(top) if journal.head is not None else None
    try:
        _point(top, journal)
    except gitio.GitError as exc:  # HEAD or the index could not be written: move back
        try:
            if head_before is not None and gitio.head_ref(top) != head_before:
                gitio.set_head(top, head_before)
            if not gitio.update_ref(top, journal.ref, journal.old, journal.new, reason):
                raise exc from None
        except gitio.GitError:
            raise exc from None  # the journal stays: the next run finishes or discards it
        _drop(top, journal, path)
        raise StagingFailed(f"{exc.message}; nothing changed") from None
    _move(top, journal, path, staged_now=True)


def _headroom(top: Path) -> int:
    """Bytes git needs to rewrite the ref, ``HEAD`` and the index: the index's size and
    64 KiB (lock files, a reflog line)."""
    try:
        index = (gitio.git_dir(top) / "index").stat().st_size
    except OSError:
        index = 0
    return index + 65536


def _drop(top: Path, journal: Journal, path: Path) -> None:
    path.unlink(missing_ok=True)
    _clear(_stage_dir(top, journal.kind))


def recover(top: Path, kind: Kind) -> str | None:
    """Finish or discard the journal a killed run left: "finished", "discarded", or None when
    there is none; :class:`JournalError` when the repository moved on since."""
    path = journal_path(top, kind)
    if not path.is_file():
        return None
    try:
        journal = _loads(path.read_text(encoding="utf-8"), kind)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise JournalError(
            f"cannot read this journal of an interrupted {kind} ({exc}); "
            "check the branch and the label files, then delete it",
            path=path,
        ) from None
    at = gitio.ref_value(top, journal.ref) or gitio.ZERO_COMMIT
    names = sorted(journal.paths)
    if at == journal.old:
        path.unlink(missing_ok=True)
        _clear(_stage_dir(top, kind))
        return "discarded"
    held = dict(zip(names, _hash_or_absent(top, names), strict=True))
    stray = [p for p in names if held[p] not in journal.paths[p][1:]]
    if at != journal.new or stray:
        why = (
            f"{_short(journal.ref)} is at {at}, neither {journal.old} nor {journal.new}"
            if at != journal.new
            else "files changed since: " + ", ".join(stray)
        )
        raise JournalError(
            f"an interrupted {kind} cannot be finished: {why}; its paths: {', '.join(names)}. "
            "Check them, then delete the journal",
            path=path,
        )
    blobs = gitio.cat_blobs(top, [journal.paths[p][2] for p in names])
    contents: dict[str, bytes] = {}
    for p, data in zip(names, blobs, strict=True):
        if data is None:
            raise JournalError(f"blob of {p} is missing; delete the journal", path=path)
        contents[p] = data
    journal = Journal(
        journal.kind, journal.ref, journal.old, journal.new, journal.head, journal.paths, contents
    )
    _finish(top, journal, path)
    return "finished"


def _stage_dir(top: Path, kind: Kind) -> Path:
    return gitio.git_dir(top) / "labelpool" / f"{kind}.stage"


def _stage(top: Path, journal: Journal) -> None:
    """Write every new file's content beside the journal (``<kind>.stage/<n>``), each with
    the mode of the file it replaces; a copy on another file system is written at the end."""
    folder = _stage_dir(top, journal.kind)
    _clear(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(sorted(journal.paths)):
        target = top / p
        atomic.write_new(folder / str(i), journal.contents[p], mode_of=target, durable=False)
    atomic.flush()  # every staged byte on disk before the journal says it is there


def _clear(folder: Path) -> None:
    if folder.is_dir():
        for f in folder.iterdir():
            f.unlink(missing_ok=True)
        folder.rmdir()


def _finish(top: Path, journal: Journal, path: Path) -> None:
    _point(top, journal)
    _move(top, journal, path)


def _point(top: Path, journal: Journal) -> None:
    """``HEAD`` (when asked) and the index entries of the paths to the new commit's; the
    steps after the ref that can fail for want of space, so done before any file moves."""
    if journal.head is not None:
        gitio.set_head(top, journal.head)
    gitio.set_index(top, [(m, new, p) for p, (m, _, new) in sorted(journal.paths.items())])


def _move(top: Path, journal: Journal, path: Path, *, staged_now: bool = False) -> None:
    """The new files into the working tree (the staged copies, else written from the
    blobs), then the journal and the stage go. ``staged_now``: this process staged every
    copy (:func:`_stage`, under the repository lock) and flushed it, so each is moved as it
    is; a recovery reads a copy back and moves it only when it holds the new blob's bytes."""
    folder = _stage_dir(top, journal.kind)
    try:
        for i, p in enumerate(sorted(journal.paths)):
            staged = folder / str(i)
            if staged_now or (staged.is_file() and staged.read_bytes() == journal.contents[p]):
                try:
                    atomic.move(staged, top / p, durable=False)
                    continue
                except OSError as exc:
                    if exc.errno not in (errno.EXDEV, errno.ENOENT):  # else write the bytes
                        raise
            atomic.write_bytes(top / p, journal.contents[p], durable=False)
    except OSError as exc:  # the branch has moved: say so, and how the next run finishes
        raise JournalError(
            f"{exc.strerror or exc}: {_short(journal.ref)} is at the new commit "
            f"{journal.new}, but this file could not be written; {atomic.advice(exc)}: "
            f"{journal.kind} finishes the job from its journal {path}",
            path=exc.filename,
        ) from None
    atomic.flush()  # the files in place on disk before the journal goes
    path.unlink(missing_ok=True)
    _clear(folder)


def _short(ref: str) -> str:
    return ref.removeprefix("refs/heads/")


def _dumps(journal: Journal) -> str:
    return json.dumps(
        {
            "kind": journal.kind,
            "ref": journal.ref,
            "old": journal.old,
            "new": journal.new,
            "head": journal.head,
            "paths": {p: {"mode": m, "old": o, "new": n} for p, (m, o, n) in journal.paths.items()},
        },
        indent=1,
        sort_keys=True,
    )


def _loads(text: str, kind: Kind) -> Journal:
    raw = json.loads(text)
    if raw["kind"] != kind:
        raise ValueError(f"a {raw['kind']} journal")
    paths = {
        str(p): (str(v["mode"]), str(v["old"]), str(v["new"])) for p, v in raw["paths"].items()
    }
    head = raw.get("head")
    return Journal(
        kind,
        str(raw["ref"]),
        str(raw["old"]),
        str(raw["new"]),
        None if head is None else str(head),
        paths,
    )
