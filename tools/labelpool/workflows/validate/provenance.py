"""Check pool provenance: every document a ``pool`` entry claims was judged really was.

A pool entry ``{system, k, date, run}`` says that ``system``'s top ``k`` for the question was
put fully in front of a judge. :func:`check` verifies it against the run committed in
``runs/`` (the run file whose system name is ``system``): at the blob the entry records
(``run: <blob id>``, read from git), or the current file when none is recorded. Every document
of that top ``k`` must be judged (:attr:`labelpool.model.Label.judged`); each one that is not
is an error finding (rule :data:`RULE`) at the pool entry's position, naming question,
document, system and ``k``.

Entries of unknown origin (``system: unknown`` or ``k: null``), entries whose system has no
committed run, and entries whose recorded blob git cannot find are skipped and counted
(:class:`ProvenanceReport`, whose :meth:`~ProvenanceReport.note` the CLI prints on stderr).

Cost: each run (file or blob) is read once, cut once at the deepest ``k`` any entry needs;
positions are loaded only for files with a violation. Measured on CAsT 2021 (158 labels from
the real qrels, each pooled from the BM25 document run, 18,570 lines, at depth 10; 2 shared
cores): the check itself takes 0.03-0.06 s once numpy and pyarrow are imported (0.2-0.6 s with
the imports); ``labelpool validate --provenance`` as a whole process 0.6-1.2 s against 0.3 s
for ``labelpool validate`` with a warm cache, the same whether the run is the current file or
a recorded blob read from git.

:mod:`.pooledruns` (the runs as pooled, per entry, cut as arrays) is shared with the ``bias``
audit; :func:`entry_tops` is the label-by-label reference both are held equal to.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import labelset
from labelpool.config import Config
from labelpool.findings import Finding
from labelpool.model import Label, PoolEntry
from labelpool.runs import RunError, arrow_array, numpy_of
from labelpool.scoring.qrels import in_sorted
from labelpool.words import counted
from labelpool.workflows.validate.full import display
from labelpool.workflows.validate.pooledruns import (
    Entries,
    PooledRuns,
    ProvenanceError,
    Source,
    Tops,
    cut,
    judged_docs,
)
from labelpool.yamlfile.nodes import ViewError, compose_root, node_at

RULE = "LP060"


@dataclass(frozen=True)
class EntryTop:
    """One pool entry of one question, with its system's top ``k`` as pooled (or why not)."""

    qid: str
    index: int  # position of the entry in the label's ``pool`` list
    entry: PoolEntry
    docs: tuple[str, ...] | None  # None when skipped
    skipped: str | None = None  # reason: "unknown", "no run", "blob missing"


def entry_tops(pooled: PooledRuns, labels: Mapping[str, Label]) -> list[EntryTop]:
    """Every pool entry of every label with its top ``k``, label by label (reading each run
    once): the reference :func:`audit` and ``bias``'s contributions are held equal to."""
    sourced = pooled.sources(labels)
    tops: dict[Source, dict[str, list[str]]] = {}
    for source, run in pooled.read(sourced):
        tops[source] = run.top(sourced.depth[source])
    out: list[EntryTop] = []
    entries = sourced.entries
    for i, src in enumerate(sourced.where):
        qid, index = entries.qid(i), int(entries.index[i])
        entry = labels[qid].pool[index]
        if isinstance(src, str):
            out.append(EntryTop(qid, index, entry, None, src))
        elif src not in tops:
            out.append(EntryTop(qid, index, entry, None, "blob missing"))
        else:
            assert entry.k is not None
            docs = tuple(tops[src].get(qid, ())[: entry.k])
            out.append(EntryTop(qid, index, entry, docs))
    return out


@dataclass(frozen=True)
class ProvenanceReport:
    findings: list[Finding]
    checked: int  # pool entries checked
    skipped: Mapping[str, int] = field(default_factory=dict)  # reason -> entries
    missing_systems: tuple[str, ...] = ()  # pooled systems without a committed run

    def note(self) -> str:
        """One line for stderr: what was checked and what was skipped, and why."""
        parts = [f"provenance: {counted(self.checked, 'pool entry', 'pool entries')} checked"]
        if self.skipped.get("unknown"):
            parts.append(f"{self.skipped['unknown']} of unknown origin skipped")
        if self.skipped.get("no run"):
            names = ", ".join(self.missing_systems)
            parts.append(f"{self.skipped['no run']} skipped (no committed run for: {names})")
        if self.skipped.get("blob missing"):
            parts.append(
                f"{self.skipped['blob missing']} skipped (their recorded run blob is not in git)"
            )
        return "; ".join(parts)


