"""Label files as git stores them: every label at a revision, one file across its commits.

Shared by ``history`` and ``diff``. Files are read in bulk (``git ls-tree`` + ``git cat-file
--batch``) and parsed with the same safe loader as the working tree, so a label reads the same
whether it comes from git or from disk.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import columns, gitio, labelset, schemas
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.labelindex import stored
from labelpool.model import Label, label_from_data
from labelpool.rules import linebreaks
from labelpool.yamlfile import YamlError, loads_checked

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
WORKTREE = "working tree"


class RevisionError(InputError):
    """A revision or a label file in it cannot be read (exit 1); ``str()`` says where and why."""


@dataclass(frozen=True)
class GitPlace:
    """Where the label repository sits inside its git work tree."""

    top: Path  # the git work tree's top level
    labels: str  # the labels folder, relative to ``top`` (posix)

    def label_path(self, question: str) -> str:
        return f"{self.labels}/{question}.yaml" if self.labels else f"{question}.yaml"


def git_place(cfg: Config) -> GitPlace:
    top = gitio.toplevel(cfg.root)
    if top is None:
        raise RevisionError("not in a git repository (history needs git)", path=cfg.root)
    rel = os.path.relpath(cfg.labels_dir.resolve(), top.resolve())
    if rel.startswith(".."):
        raise RevisionError(f"outside the git work tree {top}", path=cfg.labels_dir)
    return GitPlace(top=top, labels="" if rel == "." else Path(rel).as_posix())


def parse_label(content: bytes, where: str) -> Label:
    """A :class:`Label` from the bytes of one label file (``where`` names it in messages).

    The same guarded one-pass reader as the working tree (``yamlfile.loads_checked``: the
    guard's first finding, else the fast loader's data), so a label from git and a label on
    disk are read alike.
    """
    try:
        data = loads_checked(content, where)
    except YamlError as exc:
        raise RevisionError(
            f"{exc.rule} {exc.message}", path=exc.path, line=exc.line, column=exc.column
        ) from None
    try:
        return labelset.label_of(data, where, content)
    except labelset.LabelSetError as exc:
        raise RevisionError(str(exc)) from None


def parse_many(contents: Mapping[str, bytes]) -> dict[str, Label]:
    """Parse many label files (name -> bytes); keys of the result are the names.

    The cyclic garbage collector is paused meanwhile, as by ``labelset.load_files``: labels
    are many small acyclic objects, and its passes find nothing to free.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return {name: parse_label(contents[name], name) for name in sorted(contents)}
    finally:
        if enabled:
            gc.enable()


def _is_label_file(place: GitPlace, name: str) -> bool:
    # the folder as os.path.dirname gives it (git's paths hold no "//" and no trailing "/")
    return name.endswith((".yaml", ".yml")) and name.rpartition("/")[0] == place.labels


def changed_label_files(cfg: Config, rev_from: str, rev_to: str | None) -> set[str]:
    """Label files (paths from the git top level) that differ between the two revisions
    (``rev_to`` None: the working tree). Every other label file is byte-identical at both."""
    place = git_place(cfg)
    try:
        gitio.rev_parse(place.top, rev_from)
        if rev_to is not None:
            gitio.rev_parse(place.top, rev_to)
        names = gitio.changed_paths(place.top, rev_from, rev_to, place.labels or ".")
    except gitio.GitError as exc:
        raise RevisionError(str(exc)) from None
    return {n for n in names if _is_label_file(place, n)}


def labels_at(
    cfg: Config, rev: str | None, only: set[str] | None = None, *, provenance: bool = True
) -> dict[str, Label]:
    """Every label (question id -> Label) at ``rev``; ``None`` means the working tree.

    ``only``: read just these label files (paths from the git top level; absent ones skipped).
    ``provenance`` False: a revision's labels built without their record of judges
    (:func:`labelpool.model.label_from_data`), for a reader that never scores them.
    """
    if rev is None and only is None:
        try:
            return dict(labelset.load(cfg).labels)
        except labelset.LabelSetError as exc:
            raise RevisionError(str(exc)) from None
    place = git_place(cfg)
    if rev is None:
        assert only is not None
        paths = [place.top / n for n in sorted(only) if (place.top / n).is_file()]
        try:  # the working tree is checked against the schema, as by labelset.load
            schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
            return dict(labelset.load_files(paths, schema_file=schema_file).labels)
        except labelset.LabelSetError as exc:
            raise RevisionError(str(exc)) from None
    return _read_listed(cfg, place, [_blobs_at(place, rev, only)], provenance)[0]


