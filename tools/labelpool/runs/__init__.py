"""Run files (TREC, JSON Lines, gzip) read into columnar arrays in trec_eval order.

One reader per format, one way to read: :func:`read_run` ``(path, name=None) -> Run``,
:func:`load` ``(cfg, spec, name=None)`` (a file or a system name in ``runs/``),
:func:`read_run_bytes` (a run held in memory, such as a git blob). They raise
:class:`RunError` (an :class:`~labelpool.errors.InputError`; ``str()`` is ``path:line:
message``).

* :mod:`.read`: format detection and the one reading path;
* :mod:`.cached`: the run cache, a parsed run's arrays kept in the cache folder by the file's
  SHA-256 (a hit skips the parse; damaged or foreign entries are misses);
* :mod:`.gzipped`: plain or gzip bytes (by magic bytes), the file's SHA-256;
* :mod:`.fast`: the pyarrow fast path for clean single-space TREC files;
* :mod:`.trec`: the careful whitespace TREC reader (``#`` comments, exact error lines);
* :mod:`.jsonl`: JSON Lines rows or ranked lists;
* :mod:`.order`: rows into trec_eval order (score descending, ties by doc id descending,
  the rank column ignored), duplicates found;
* :mod:`.model`: :class:`Run` (``name``, ``path``, ``sha256``, ``qids`` sorted by code
  point, ``offsets``, ``doc_codes`` into ``doc_vocab``, ``scores``; ``ranking(qid)``,
  ``top(k)``, ``qid_set``, ``qid_index(qid)``, ``tied_questions``);
* :mod:`.naming`: :func:`system_name`, :func:`resolve` (a path or a system name),
  :func:`expand` (also a folder of run files);
* :mod:`.arrow`: numpy <-> pyarrow without pandas;
* :mod:`.stream`: a run grouped by question in windows (scored without holding it whole).

A JSON Lines run of ranked lists (``{"qid", "doc_ids": [...]}``) keeps the list order (it is
given descending synthetic scores).
"""

from __future__ import annotations

from labelpool.runs.arrow import arrow_array, arrow_strings, numpy_of, ranks_within
from labelpool.runs.errors import RunError, RunNotFound
from labelpool.runs.gzipped import sha256_file
from labelpool.runs.model import Run
from labelpool.runs.naming import (
    FORMAT_SUFFIXES,
    RUN_SUFFIXES,
    expand,
    has_run_suffix,
    is_run_file,
    resolve,
    system_name,
)
from labelpool.runs.read import load, read_run, read_run_bytes

__all__ = [
    "FORMAT_SUFFIXES",
    "RUN_SUFFIXES",
    "Run",
    "RunError",
    "RunNotFound",
    "arrow_array",
    "arrow_strings",
    "expand",
    "has_run_suffix",
    "is_run_file",
    "load",
    "numpy_of",
    "ranks_within",
    "read_run",
    "read_run_bytes",
    "resolve",
    "sha256_file",
    "system_name",
]