def audit(cfg: Config, labels: Mapping[str, Label], paths: Mapping[str, Path]) -> ProvenanceReport:
    """Check every pool entry of ``labels`` (``paths``: question id -> label file), over
    arrays: each entry's top ``k`` (:func:`~.pooledruns.cut`) against its question's judged
    documents, no label built when the set carries its columns."""
    pooled = PooledRuns(cfg, keep=False)
    try:
        sourced = pooled.sources(labels)
        tops = cut(pooled, sourced)
    except RunError as exc:
        raise ProvenanceError(str(exc)) from None
    entries = sourced.entries
    skipped: dict[str, int] = {}
    missing: set[str] = set()
    for i in np.flatnonzero(tops.length < 0).tolist():
        reason = sourced.where[i]
        reason = reason if isinstance(reason, str) else "blob missing"
        skipped[reason] = skipped.get(reason, 0) + 1
        if reason == "no run":
            missing.add(entries.system[i])
    checked = int((tops.length >= 0).sum())
    bad = _unjudged(labels, entries, tops)
    violations: dict[str, list[tuple[int, str]]] = {}  # qid -> (entry index, message)
    docs = tops.docs.take(arrow_array(bad)).to_pylist()
    for row_entry, doc in zip(tops.row_entry[bad].tolist(), docs, strict=True):
        qid, index = entries.qid(row_entry), int(entries.index[row_entry])
        system, k = entries.system[row_entry], int(entries.k[row_entry])
        violations.setdefault(qid, []).append(
            (
                index,
                f"question {qid}: {doc} is in {system}'s top {k} "
                f"but not judged (pool entry {index + 1} says that top "
                f"{k} was judged in full)",
            )
        )
    findings: list[Finding] = []
    for qid, items in violations.items():
        path = paths[qid]
        positions = _pool_positions(path, {i for i, _ in items})
        for i, message in items:
            line, col = positions.get(i, (1, 1))
            findings.append(Finding(str(path), line, col, RULE, message))
    findings.sort()
    return ProvenanceReport(findings, checked, skipped, tuple(sorted(missing)))


def _unjudged(labels: Mapping[str, Label], entries: Entries, tops: Tops) -> np.ndarray:
    """The rows of ``tops`` whose document is not judged for its question, in entry order
    (then rank order)."""
    if not len(tops.row_entry):
        return np.zeros(0, dtype=np.int64)
    row_q = entries.q[tops.row_entry]
    qs = np.unique(row_q)
    judged_q, judged = judged_docs(labels, [entries.questions[q] for q in qs.tolist()])
    encoded = pc.dictionary_encode(pa.concat_arrays([tops.docs, judged]))
    codes = numpy_of(encoded.indices).astype(np.int64)
    width = max(len(encoded.dictionary), 1)
    n = len(tops.row_entry)
    keys = np.searchsorted(qs, row_q) * width + codes[:n]
    judged_keys = np.sort(judged_q * width + codes[n:])
    bad = np.flatnonzero(~in_sorted(keys, judged_keys))
    out: np.ndarray = bad[np.argsort(tops.row_entry[bad], kind="stable")]
    return out


def check(cfg: Config, labels: Mapping[str, Label]) -> list[Finding]:
    """Provenance findings for ``labels`` (a :class:`~labelpool.labelset.LabelSet`)."""
    paths = getattr(labels, "paths", {})
    return audit(cfg, labels, paths).findings


def check_files(
    cfg: Config, files: Sequence[Path] | None = None, cwd: Path | None = None
) -> ProvenanceReport:
    """Provenance of the label files ``files`` (files or folders; default: all of labels/).

    Files that cannot be read as labels are left out (``validate`` reports them itself);
    finding paths are shown relative to ``cwd`` like every other validate finding.
    """
    if files:
        chosen: list[Path] = []
        for p in files:
            if p.is_dir():
                chosen += sorted(q for q in p.iterdir() if q.suffix in (".yaml", ".yml"))
            else:
                chosen.append(p)
    else:
        chosen = labelset.label_files(cfg.labels_dir)
    chosen = [p for p in chosen if p.is_file() and not p.is_symlink()]

    def load(paths: list[Path]) -> labelset.LabelSet:
        return labelset.load_files(paths, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth)

    try:  # the set as read (its columns: no label built)
        whole = load(chosen)
        report = audit(cfg, whole, whole.paths)
    except labelset.LabelSetError:  # some file is broken: load the others one by one
        labels: dict[str, Label] = {}
        where: dict[str, Path] = {}
        for p in chosen:
            with contextlib.suppress(labelset.LabelSetError):
                one = load([p])
                labels.update(one.labels)
                where.update(one.paths)
        report = audit(cfg, labels, where)
    shown = [replace(f, path=display(Path(f.path), cwd)) for f in report.findings]
    return replace(report, findings=shown)


def _pool_positions(path: Path, indexes: set[int]) -> dict[int, tuple[int, int]]:
    """1-based (line, col) of the given ``pool`` entries of one label file.

    From libyaml's node tree (``yamlfile.nodes``, the positions every rule reports), not the
    round-trip loader: a repository whose every question violates took a minute at 10,000
    files through ruamel.
    """
    try:
        root = compose_root(path.read_bytes())
    except (OSError, ViewError):  # validation reports the file itself; 1:1 beats no finding
        return {}
    out = {}
    for i in indexes:
        mark = node_at(root, ("pool", i)).start_mark
        out[i] = (mark.line + 1, mark.column + 1)
    return out
