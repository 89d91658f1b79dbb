"""The one way a run is read: :func:`read_run` (a file), :func:`load` (a file or a system
name in ``runs/``), :func:`read_run_bytes` (a run held in memory, e.g. a git blob).

The format is told by the content: gzip by its magic bytes, JSON Lines by a first ``{``,
else TREC, tried on the fast path (:mod:`labelpool.runs.fast`) first and, when that refuses
the file, read by the careful line reader (:mod:`labelpool.runs.trec`) that accepts it or
names the line. Errors are therefore always exact, and the common case is fast. The file's
SHA-256 is computed on a thread beside the careful reader's look at the head; a run read
before with the same digest comes from the run cache (:mod:`labelpool.runs.cached`) instead
of the parser, and a run parsed without error is kept there.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import numpy as np
import pyarrow as pa

from labelpool.config import Config
from labelpool.runs import cached, gzipped
from labelpool.runs.arrow import arrow_strings
from labelpool.runs.errors import RunError
from labelpool.runs.fast import layout, parse_trec_fast
from labelpool.runs.jsonl import parse_jsonl, parse_jsonl_rows
from labelpool.runs.lines import BOM, Columns, read_lines, split_lines
from labelpool.runs.model import Run
from labelpool.runs.naming import resolve, system_name
from labelpool.runs.order import DuplicateFound, order
from labelpool.runs.trec import parse_trec, parse_trec_rows


def read_run(path: Path, name: str | None = None) -> Run:
    """Read a TREC or JSON Lines run (gzip by magic bytes) into a :class:`Run`.

    The first 64 KiB are read by the careful reader first, so that an error there (a
    duplicate on line 2 of a file of one repeated line) is named at once; a file that small
    is read by it whole. Larger TREC files go to the fast path, and to the careful reader
    (streaming, stopping at the first error) when the fast path refuses them.
    """
    path = Path(path)
    gz, head, whole = gzipped.head(path)
    digest: list[str] = []
    hasher = threading.Thread(target=gzipped.sha256_file, args=(path, digest), daemon=True)
    hasher.start()
    try:
        columns = careful_head(path, head, whole)  # beside the hash: a head error at once
    finally:
        hasher.join()
    sha256 = digest[0] if digest else ""
    where = cached.folder()
    kept = cached.load(where, sha256) if sha256 else None
    if kept is None:
        kept = _parsed(path, gz, head, columns)
        if sha256:
            cached.save(where, sha256, kept)
    return Run(
        name=name if name else system_name(path),
        path=path,
        sha256=sha256,
        qids=kept.qids,
        offsets=kept.offsets,
        doc_codes=kept.doc_codes,
        doc_vocab=kept.doc_vocab,
        scores=kept.scores,
    )


def _parsed(path: Path, gz: bool, head: bytes, columns: Columns | None) -> cached.Arrays:
    """The run's arrays, parsed (``columns``: the whole file's rows when the head was all)."""
    checked = True  # the line readers find duplicates themselves, naming both lines
    if columns is not None:
        qid, doc, scores = _arrays(columns)
    elif _is_jsonl(head):
        qid, doc, scores = _arrays(parse_jsonl(path, read_lines(path, gz)))
    else:
        shape = layout(head)
        fast = None if shape is None else parse_trec_fast(path, gz, *shape)
        if fast is None:
            qid, doc, scores = _arrays(parse_trec(path, read_lines(path, gz)))
        else:
            (qid, doc, scores), checked = fast, False
    try:
        qids, offsets, codes, vocab, ordered = order(qid, doc, scores, check_duplicates=not checked)
    except DuplicateFound:
        parse_trec(path, read_lines(path, gz))  # raises RunError naming both lines
        raise AssertionError("a duplicate the line reader did not find") from None
    return cached.Arrays(qids, offsets, codes, vocab, ordered)


def _is_jsonl(head: bytes) -> bool:
    return head.removeprefix(BOM).lstrip().startswith(b"{")


def careful_head(path: Path, head: bytes, whole: bool) -> Columns | None:
    """The whole file's rows when ``head`` is the whole file; else None, after the careful
    reader has checked the head's complete lines (raising the first error there)."""
    blocks = iter((head, b""))
    lines = split_lines(path, lambda: next(blocks), final=whole)
    if _is_jsonl(head):
        rows = parse_jsonl(path, lines) if whole else parse_jsonl_rows(path, lines)
    else:
        rows = parse_trec(path, lines) if whole else parse_trec_rows(path, lines)
    return rows if whole else None


def _arrays(columns: Columns) -> tuple[pa.Array, pa.Array, np.ndarray]:
    qids, docs, scores = columns
    return arrow_strings(qids), arrow_strings(docs), np.asarray(scores, dtype=np.float64)


def load(cfg: Config, spec: str, name: str | None = None) -> Run:
    """The run ``spec`` names: a file, or a system name in ``cfg.runs_dir``."""
    return read_run(resolve(cfg, spec), name=name)


def read_run_bytes(data: bytes, described: str, *, name: str, file_name: str = "run") -> Run:
    """A run held in memory (a git blob, a file at a revision), named ``name``; a
    :class:`RunError` names ``described``, not the temporary copy the bytes are read from."""
    with tempfile.TemporaryDirectory(prefix="labelpool-run-") as tmp:
        path = Path(tmp) / file_name
        path.write_bytes(data)
        try:
            return read_run(path, name=name)
        except RunError as exc:
            raise RunError(described, exc.line, exc.message) from None