def changed_labels(
    cfg: Config, rev_from: str, rev_to: str, *, provenance: bool = True
) -> tuple[dict[str, Label], dict[str, Label]]:
    """The labels of the label files that differ between the commits ``rev_from`` and
    ``rev_to``, at each (:func:`labels_at` of both, ``only`` :func:`changed_label_files`):
    their blob ids from one ``git diff-tree``, at the cost of the change rather than of both
    trees, and every blob read through one load of the label index. A revision that cannot
    be read is refused as reading the revisions one after the other refuses it."""
    place = git_place(cfg)
    try:
        gitio.rev_parse(place.top, rev_from)
        gitio.rev_parse(place.top, rev_to)
        pairs = gitio.changed_blobs(place.top, rev_from, rev_to, place.labels or ".")
    except gitio.GitError as exc:
        raise RevisionError(str(exc)) from None
    names = sorted(n for n in pairs if _is_label_file(place, n))
    listed: list[Listing] = []
    for side, rev in enumerate((rev_from, rev_to)):
        held = [(n, b) for n in names if (b := pairs[n][side]) is not None]
        specs = [b for _, b in held]
        listed.append((specs, specs, {b: f"{rev}:{n}" for n, b in reversed(held)}))
    try:
        before, after = _read_listed(cfg, place, listed, provenance)
    except RevisionError:
        only = set(names)
        before = labels_at(cfg, rev_from, only, provenance=provenance)
        after = labels_at(cfg, rev_to, only, provenance=provenance)
    return before, after


# one revision's label files to read: (their blob ids, the blob ids of every label file of
# the revision, each blob's name in messages: ``rev:path``, the first path holding it)
Listing = tuple[list[str], list[str], dict[str, str]]


def _blobs_at(place: GitPlace, rev: str, only: set[str] | None) -> Listing:
    """The :data:`Listing` of ``rev``'s label files (``only`` those, when given)."""
    try:
        commit = gitio.rev_parse(place.top, rev)
        # Blob ids from one ls-tree, never ``rev:path`` specs: git looks each of those up in
        # the tree again (27 s for 10,000 files of a 10,000-file folder, against 0.1 s).
        blobs = gitio.ls_tree(place.top, commit, place.labels or ".")
        names = sorted(n for n in blobs if _is_label_file(place, n))
        if only is not None:
            names = [n for n in names if n in only]
        specs = [blobs[n] for n in names]
    except gitio.GitError as exc:
        raise RevisionError(str(exc)) from None
    every = [b for n, b in blobs.items() if _is_label_file(place, n)]
    where = {b: f"{rev}:{n}" for n, b in reversed(list(zip(names, specs, strict=True)))}
    return specs, every, where


def _read_listed(
    cfg: Config, place: GitPlace, listed: Sequence[Listing], provenance: bool
) -> list[dict[str, Label]]:
    """The labels of each revision ``listed`` (:data:`Listing`), their blobs' data from one
    :func:`_data_of`."""
    specs = [b for blobs, _, _ in listed for b in blobs]
    every = [b for _, blobs, _ in listed for b in blobs]
    where: dict[str, str] = {}
    for _, _, named in reversed(listed):  # a blob of two revisions: named at the first
        where.update(named)
    outs: list[dict[str, Label]] = []
    with labelset.gc_paused():
        found = _data_of(cfg, place, specs, every, where)
        i = 0
        for blobs, _, _ in listed:
            out: dict[str, Label] = {}
            for blob in blobs:
                data, checked, i = found.data(i), found.checked(i), i + 1
                if data is None:
                    continue
                if checked:  # the index's checks passed on this blob: nothing to refuse
                    label = label_from_data(data, provenance=provenance)
                else:
                    label = _label(place, data, blob, where[blob], provenance)
                out[label.id] = label
            outs.append(out)
    return outs


def _data_of(
    cfg: Config, place: GitPlace, blobs: list[str], every: list[str], where: dict[str, str]
) -> stored.Found:
    """The plain data of ``blobs``, and whether checked, through the label index the working
    tree's reads fill (:func:`labelpool.labelindex.stored.checked_data_of`): only blobs it
    has not seen are read from git and parsed, by the working tree's reader and bounds, and
    those LP041 does not refuse are added to it."""
    max_bytes, max_depth = cfg.max_file_bytes, cfg.max_depth

    def parse(blob: str, raw: bytes) -> tuple[Any, bool]:
        try:
            data = loads_checked(raw, where[blob], max_bytes=max_bytes, max_depth=max_depth)
        except YamlError as exc:
            raise RevisionError(
                f"{exc.rule} {exc.message}", path=exc.path, line=exc.line, column=exc.column
            ) from None
        return data, not linebreaks.check(raw)

    def fetch(wanted: list[str]) -> list[bytes | None]:
        return gitio.cat_blobs(place.top, wanted)

    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    tag = labelset.index_tag(max_bytes, max_depth, schema_file)
    return stored.checked_data_of(
        cfg.labels_dir, blobs, fetch, parse, tag=tag, extra=columns.SCHEMA, present=every
    )


def _label(place: GitPlace, data: Any, blob: str, where: str, provenance: bool) -> Label:
    """The label of one blob's data; refused as :func:`parse_label` refuses it (positions
    from the blob's bytes, read again only then)."""
    try:
        return labelset.label_of(data, where, provenance=provenance)
    except labelset.LabelSetError:
        pass
    raw = gitio.cat_blobs(place.top, [blob])[0]
    try:
        return labelset.label_of(data, where, raw, provenance=provenance)
    except labelset.LabelSetError as exc:
        raise RevisionError(str(exc)) from None
