"""``labelpool judge``, the commits: the files the page changed, as the local git identity.

Only the label files this page wrote go into the commit (``git commit --only``: whatever else
is staged stays staged and out of it); the hooks run; the message is
``labelpool judge: N verdicts (batch B)``, N the entries of the batch whose verdict differs
from ``HEAD``'s copy of the file. ``labelpool merge`` then credits the author of each verdict
line, the judge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool import gitio
from labelpool.errors import StateError, UsageError
from labelpool.words import counted
from labelpool.workflows.judge.queue import JudgeInputError, read_file
from labelpool.workflows.judge.write import locked


class NoIdentity(UsageError):
    """Commits asked for without ``user.name`` and ``user.email`` (exit 2)."""


class CommitFailed(StateError):
    """git refused the commit (a hook failed, ...): the message is git's."""


@dataclass(frozen=True)
class Committed:
    commit: str | None  # None: nothing differed from HEAD
    verdicts: int
    files: int


def identity(root: Path) -> tuple[str, str]:
    """The local git identity, or :class:`NoIdentity`."""
    name, email = gitio.user_identity(root)
    if not name or not email:
        raise NoIdentity(
            "commits need a git identity: set `git config user.name` and `git config user.email`"
        )
    return name, email


def _rel(top: Path, path: Path) -> str:
    return (path.parent.resolve() / path.name).relative_to(top).as_posix()


def changed(root: Path, paths: Iterable[Path], batch: str) -> tuple[list[Path], int]:
    """Of ``paths``, those whose content differs from ``HEAD``, and how many entries of
    ``batch`` in them hold a verdict other than ``HEAD``'s."""
    top = gitio.toplevel(root)
    if top is None:
        return [], 0
    top = top.resolve()
    paths = sorted(set(paths))
    rels = [_rel(top, p) for p in paths]
    head = gitio.head_commit(root)
    olds = gitio.cat_blobs(top, [f"HEAD:{r}" for r in rels]) if head else [None] * len(rels)
    out: list[Path] = []
    verdicts = 0
    for path, old in zip(paths, olds, strict=True):
        try:
            new_text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        old_text = old.decode("utf-8", "replace") if old is not None else None
        if old_text == new_text:
            continue
        out.append(path)
        verdicts += _count(path, old_text, new_text, batch)
    return out, verdicts


def _count(path: Path, old_text: str | None, new_text: str, batch: str) -> int:
    def verdicts(text: str | None) -> dict[tuple[int | None, str], object]:
        if text is None:
            return {}
        try:
            _d, _t, batches = read_file(path, text)
        except JudgeInputError:
            return {}
        return {(b.seat, e.doc): e.verdict for b in batches if b.batch == batch for e in b.entries}

    old, new = verdicts(old_text), verdicts(new_text)
    return sum(1 for d, v in new.items() if v is not None and old.get(d) != v)


def commit(
    root: Path,
    paths: Iterable[Path],
    batch: str,
    *,
    machine: tuple[str, str] | None = None,
    trailers: Sequence[str] = (),
) -> Committed:
    """Commit the files of ``paths`` that differ from ``HEAD``, under the repository lock;
    a commit that changes any other path (a hook staged it) is undone and refused.
    ``machine``: (name, email) the commit's author and committer (``judge --machine``), and
    ``trailers`` end its message."""
    if machine is None:
        identity(root)
    with locked(root):
        files, n = changed(root, paths, batch)
        if not files:
            return Committed(None, 0, 0)
        top = gitio.toplevel(root)
        assert top is not None
        top = top.resolve()
        message = f"labelpool judge: {counted(n, 'verdict')} (batch {batch})"
        if machine is not None:
            message = message.replace("labelpool judge:", "labelpool judge --machine:", 1)
        if trailers:
            message += "\n\n" + "\n".join(trailers)
        rels = [_rel(top, p) for p in files]
        ref, old = gitio.head_ref(top), gitio.head_commit(top)
        try:
            sha = gitio.commit_paths(top, rels, message, machine)
        except gitio.GitError as exc:
            raise CommitFailed(f"the commit failed: {exc}") from None
        if old is not None:
            _confine(top, ref, old, sha, rels)
        return Committed(sha, n, len(files))


def _confine(top: Path, ref: str, old: str, new: str, rels: list[str]) -> None:
    """``git commit`` moves the branch itself (its hooks run on the way): check right after
    that the commit changed only ``rels``; otherwise move the branch back to ``old`` (if it
    is still at ``new``) and put the index entries it changed back to ``old``'s."""
    touched = gitio.touched(top, [new])[new]
    stray = sorted(set(touched) - set(rels))
    if not stray:
        return
    if gitio.update_ref(top, ref, old, new, "labelpool judge: commit undone"):
        gitio.reset_paths(top, old, touched)
    shown = ", ".join(stray[:5]) + (f" and {len(stray) - 5} more" if len(stray) > 5 else "")
    raise CommitFailed(
        f"the commit also changed {shown}, which this page did not write (a git hook staged "
        "it?): undone, nothing changed; commit those files yourself"
    )
