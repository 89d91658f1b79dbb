"""A commit changes only what it meant to: the paths each new commit changes against its
parent, checked before a branch moves to it.

``merge`` and ``pool`` build their commits from a temporary index (:mod:`.objects`); a
commit whose tree came out wrong (an index emptied or rewritten by another process, a hook
that stages files) would delete or change files the command never meant to touch. Before
the branch moves, :func:`confine` lists what every new commit changes (one
``git diff-tree --stdin`` for the whole chain) and refuses a commit that changes a path it
did not set out to change.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from labelpool.gitio.core import GitError, git

SHOWN = 5  # paths named in the refusal


class OutsideChange(GitError):
    """A new commit changes paths it did not set out to change; nothing changed (exit 1)."""


def touched(top: Path, commits: Sequence[str]) -> dict[str, list[str]]:
    """The paths each of ``commits`` changes against its first parent (one
    ``git diff-tree --stdin -r --name-only -z --always`` for all of them)."""
    if not commits:
        return {}
    out = git(
        top,
        "diff-tree",
        "--stdin",
        "-r",
        "--name-only",
        "-z",
        "--no-renames",
        "--always",
        input_bytes="".join(c + "\n" for c in commits).encode(),
    )
    fields = [f.decode("utf-8", "surrogateescape") for f in out.split(b"\x00")]
    found: dict[str, list[str]] = {}
    expected = iter(commits)
    current: str | None = None
    upcoming = next(expected, None)
    for field in fields:
        if not field:
            continue
        if field == upcoming:  # each record starts with the commit id, in the order given
            current, upcoming = field, next(expected, None)
            found[current] = []
        elif current is not None:
            found[current].append(field)
    missing = [c for c in commits if c not in found]
    if missing:
        raise GitError(f"git diff-tree did not list commit {missing[0]}")
    return found


def confine(top: Path, commits: Sequence[tuple[str, Collection[str]]], what: str) -> None:
    """Refuse (:class:`OutsideChange`) when a commit of ``commits`` (``(commit, the paths it
    set out to change)``, relative to the top level) changes any other path against its
    parent. ``what``: the command, for the message."""
    changed = touched(top, [c for c, _ in commits])
    for commit, allowed in commits:
        stray = sorted(set(changed[commit]) - set(allowed))
        if stray:
            shown = ", ".join(stray[:SHOWN])
            more = f" and {len(stray) - SHOWN} more" if len(stray) > SHOWN else ""
            raise OutsideChange(
                f"{what}: the commit it built ({commit[:12]}) would also change {shown}{more}, "
                "which it did not set out to change; nothing changed (its tree was built "
                "wrong: another process rewrote its temporary index, or a git hook staged "
                "files); run it again"
            )
