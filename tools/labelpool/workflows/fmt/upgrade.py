"""``labelpool fmt --upgrade``: write the record of who judged into label files that predate it.

A judged document whose judge the file does not name (no ``judge:``, not under ``verdicts``)
gets the judge ``merge`` and ``history`` would name: the author of the last commit of the line
that says its verdict (its ``grades`` line when graded, else its ``relevant_doc_ids`` line when
relevant, else its relevance class's line, else its ``judged_ids`` line), through ``.mailmap``
(:mod:`labelpool.workflows.audit.attribution`, one ``git log`` walk for every file); a line not
committed yet is the current git identity's. The file's most frequent judge becomes ``judge:``
(a tie: the first in code-point order); every other document gets a one-line ``verdicts``
entry saying its verdict. The file is then formatted as ``fmt`` formats it. Idempotent: a file
that names its judge is only formatted.

Refused, nothing written: outside a git work tree, in a shallow clone, when a file does not
validate (pending verdicts aside), or when a written file would not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool import atomic, gitio, repolock, schemas
from labelpool.config import Config
from labelpool.errors import StateError
from labelpool.labelfile import format_label
from labelpool.labelfile.record import set_file_judge, set_verdicts
from labelpool.model import JudgeVerdict, Label, Verdict, class_item, label_from_data
from labelpool.rules import written
from labelpool.rules.check import check_bytes
from labelpool.workflows.audit import attribution
from labelpool.yamlfile import CommentedMap, CommentedSeq, Document, dumps, load_roundtrip, to_plain

__all__ = ["UpgradeError", "UpgradeResult", "upgrade"]

ALLOWED = frozenset({"LP034", "LP062"})  # a batch waiting for its verdicts is no reason to refuse


class UpgradeError(StateError):
    """``fmt --upgrade`` cannot write the record (exit 1, nothing written)."""


@dataclass(frozen=True)
class UpgradeResult:
    changed: tuple[Path, ...]  # upgraded (or, with check, would be)
    unchanged: tuple[Path, ...]


@dataclass
class _File:
    path: Path
    doc: Document
    label: Label
    lines: dict[str, int]  # document -> 1-based line saying its verdict (judge unknown)


def upgrade(
    cfg: Config, paths: Sequence[Path], *, check: bool = False, wait: float = 0.0
) -> UpgradeResult:
    """Upgrade every file of ``paths`` (``check``: write nothing, say which would change)."""
    top = gitio.toplevel(cfg.root)
    if top is None:
        raise UpgradeError(
            "not a git work tree: fmt --upgrade names each verdict's judge from git blame",
            path=cfg.root,
        )
    attribution.refuse_if_shallow(cfg.root, UpgradeError)
    if check:
        return _upgrade(cfg, top, paths, check=True)
    folders = sorted({p.parent for p in paths})
    with repolock.held(*folders, command="labelpool fmt --upgrade", wait=wait):
        atomic.refuse_unwritable(folders)
        return _upgrade(cfg, top, paths, check=False)


def _upgrade(cfg: Config, top: Path, paths: Sequence[Path], *, check: bool) -> UpgradeResult:
    schema = schemas.schema_path(schemas.LABEL, cfg.root)
    files = [_read(cfg, schema, p) for p in paths]
    judges = _judges(cfg, top.resolve(), [f for f in files if f.lines])
    texts: list[tuple[_File, str]] = []
    for f in files:
        if f.lines:
            _write_record(f, judges.get(f.path, {}))
        format_label(f.doc.data, f.doc.text)
        text = dumps(f.doc.data, path=f.path)
        if text != f.doc.text:
            found = written.first_new_error(
                f.doc.text,
                text,
                schema_file=schema,
                max_bytes=cfg.max_file_bytes,
                max_depth=cfg.max_depth,
            )
            if found is not None:
                raise UpgradeError(
                    f"the upgraded file would not validate: {found.rule} {found.message}",
                    path=f.path,
                )
            texts.append((f, text))
    if not check:
        for f, text in texts:
            atomic.write_text(f.path, text)
    changed = {f.path for f, _ in texts}
    return UpgradeResult(
        tuple(p for p in paths if p in changed), tuple(p for p in paths if p not in changed)
    )


def _read(cfg: Config, schema: Path, path: Path) -> _File:
    """The file, refused unless it validates; the lines of its documents with no judge."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UpgradeError(f"cannot read: {exc.strerror or exc}", path=path) from None
    result = check_bytes(raw, schema, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth)
    for f in result.findings:
        if f.severity == "error" and f.rule not in ALLOWED:
            raise UpgradeError(
                f"{f.rule} {f.message} (fmt --upgrade writes only files that validate; "
                "nothing was written)",
                path=path,
                line=f.line,
                column=f.col,
            )
    doc = load_roundtrip(path, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth)
    label = label_from_data(to_plain(doc.data))
    lines: dict[str, int] = {}
    if label.judge is None:
        for d in sorted(label.judged):
            if d not in label.verdicts:
                lines[d] = _verdict_line(doc.data, label, d)
    return _File(path, doc, label, lines)


