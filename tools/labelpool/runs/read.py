"""The one way a run is read: :func:`read_run` (a file), :func:`load` (a file or a system
name in ``runs/``), :func:`read_run_bytes` (a run held in memory, e.g. a git blob).

The format is told by the content: gzip by its magic bytes, JSON Lines by a first ``{``,
else TREC, tried on the fast path (:mod:`labelpool.runs.fast`) first and, when that refuses
the file, read by the careful line reader (:mod:`labelpool.runs.trec`) that accepts it or
names the line. Errors are therefore always exact, and the common case is fast. The file's
SHA-256 is computed on a thread beside the parser.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import numpy as np
import pyarrow as pa

from labelpool.config import Config
from labelpool.runs import gzipped
from labelpool.runs.arrow import arrow_strings
from labelpool.runs.errors import RunError
from labelpool.runs.fast import parse_trec_fast
from labelpool.runs.jsonl import parse_jsonl
from labelpool.runs.lines import EMPTY, Columns
from labelpool.runs.model import Run
from labelpool.runs.naming import resolve, system_name
from labelpool.runs.order import _DuplicateFound, order
from labelpool.runs.trec import parse_trec


def read_run(path: Path, name: str | None = None) -> Run:
    """Read a TREC or JSON Lines run (gzip by magic bytes) into a :class:`Run`."""
    path = Path(path)
    gz, head = gzipped.head(path)
    digest: list[str] = []
    hasher = threading.Thread(target=gzipped.sha256_file, args=(path, digest), daemon=True)
    hasher.start()
    try:
        if not head.strip() and not gzipped.all_bytes(path, gz).strip():
            raise RunError(path, 1, EMPTY)
        checked = True  # the line readers find duplicates themselves, naming both lines
        if head.lstrip().startswith(b"{"):
            qid, doc, scores = _arrays(parse_jsonl(path, gzipped.all_bytes(path, gz)))
        else:
            fast = parse_trec_fast(path, gz)
            if fast is None:
                qid, doc, scores = _arrays(parse_trec(path, gzipped.all_bytes(path, gz)))
            else:
                (qid, doc, scores), checked = fast, False
        try:
            qids, offsets, codes, vocab, ordered = order(
                qid, doc, scores, check_duplicates=not checked
            )
        except _DuplicateFound:
            parse_trec(path, gzipped.all_bytes(path, gz))  # raises RunError naming both lines
            raise AssertionError("a duplicate the line reader did not find") from None
        del qid, doc, scores
    finally:
        hasher.join()
    return Run(
        name=name if name else system_name(path),
        path=path,
        sha256=digest[0] if digest else "",
        qids=qids,
        offsets=offsets,
        doc_codes=codes,
        doc_vocab=vocab,
        scores=ordered,
    )


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
