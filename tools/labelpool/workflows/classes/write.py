"""Proposed classes written into label files and committed on a new branch, all or nothing.

What ``classes propose`` and ``import duplicates`` share: each label file's new text is made
by :func:`labelpool.labelfile.classes.add_proposals` (a text edit: every other byte kept) and
checked by validate's per-file rules before anything is written (a writer never writes what
validate refuses; LP062, the proposal waiting for review, is what it writes). With a commit,
under the repository lock, the files are committed on a new branch as ``pool`` commits a batch
(:mod:`labelpool.journal`: built as git objects, the branch made in one step, then the files);
without, each file is written atomically.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool import atomic, gitio, journal, repolock, schemas
from labelpool.config import Config
from labelpool.errors import StateError, UsageError
from labelpool.labelfile.classes import ClassesEditError, Proposal, add_proposals
from labelpool.rules import written

__all__ = ["ClassesError", "Written", "land", "proposal_texts"]


class ClassesError(StateError):
    """Proposals cannot be written (exit 1): ``path:line:col: message``; nothing written."""


@dataclass(frozen=True)
class Written:
    files: tuple[Path, ...] = ()
    branch: str | None = None
    commit: str | None = None


def proposal_texts(
    cfg: Config, proposals: Mapping[Path, Sequence[Proposal]]
) -> list[tuple[Path, str]]:
    """``(path, new text)`` of each label file with its proposals appended, every one checked
    by validate's rules (:func:`labelpool.rules.written.first_new_error`)."""
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    out: list[tuple[Path, str]] = []
    for path in sorted(proposals):
        if not proposals[path]:
            continue
        try:
            old = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ClassesError(f"cannot read: {exc}", path=path) from None
        try:
            new = add_proposals(old, proposals[path])
        except ClassesEditError as exc:
            raise ClassesError(exc.message, path=path, line=exc.line) from None
        found = written.first_new_error(
            old, new, schema_file=schema_file, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth
        )
        if found is not None:
            raise ClassesError(
                f"{found.rule} {found.message} (line {found.line} of the text to be written): "
                "validate would refuse the file with the proposals; nothing written",
                path=path,
            )
        out.append((path, new))
    return out


def land(
    cfg: Config,
    changes: Sequence[tuple[Path, str]],
    *,
    branch: str,
    message: str,
    commit: bool = True,
) -> Written:
    """Write ``changes``: on the new branch ``branch`` in one commit (and switch to it), or
    (``commit`` False) each file atomically in the working tree. The caller holds the lock."""
    if not changes:
        return Written()
    if not commit:
        atomic.refuse_unwritable(sorted({p.parent for p, _ in changes}))
        try:
            for path, text in changes:
                atomic.write_text(path, text)
        except OSError as exc:
            raise repolock.failed(exc, "the files before it hold proposals, the rest not") from None
        return Written(tuple(p for p, _ in changes))
    top = gitio.toplevel(cfg.root)
    if top is None:
        raise ClassesError("not a git repository (use --no-commit to just write)", path=cfg.root)
    base = gitio.head_commit(top)
    if base is None:
        raise ClassesError("no commit yet: commit the label files first", path=cfg.root)
    if not gitio.check_branch_name(cfg.root, branch):
        raise UsageError(f"--branch {branch!r}: not a valid branch name")
    ref = f"refs/heads/{branch}"
    if gitio.ref_value(top, ref) is not None:
        raise ClassesError(f"branch {branch!r} exists already; name another with --branch")
    labels_rel = cfg.labels_dir.resolve().relative_to(top.resolve()).as_posix()
    if gitio.is_dirty(cfg.root, (labels_rel,)):
        raise ClassesError("uncommitted changes; commit or discard them first", path=cfg.labels_dir)
    files = {p.resolve().relative_to(top.resolve()).as_posix(): t.encode() for p, t in changes}
    todo = journal.build(
        top,
        "classes",
        [journal.Step(files, message)],
        ref=ref,
        old=gitio.ZERO_COMMIT,
        base=base,
        head=ref,
        modes=gitio.tree_entries(top, base, labels_rel),
    )
    if todo is None:
        return Written()
    try:
        journal.land(top, todo, "labelpool classes")
    except journal.RefMoved:
        raise ClassesError(
            f"branch {branch!r} exists already; name another with --branch"
        ) from None
    return Written(tuple(p for p, _ in changes), branch, todo.new)
