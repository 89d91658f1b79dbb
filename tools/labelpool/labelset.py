"""Every label of a repository, loaded once, looked up by question id."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from labelpool import columns, schemas, verdicts
from labelpool.columns import Columns
from labelpool.config import Config
from labelpool.errors import InputError, UsageError
from labelpool.labelindex import files, lazy
from labelpool.model import MACHINE, Label, label_from_data, non_string_id
from labelpool.rules import bounds, linebreaks, lists
from labelpool.rules import schema as schema_rule
from labelpool.rules.check import check_bytes
from labelpool.rules.identity import stem_mismatch
from labelpool.rules.view import locate
from labelpool.yamlfile import MAX_BYTES, MAX_DEPTH, YamlError, loads_checked

_HINT = "`labelpool validate` lists every problem"

# What ``label_from_data`` raises on data of the wrong shape (``grades: [1]``, ``pool: 5``).
SHAPE_ERRORS = (KeyError, TypeError, ValueError, AttributeError)


class LabelSetError(InputError):
    """A label file cannot be read (exit 1); ``str()`` is a ``path:line:col: message`` line."""


@dataclass(frozen=True)
class LabelSet(Mapping[str, Label]):
    labels: Mapping[str, Label]
    paths: Mapping[str, Path]
    digest: str = ""  # content hash of all label files (for caches and reports)
    # set by :func:`resolved`: each question's open disputes the scores settle by ``policy``
    # (under ``bounds``: unjudged); empty when the set holds none
    disputed: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # (policy, judge, judges) of :func:`resolved`
    resolved_by: tuple[str, str | None, str] | None = None
    # set by :func:`resolved`: each question's documents that count on a machine's verdict
    # alone (no person's verdict counts beside it); empty when the set holds none
    machine_judged: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # what scoring reads of each label, aligned with ``labels`` (a read through the index)
    columns: Columns | None = None

    def __getitem__(self, key: str) -> Label:
        return self.labels[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.labels)

    def __len__(self) -> int:
        return len(self.labels)


def label_files(labels_dir: Path) -> list[Path]:
    """Label files of a folder, sorted by name (``*.yaml`` and ``*.yml``)."""
    return [labels_dir / n for n in label_names(labels_dir)]


def label_names(labels_dir: Path) -> list[str]:
    """The names of :func:`label_files`."""
    if not labels_dir.is_dir():
        return []
    return sorted(n for n in os.listdir(labels_dir) if n.endswith((".yaml", ".yml")))


def load(cfg: Config, *, use_cache: bool = True) -> LabelSet:
    """Load every label file under ``cfg.labels_dir`` (:func:`load_files`; its index then
    pruned to the folder's files). A file that does not match the label schema is refused
    (:class:`LabelSetError` naming the first problem ``labelpool validate`` reports)."""
    folders = [(cfg.labels_dir, label_names(cfg.labels_dir))]
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    bounds = {"max_bytes": cfg.max_file_bytes, "max_depth": cfg.max_depth}
    with gc_paused():
        return _load_files(
            folders, **bounds, use_cache=use_cache, schema_file=schema_file, whole=True
        )


def read_guarded(
    path: Path, raw: bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """Plain data of one label file's bytes: the safety guard and the one reading of every
    command in one pass (``yamlfile.loads_checked``: the guard's first finding, or LP021 at
    the first plain scalar YAML readers read differently, the finding validate reports)."""
    return loads_checked(raw, path, max_bytes=max_bytes, max_depth=max_depth)


def digest_of(entries: list[tuple[str, str]]) -> str:
    """Hash over (file name, blob id) pairs: changes when any label file does."""
    return hashlib.sha256("".join([f"{n}\0{b}\n" for n, b in sorted(entries)]).encode()).hexdigest()


def schema_valid(data: Any, schema_file: Path) -> bool:
    """Whether ``data`` matches the schema (jsonschema-rs's yes/no check)."""
    try:
        return schema_rule.fast_check(schema_file)(data)
    except (ValueError, TypeError):  # a non-JSON value (an unquoted date): not valid
        return False


def first_problem(
    where: str,
    raw: bytes | None,
    schema_file: Path | None = None,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> str | None:
    """The first error ``labelpool validate`` reports on one file's bytes, as
    ``where:line:col: LPnnn message`` (None when its per-file rules find none)."""
    if raw is None:
        return None
    schema_file = schema_file or schemas.schema_path(schemas.LABEL)
    try:
        result = check_bytes(raw, schema_file, max_bytes=max_bytes, max_depth=max_depth)
    except Exception:  # a better message is only a bonus: the caller has one
        return None
    errors = [f for f in result.findings if f.severity == "error"]
    if not errors:
        return None
    f = errors[0]
    return f"{where}:{f.line}:{f.col}: {f.rule} {f.message}"


def label_of(
    data: Any,
    where: str,
    raw: bytes | None = None,
    *,
    schema_file: Path | None = None,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    provenance: bool = True,
) -> Label:
    """The :class:`Label` of one file's plain data, or :class:`LabelSetError` saying where it
    is wrong (``where:line:col: ...``, positions from ``raw`` when given).

    With ``schema_file`` the data must match the label schema; without it only data that
    cannot be built into a label at all is refused. ``provenance``: :func:`label_from_data`'s.
    """
    problem: str
    if not isinstance(data, dict) or "id" not in data:
        problem = "not a label (a mapping with an `id`)"
    elif schema_file is not None and not schema_valid(data, schema_file):
        problem = "does not match the label schema"
    elif non_string_id(data):  # `- 15`, `doc: ~`: never read as the string "15" or "None"
        problem = "an id is not a string"
    else:
        try:
            label = label_from_data(data, provenance=provenance)
        except SHAPE_ERRORS as exc:
            problem = f"not a valid label ({exc})"
        else:
            _check_bounds(where, data, raw)
            return label
    precise = first_problem(where, raw, schema_file, max_bytes=max_bytes, max_depth=max_depth)
    raise LabelSetError(f"{precise or f'{where}:1:1: {problem}'} ({_HINT})")


def load_files(
    paths: list[Path],
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    use_cache: bool = True,
    schema_file: Path | None = None,
) -> LabelSet:
    """Every label of ``paths`` (see :func:`load`), with the cyclic garbage collector paused:
    labels are many small acyclic objects, and on a cold load of 10,000 files its passes
    took about 15% of the time and found nothing to free."""
    with gc_paused():
        return _load_files(
            files.folders_of(paths),
            max_bytes=max_bytes,
            max_depth=max_depth,
            use_cache=use_cache,
            schema_file=schema_file,
        )


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused (and switched back on if it was): around the
    building of many small acyclic objects (labels, merge's decisions), whose passes find
    nothing to free. Shared by the label load, ``score`` and ``merge``."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def index_tag(max_bytes: int, max_depth: int, schema_file: Path | None) -> str:
    """The label index's tag of a reading of label files (its bounds, LP041, the schema):
    the one index the working tree's reads and a revision's (``diff``) share."""
    return f"labels:{max_bytes}:{max_depth}:LP041:{files.content_key(schema_file)}"


def _load_files(
    folders: list[files.Folder],
    *,
    max_bytes: int,
    max_depth: int,
    use_cache: bool,
    schema_file: Path | None,
    whole: bool = False,
) -> LabelSet:
    def parse(path: Path, raw: bytes) -> Any:
        breaks = linebreaks.check(raw)  # LP041: a key may hide in one git line
        if breaks:
            raise YamlError.from_finding(replace(breaks[0], path=str(path)))
        return read_guarded(path, raw, max_bytes=max_bytes, max_depth=max_depth)

    try:  # the index refuses a FIFO or a device before reading anything
        tag = index_tag(max_bytes, max_depth, schema_file)
        extra = columns.SCHEMA if use_cache else None
        readings = files.read_all(
            folders, parse, tag=tag, use_index=use_cache, extra=extra, whole=whole
        )
    except files.NotRegularFile as exc:
        raise LabelSetError("not a regular file", path=exc.path, line=1, column=1) from None
    except YamlError as exc:  # LP021/LP039: a rule validate reports, with the others
        hint = f" ({_HINT})" if exc.rule in ("LP021", "LP039") else ""
        raise LabelSetError(f"{exc}{hint}") from None
    except OSError as exc:
        raise LabelSetError(
            f"cannot read: {exc.strerror}", path=str(exc.filename), line=1, column=1
        ) from None
    built: dict[str, Label] = {}
    found: dict[str, tuple[files.Reading, int]] = {}
    where = lazy.LazyPaths(found)

    def check(path: Path, data: Any, checked: bool) -> Label:
        return _checked_label(path, data, checked, schema_file, max_bytes, max_depth)

    def duplicate(path: Path, qid: str) -> LabelSetError:
        return LabelSetError(_duplicate(path, qid, where[qid]))

    for reading in readings:
        lazy.take(reading, (built, found), check, duplicate, stems=schema_file is not None)
    hashes = [(n, b) for r in readings for n, b in zip(r.names, r.blobs, strict=True)]
    cols = None
    if use_cache:  # what scoring reads of each label, in the labels' order
        files_of = [[i for r2, i in found.values() if r2 is r] for r in readings]
        parts = [r.columns(f) for r, f in zip(readings, files_of, strict=True)]
        table = pa.concat_tables(parts) if parts else columns.SCHEMA.empty_table()
        blobs = [r.blobs[i] for r, f in zip(readings, files_of, strict=True) for i in f]
        cols = columns.Columns(table, pa.array(blobs, pa.string()))
    return LabelSet(
        labels=lazy.LazyLabels(found, built),
        paths=where,
        digest=digest_of(hashes),
        columns=cols,
    )


def _checked_label(
    path: Path,
    data: Any,
    checked: bool,
    schema_file: Path | None,
    max_bytes: int,
    max_depth: int,
) -> Label:
    """The label of one file's data, refused as the checks refuse it. A blob whose checks
    passed before (the index says so) is only built and held to its file name (LP022)."""
    if checked:
        label = label_from_data(data)
        if label.id != path.stem and schema_file is not None:
            _check_meaning(path, label, schema_file, max_bytes, max_depth)
        return label
    label = _label_or_none(data, schema_file) or label_of(
        data,
        str(path),
        _raw_or_none(path),
        schema_file=schema_file,
        max_bytes=max_bytes,
        max_depth=max_depth,
    )
    _check_bounds(str(path), data, None)
    if schema_file is not None:
        _check_meaning(path, label, schema_file, max_bytes, max_depth)
    return label


def _label_or_none(data: Any, schema_file: Path | None) -> Label | None:
    """The label of good data (the fast path); None when :func:`label_of` must say why not."""
    if not isinstance(data, dict) or "id" not in data:
        return None
    if schema_file is not None and not schema_valid(data, schema_file):
        return None
    try:
        return label_from_data(data)
    except SHAPE_ERRORS:
        return None


def _contradicts(label: Label) -> bool:
    """Whether the rules validate applies find what would change scores if let through: a
    relevant document not in ``judged_ids`` (LP025), a grade of a document neither relevant
    nor in a class (LP027), a judged document also marked pooled-unjudged (LP040)."""
    return bool(
        lists.unjudged_relevant(label.relevant_doc_ids, set(label.judged_ids))
        or lists.graded_out_of_scope(label.grades, label.relevant_doc_ids, label.relevant_classes)
        or lists.judged_pooled_unjudged(label.pooled_unjudged_ids, label.judged)
    )


def _check_meaning(
    path: Path, label: Label, schema_file: Path, max_bytes: int, max_depth: int
) -> None:
    """Refuse a schema-valid label whose id is not its file name (LP022), or which
    :func:`_contradicts` flags and validate's per-file rules refuse (their first error)."""
    if label.id != path.stem:
        raw = _raw_or_none(path)
        line, col = locate(raw, ("id",)) if raw is not None else (1, 1)
        f = stem_mismatch(label.id, line, col, path.stem)[0]
        raise LabelSetError(f"{f.rule} {f.message} ({_HINT})", path=path, line=f.line, column=f.col)
    if _contradicts(label):
        problem = first_problem(
            str(path), _raw_or_none(path), schema_file, max_bytes=max_bytes, max_depth=max_depth
        )
        if problem is not None:
            raise LabelSetError(f"{problem} ({_HINT})")


def _check_bounds(where: str, data: Any, raw: bytes | None) -> None:
    """Refuse a number over LP042's bounds (a grade over 1,000,000, a cut-off over
    1,000,000,000) before anything turns the label into int64 arrays, whatever schema the
    repository holds and whether or not the file went through ``validate``."""
    found = bounds.first_violation(data)
    if found is None:
        return
    keypath, message = found
    if raw is None:
        raw = _raw_or_none(Path(where))
    line, col = locate(raw, keypath) if raw is not None else (1, 1)
    raise LabelSetError(f"{bounds.RULE} {message} ({_HINT})", path=where, line=line, column=col)


def _raw_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _duplicate(path: Path, qid: str, first: Path) -> str:
    """``path:line:col: ...`` for a second label file with the id ``qid``."""
    raw = _raw_or_none(path)
    line, col = locate(raw, ("id",)) if raw is not None else (1, 1)
    return (
        f"{path}:{line}:{col}: id {qid!r} is also the id of {first}; a question has one "
        "label file (`labelpool validate` lists every problem)"
    )


def with_texts(labels: LabelSet, texts: Mapping[Path, str]) -> LabelSet:
    """``labels`` with the label of each file in ``texts`` read from that text instead (a
    ``merge`` preview: ``score --with-pending``). The result has no digest: its judgment
    arrays are built in memory and never replace the cached ones of the files on disk."""
    if not texts:
        return labels
    by_path = {Path(p).resolve(): qid for qid, p in labels.paths.items()}
    out = dict(labels.labels)
    paths = dict(labels.paths)
    for path, text in texts.items():
        where = str(path)
        raw = text.encode("utf-8")
        try:
            data = loads_checked(raw, path)
        except YamlError as exc:
            raise LabelSetError(str(exc)) from None
        label = label_of(data, where, raw)
        old = by_path.get(Path(path).resolve())
        if old is not None and old != label.id:
            del out[old]
        out[label.id] = label
        paths[label.id] = path
    return LabelSet(out, paths, digest="")


def resolved(
    labels: LabelSet, policy: str = "bounds", judge: str | None = None, judges: str = "all"
) -> LabelSet:
    """``labels`` as scoring reads them: each label through :func:`verdicts.resolve` (only
    the verdicts ``judges`` counts: ``people``, ``machines`` or ``all``; an open dispute
    settled by ``policy``; with ``judge``, that judge's own verdict wherever they gave one),
    :attr:`LabelSet.disputed` naming the open disputes the policy settled and
    :attr:`LabelSet.machine_judged` the documents that count on a machine's verdict alone.
    The same object when no label holds a record and no judge is named (outputs stay as they
    were). The digest names policy, judge and judges counted (the arrays' cache keys).
    """
    if labels.resolved_by == (policy, judge, judges):
        return labels
    if judge is None and judges != "machines" and not _resolves(labels):
        return labels
    out: dict[str, Label] = {}
    disputed: dict[str, frozenset[str]] = {}
    machine: dict[str, frozenset[str]] = {}
    judge_is_machine = judge is not None and verdicts.kind_of(labels.values(), judge) == MACHINE
    for qid, label in labels.labels.items():
        scored_label = verdicts.resolve(label, policy, judge, judges)
        out[qid] = scored_label
        if judges != "people" and verdicts.has_machine(label):
            alone = verdicts.machine_alone(
                label, scored_label.judged, judges, judge, judge_is_machine
            )
            if alone:
                machine[qid] = alone
        if not label.verdicts:
            continue
        open_ = frozenset(
            d
            for d in verdicts.disputed(label, judges)
            if judge is None or verdicts.judge_grade(label, d, judge) is None
        )
        if open_:
            disputed[qid] = open_
    digest = ""
    if labels.digest:
        counted_by = "" if judges == "all" else f"\0{judges}"
        digest = hashlib.sha256(
            f"{labels.digest}\0{policy}\0{judge}{counted_by}".encode()
        ).hexdigest()
    return LabelSet(
        out,
        labels.paths,
        digest=digest,
        disputed=disputed,
        resolved_by=(policy, judge, judges),
        machine_judged=machine,
    )


def _resolves(labels: LabelSet) -> bool:
    """Whether a label holds a record of judges or names a machine judge."""
    if labels.columns is not None:
        return labels.columns.resolves
    return any(lab.verdicts or lab.judge_kind == MACHINE for lab in labels.labels.values())


def scored(
    cfg: Config,
    labels: LabelSet | None = None,
    judge: str | None = None,
    judges: str | None = None,
) -> LabelSet:
    """The label set every scoring command reads (``score``, ``compare``, ``check``,
    ``bias``, ``report``, the API): ``labels`` (default: :func:`load`) :func:`resolved` by
    ``[tool.labelpool] disputes``, the judge ``judge`` names (:func:`judge_named`) and the
    judges counted (``judges``: ``people``, ``machines`` or ``all``; default
    ``[tool.labelpool] score_judges``). A judge outside the judges counted (a machine under
    ``people``, a person under ``machines``) is a :class:`UsageError` (exit 2)."""
    loaded = load(cfg) if labels is None else labels
    counted_judges = cfg.judges if judges is None else judges
    if counted_judges not in verdicts.SELECTIONS:
        raise UsageError(
            f"--judges must be one of {', '.join(verdicts.SELECTIONS)}, not {counted_judges!r}"
        )
    named = None if judge is None else judge_named(loaded, judge)
    if named is not None and counted_judges != "all":
        kind = verdicts.kind_of(loaded.values(), named)
        if (kind == MACHINE) != (counted_judges == "machines"):
            what = "a machine" if kind == MACHINE else "a person"
            raise UsageError(
                f"--judge {judge!r} is {what}, and --judges {counted_judges} leaves out "
                f"{'machines' if kind == MACHINE else 'people'}' verdicts: drop one of them"
            )
    return resolved(loaded, cfg.disputes, named, counted_judges)


def judge_named(labels: Mapping[str, Label], name: str) -> str:
    """The judge ``name`` stands for: a judge's full identity (``Name <email>``, a machine's
    name), or a person's email alone. :class:`UsageError` (exit 2) listing the known judges
    when no judge of the label set answers to it."""
    known = frozenset(j for lab in labels.values() for j in verdicts.judges(lab))
    found = verdicts.named(name, known)
    if len(found) == 1:
        return found[0]
    listed = ", ".join(sorted(known)) if known else "none: no label file names a judge"
    if len(found) > 1:
        raise UsageError(f"--judge {name!r} names several judges: {', '.join(found)}")
    raise UsageError(f"--judge {name!r} names no judge of the labels; the judges: {listed}")
