"""The runs as pooled: where each pool entry's run lives, each run read once, and every
entry's top ``k`` cut from them as arrays. Shared by provenance (LP060) and ``bias``.

A pool entry ``{system, k, date, run}`` was pooled from the blob it records (``run: <blob
id>``) when git still has it (the current file when that is the same blob), else from the
current file in ``runs/`` whose system name is ``system``. The entries of a label set are
read as arrays (:class:`Entries`): from the label index's ``pool_system``, ``pool_k`` and
``pool_run`` columns when the set carries them (no label built), else label by label;
:func:`cut` gives their tops as one (entry, document) column over every source.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import columns, gitio
from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.model import UNKNOWN_SYSTEM, Label, PoolEntry
from labelpool.runs import (
    Run,
    arrow_array,
    arrow_strings,
    has_run_suffix,
    numpy_of,
    ranks_within,
    system_name,
)


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
class Entries:
    """Every pool entry of a label set, label by label in the set's order, then in each
    label's ``pool`` order, as columns."""

    questions: list[str]  # the set's question ids
    q: np.ndarray  # int64: the question (index into ``questions``) of each entry
    index: np.ndarray  # int64: the entry's position in its label's ``pool``
    system: list[str]
    k: np.ndarray  # int64 (0 for ``k: null``)
    known: np.ndarray  # bool: not of unknown origin (a system other than ``unknown``, a k)
    run: list[str | None]  # the recorded run blob

    def qid(self, i: int) -> str:
        return self.questions[int(self.q[i])]


def entries_of(labels: Mapping[str, Label]) -> Entries:
    """The pool entries of ``labels``: from the set's columns when it carries them."""
    cols = columns.of(labels)
    if cols is None:
        questions = list(labels)
        pools = [labels[q].pool for q in questions]
        counts = np.fromiter(map(len, pools), dtype=np.int64, count=len(pools))
        every: list[PoolEntry] = list(chain.from_iterable(pools))
        return Entries(
            questions=questions,
            q=np.repeat(np.arange(len(questions), dtype=np.int64), counts),
            index=ranks_within(counts),
            system=[p.system for p in every],
            k=np.fromiter((p.k or 0 for p in every), dtype=np.int64, count=len(every)),
            known=np.fromiter((not p.unknown for p in every), dtype=bool, count=len(every)),
            run=[p.run for p in every],
        )
    table = cols.table
    rows, systems = columns.flat(table.column("pool_system"))
    depths = columns.flat(table.column("pool_k"))[1]
    runs = columns.flat(table.column("pool_run"))[1]
    counts = np.bincount(rows, minlength=len(table)) if len(rows) else np.zeros(0, np.int64)
    has_k = np.asarray(pc.is_valid(depths).to_numpy(zero_copy_only=False), dtype=bool)
    named = np.asarray(pc.equal(systems, UNKNOWN_SYSTEM).to_numpy(zero_copy_only=False), bool)
    return Entries(
        questions=table.column("id").to_pylist(),
        q=rows,
        index=ranks_within(counts),
        system=systems.to_pylist(),
        k=numpy_of(pc.fill_null(depths, 0)).astype(np.int64),
        known=has_k & ~named,
        run=runs.to_pylist(),
    )


