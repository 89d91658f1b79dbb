"""Export labels as TREC qrels: ``qid 0 doc grade``.

Judged irrelevant 0, relevant its grade (class members the class's grade), pooled but never
judged -1 (trec_eval's "pooled, unjudged"). Documents waiting in a pending batch are not
exported (no judgment yet). No comment lines (ir_measures rejects them); rows sorted by
question id, then document id, in code-point order.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from labelpool import atomic
from labelpool.errors import StateError, UsageError
from labelpool.model import QrelsRow, qrels_rows

__all__ = ["ExportFailed", "check_out_path", "format_qrels", "qrels_rows", "write_qrels"]


class ExportFailed(StateError):
    """The qrels cannot be written where asked (exit 1)."""


def check_out_path(out: Path) -> None:
    """``--out`` must be a regular file or nothing yet: atomic replacement would put a regular
    file where a folder or a device is (:class:`UsageError`, exit 2)."""
    if out.is_dir() or (out.exists() and not out.is_file()):
        raise UsageError(f"--out {out}: not a regular file")


def write_qrels(out: Path, text: str) -> None:
    """Write ``text`` to ``out`` atomically (:class:`ExportFailed` when it cannot be written)."""
    try:
        atomic.write_text(out, text)
    except OSError as exc:
        raise ExportFailed(f"cannot write: {exc.strerror or exc}", path=out) from None


def format_qrels(rows: Iterable[QrelsRow]) -> str:
    return "".join(f"{qid} 0 {doc} {grade}\n" for qid, doc, grade in rows)
