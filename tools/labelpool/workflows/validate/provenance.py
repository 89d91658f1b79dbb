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

:class:`PooledRuns` (the runs as pooled, per entry) is shared with the ``bias`` audit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from labelpool import gitio, labelset
from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.findings import Finding
from labelpool.model import Label, PoolEntry
from labelpool.runs import Run, RunError, has_run_suffix, system_name
from labelpool.words import counted
from labelpool.workflows.validate.full import display
from labelpool.yamlfile.nodes import ViewError, compose_root, node_at

RULE = "LP060"


class ProvenanceError(InputError):
    """The runs folder cannot be used (exit 1; e.g. two files give one system name)."""


def committed_runs(cfg: Config) -> dict[str, Path]:
    """System name -> run file, for every run file in ``cfg.runs_dir``.

    A run file is a file with a known run suffix (``.trec .run .txt .tsv .jsonl .gz``);
    two files giving one system name raise :class:`ProvenanceError`.
    """
    out: dict[str, Path] = {}
    if not cfg.runs_dir.is_dir():
        return out
    for path in sorted(cfg.runs_dir.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        if not has_run_suffix(path):
            continue
        name = system_name(path)
        if name in out:
            raise ProvenanceError(
                f"two run files give system {name!r}: {out[name].name} and {path.name}; rename one",
                path=cfg.runs_dir,
            )
        out[name] = path
    return out


# A run as pooled: ("file", path) or ("blob", blob id).
Source = tuple[str, str]


@dataclass(frozen=True)
class EntryTop:
    """One pool entry of one question, with its system's top ``k`` as pooled (or why not)."""

    qid: str
    index: int  # position of the entry in the label's ``pool`` list
    entry: PoolEntry
    docs: tuple[str, ...] | None  # None when skipped
    skipped: str | None = None  # reason: "unknown", "no run", "blob missing"


class PooledRuns:
    """The runs as pooled: each run file or recorded blob read once, cut at the deepest k."""

    def __init__(
        self, cfg: Config, runs: Mapping[str, Path] | None = None, *, keep: bool = True
    ) -> None:
        self.cfg = cfg
        self.runs = dict(runs) if runs is not None else committed_runs(cfg)
        self._current_blob: dict[str, str | None] = {}
        # run files read so far (shared with scorers); ``keep`` False: each run is let go
        # once its tops are cut (two 10,000,000-line runs held at once took 2.3 GB)
        self.loaded: dict[Path, Run] = {}
        self.keep = keep

    def _blob_of(self, system: str) -> str | None:
        if system not in self._current_blob:
            path = self.runs.get(system)
            try:
                blob = gitio.blob_id(self.cfg.root, path) if path is not None else None
            except gitio.GitError:
                blob = None
            self._current_blob[system] = blob
        return self._current_blob[system]

    def source(self, entry: PoolEntry) -> Source | str:
        """Where ``entry``'s run as pooled lives, or the reason it cannot be checked."""
        if entry.unknown:
            return "unknown"
        if entry.run:
            if entry.system in self.runs and self._blob_of(entry.system) == entry.run:
                return ("file", str(self.runs[entry.system]))
            return ("blob", entry.run)
        if entry.system in self.runs:
            return ("file", str(self.runs[entry.system]))
        return "no run"

    def sources(self, labels: Mapping[str, Label]) -> Sourced:
        """Every pool entry of every label with where its run as pooled lives (or why it
        cannot be read), and the deepest ``k`` each source is read to."""
        entries: list[tuple[str, int, PoolEntry, Source | str]] = []
        depth: dict[Source, int] = {}
        for qid, label in labels.items():
            for i, entry in enumerate(label.pool):
                src = self.source(entry)
                entries.append((qid, i, entry, src))
                if not isinstance(src, str):
                    assert entry.k is not None
                    depth[src] = max(depth.get(src, 0), entry.k)
        return Sourced(entries, depth)

    def read(self, sourced: Sourced) -> Iterator[tuple[Source, Run]]:
        """Each source's run, read once, in source order (a recorded blob git no longer has
        is left out); not held past the next one unless kept."""
        blobs = sorted(s[1] for s in sourced.depth if s[0] == "blob")
        contents: dict[str, bytes | None] = dict.fromkeys(blobs)
        if blobs:
            # Outside a git repository every recorded blob is missing.
            with contextlib.suppress(gitio.GitError):
                contents.update(zip(blobs, gitio.cat_blobs(self.cfg.root, blobs), strict=True))
        for src in sorted(sourced.depth):
            kind, where = src
            if kind == "file":
                held = self.loaded.get(Path(where))
                run = held if held is not None else runs_mod.read_run(Path(where))
                if self.keep:
                    self.loaded[Path(where)] = run
            else:
                data = contents.get(where)
                if data is None:
                    continue
                # a RunError names the blob and its system, not the temporary copy
                systems = sorted({e.system for *_, e, sr in sourced.entries if sr == src})
                described = f"git blob {where[:12]} (pooled run of {', '.join(systems)})"
                run = runs_mod.read_run_bytes(data, described, name=where, file_name=f"{where}.run")
            yield src, run
            del run  # not held past its use unless kept

    def entry_tops(self, labels: Mapping[str, Label]) -> list[EntryTop]:
        """Every pool entry of every label with its top ``k`` (reading each run once)."""
        sourced = self.sources(labels)
        tops: dict[Source, dict[str, list[str]]] = {}
        for source, run in self.read(sourced):
            tops[source] = run.top(sourced.depth[source])
        out: list[EntryTop] = []
        for qid, i, entry, src in sourced.entries:
            if isinstance(src, str):
                out.append(EntryTop(qid, i, entry, None, src))
            elif src not in tops:
                out.append(EntryTop(qid, i, entry, None, "blob missing"))
            else:
                assert entry.k is not None
                docs = tuple(tops[src].get(qid, ())[: entry.k])
                out.append(EntryTop(qid, i, entry, docs))
        return out


@dataclass(frozen=True)
class Sourced:
    """The pool entries of a label set with their sources (:meth:`PooledRuns.sources`)."""

    # (question, entry's index in its label's pool, entry, source or why there is none)
    entries: list[tuple[str, int, PoolEntry, Source | str]]
    depth: dict[Source, int]  # the deepest k each source is read to


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
    """Check every pool entry of ``labels`` (``paths``: question id -> label file)."""
    pooled = PooledRuns(cfg, keep=False)
    try:
        tops = pooled.entry_tops(labels)
    except RunError as exc:
        raise ProvenanceError(str(exc)) from None
    skipped: dict[str, int] = {}
    missing: set[str] = set()
    violations: dict[str, list[tuple[int, str]]] = {}  # qid -> (entry index, message)
    checked = 0
    for et in tops:
        if et.docs is None:
            assert et.skipped is not None
            skipped[et.skipped] = skipped.get(et.skipped, 0) + 1
            if et.skipped == "no run":
                missing.add(et.entry.system)
            continue
        checked += 1
        judged = labels[et.qid].judged
        for doc in et.docs:
            if doc not in judged:
                violations.setdefault(et.qid, []).append(
                    (
                        et.index,
                        f"question {et.qid}: {doc} is in {et.entry.system}'s top {et.entry.k} "
                        f"but not judged (pool entry {et.index + 1} says that top "
                        f"{et.entry.k} was judged in full)",
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

    labels: dict[str, Label] = {}
    where: dict[str, Path] = {}
    try:
        sets = [load(chosen)]
    except labelset.LabelSetError:  # some file is broken: load the others one by one
        sets = []
        for p in chosen:
            with contextlib.suppress(labelset.LabelSetError):
                sets.append(load([p]))
    for one in sets:
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