@dataclass(frozen=True)
class Sourced:
    """The pool entries of a label set with their sources (:meth:`PooledRuns.sources`)."""

    entries: Entries
    where: list[Source | str]  # each entry's source, or why it has none
    depth: dict[Source, int]  # the deepest k each source is read to


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

    def source_of(self, system: str, known: bool, run: str | None) -> Source | str:
        """Where an entry's run as pooled lives, or the reason it cannot be checked."""
        if not known:
            return "unknown"
        if run:
            if system in self.runs and self._blob_of(system) == run:
                return ("file", str(self.runs[system]))
            return ("blob", run)
        if system in self.runs:
            return ("file", str(self.runs[system]))
        return "no run"

    def source(self, entry: PoolEntry) -> Source | str:
        """Where ``entry``'s run as pooled lives, or the reason it cannot be checked."""
        return self.source_of(entry.system, not entry.unknown, entry.run)

    def sources(self, labels: Mapping[str, Label]) -> Sourced:
        """Every pool entry of every label with where its run as pooled lives (or why it
        cannot be read), and the deepest ``k`` each source is read to."""
        entries = entries_of(labels)
        found: dict[tuple[str, bool, str | None], Source | str] = {}
        where: list[Source | str] = []
        depth: dict[Source, int] = {}
        for system, known, run, k in zip(
            entries.system, entries.known.tolist(), entries.run, entries.k.tolist(), strict=True
        ):
            key = (system, known, run)
            src = found.get(key)
            if src is None:
                src = found[key] = self.source_of(system, known, run)
            where.append(src)
            if not isinstance(src, str) and k > depth.get(src, 0):
                depth[src] = k
        return Sourced(entries, where, depth)

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
                pairs = zip(sourced.entries.system, sourced.where, strict=True)
                systems = sorted({s for s, sr in pairs if sr == src})
                described = f"git blob {where[:12]} (pooled run of {', '.join(systems)})"
                run = runs_mod.read_run_bytes(data, described, name=where, file_name=f"{where}.run")
            yield src, run
            del run  # not held past its use unless kept


@dataclass(frozen=True)
class Tops:
    """Every pool entry's top ``k`` as pooled: ``length`` per entry (the documents read; -1
    when none could be: of unknown origin, no run, or a recorded blob git no longer has),
    and one row per document, ``row_entry`` its entry, ``docs`` its id (in rank order
    within an entry)."""

    length: np.ndarray
    row_entry: np.ndarray
    docs: pa.Array


def cut(pooled: PooledRuns, sourced: Sourced) -> Tops:
    """Each entry's top ``k`` of its run as pooled (each run read once, cut as arrays)."""
    entries = sourced.entries
    n = len(entries.q)
    of_source: dict[Source, list[int]] = {}
    for i, src in enumerate(sourced.where):
        if not isinstance(src, str):
            of_source.setdefault(src, []).append(i)
    length = np.full(n, -1, dtype=np.int64)
    rows_entry: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    rows_doc: list[pa.Array] = [pa.array([], type=pa.string())]
    for src, run in pooled.read(sourced):
        mine = np.array(of_source[src], dtype=np.int64)
        names = arrow_strings([entries.qid(i) for i in of_source[src]])
        run_ids = arrow_strings([str(q) for q in run.qids])
        at_run = numpy_of(pc.index_in(names, value_set=run_ids), fill=-1).astype(np.int64)
        at = np.maximum(at_run, 0)
        count = np.where(at_run >= 0, np.minimum(np.diff(run.offsets)[at], entries.k[mine]), 0)
        length[mine] = count
        rows = np.repeat(run.offsets[:-1][at], count) + ranks_within(count)
        rows_entry.append(np.repeat(mine, count))
        codes = arrow_array(run.doc_codes[rows].astype(np.int64))
        rows_doc.append(run.doc_vocab.take(codes).cast(pa.string()))
        del run
    return Tops(length, np.concatenate(rows_entry), pa.concat_arrays(rows_doc))


def judged_docs(labels: Mapping[str, Label], qids: list[str]) -> tuple[np.ndarray, pa.Array]:
    """(index into ``qids``, document) of every judged document of ``qids``
    (``Label.judged``: ``judged_ids`` and every class member, repeats harmless): from the
    label set's columns when it carries them (no label built), else label by label."""
    cols = columns.of(labels)
    if cols is not None:
        table = cols.table.take(pa.array(cols.rows(qids), pa.int64()))
        judged_rows, judged = columns.flat(table.column("judged"))
        member_rows, members = columns.flat(table.column("members"))
        docs = pa.concat_arrays([judged.cast(pa.string()), members.cast(pa.string())])
        return np.concatenate([judged_rows, member_rows]), docs
    lists = [tuple(labels[q].judged) for q in qids]
    counts = np.fromiter(map(len, lists), np.int64, len(qids))
    rows = np.repeat(np.arange(len(qids), dtype=np.int64), counts)
    return rows, arrow_strings(list(chain.from_iterable(lists)))