def _verdict_line(data: CommentedMap, label: Label, doc: str) -> int:
    """1-based line of the line that says ``doc``'s verdict (see the module doc)."""
    grades = data.get("grades")
    if doc in label.grades and isinstance(grades, CommentedMap):
        return int(grades.lc.key(_key(grades, doc))[0]) + 1
    if doc in label.relevant_doc_ids:
        found = _item_line(data.get("relevant_doc_ids"), doc)
        if found is not None:
            return found
    for cls in data.get("relevant_classes") or ():
        found = _item_line(class_item(cls)[0], doc)
        if found is not None and doc not in label.judged_ids:
            return found
    found = _item_line(data.get("judged_ids"), doc)
    return found if found is not None else 1


def _key(mapping: CommentedMap, doc: str) -> object:
    return next(k for k in mapping if str(k) == doc)


def _item_line(seq: object, doc: str) -> int | None:
    if not isinstance(seq, CommentedSeq):
        return None
    for i, v in enumerate(seq):
        if str(v) == doc:
            return int(seq.lc.item(i)[0]) + 1
    return None


def _judges(cfg: Config, top: Path, files: Iterable[_File]) -> dict[Path, dict[str, str]]:
    """``path -> document -> judge`` for every document without one."""
    rel: dict[str, _File] = {}
    for f in files:
        full = f.path.parent.resolve() / f.path.name
        if not full.is_relative_to(top):
            raise UpgradeError("outside the git work tree", path=f.path)
        rel[full.relative_to(top).as_posix()] = f
    if not rel:
        return {}
    labels = cfg.labels_dir.resolve()
    under = labels.relative_to(top).as_posix() if labels.is_relative_to(top) else ""
    wanted = {r: sorted(set(f.lines.values())) for r, f in rel.items()}
    found = attribution.attribute(top, "" if under == "." else under, wanted)
    me: str | None = None
    out: dict[Path, dict[str, str]] = {}
    for r, f in rel.items():
        exc = found.unreadable.get(r)
        if exc is not None:
            raise UpgradeError(f"cannot tell who judged its documents: {exc}", path=f.path)
        authors = found.lines.get(r, {})
        judges: dict[str, str] = {}
        for d, n in f.lines.items():
            a = authors.get(n)
            if a is None:  # not committed yet: the current user's
                me = me or _me(cfg.root)
                judges[d] = me
            else:
                judges[d] = f"{a.name} <{a.email}>"
        out[f.path] = judges
    return out


def _me(root: Path) -> str:
    name, email = gitio.user_identity(root)
    if not (name and email):
        raise UpgradeError(
            "git user.name and user.email must be set: uncommitted verdicts are credited to you"
        )
    return f"{name} <{email}>"


def _summary_verdict(label: Label, doc: str) -> Verdict:
    """What the lists say of ``doc``: its grade when graded, else relevant or irrelevant."""
    if doc in label.grades:
        return int(label.grades[doc])
    return "relevant" if label.gain.get(doc, 0) > 0 else "irrelevant"


def _write_record(f: _File, judges: dict[str, str]) -> None:
    if not judges:
        return
    counts = Counter(judges.values())
    top = max(counts.values())
    main = min(j for j, c in counts.items() if c == top)
    set_file_judge(f.doc.data, main)
    for d in sorted(judges):
        if judges[d] != main:
            set_verdicts(f.doc.data, d, [JudgeVerdict(judges[d], _summary_verdict(f.label, d))])
