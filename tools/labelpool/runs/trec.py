"""The careful TREC reader: whitespace-separated like trec_eval, ``#`` comments, exact lines.

``qid Q0 docid rank score tag``, one row a line. Every file the fast path
(:mod:`labelpool.runs.fast`) refuses is read here, which either accepts it or raises a
:class:`~labelpool.runs.errors.RunError` with the physical line number.
"""

from __future__ import annotations

from pathlib import Path

from labelpool.runs.errors import RunError
from labelpool.runs.lines import Columns, add_row, lines, non_empty, score_of


def _decode(path: Path, number: int, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RunError(path, number, f"not valid UTF-8 ({exc.reason})") from None


def parse_trec(path: Path, data: bytes) -> Columns:
    """Line-by-line TREC reader: whitespace-separated, ``#`` comments, exact error lines."""
    columns: Columns = ([], [], [])
    seen: dict[tuple[str, str], int] = {}
    for number, raw in lines(data):
        text = _decode(path, number, raw).strip()
        if not text or text.startswith("#"):
            continue
        fields = text.split()
        if len(fields) != 6:
            raise RunError(
                path,
                number,
                f"expected 6 fields `qid Q0 docid rank score tag`, found {len(fields)}",
            )
        qid, _q0, doc, _rank, score_text, _tag = fields
        score = score_of(path, number, score_text)
        add_row(columns, seen, path, number, (qid, doc, score))
    return non_empty(path, columns)
