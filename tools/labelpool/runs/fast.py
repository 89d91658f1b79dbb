"""The fast TREC path: pyarrow's multi-threaded CSV reader on clean files whose fields are
separated by exactly one space, or exactly one tab.

Measured on the project's 2-core machine, shared with other jobs: pyarrow's CSV reader parses
1 million run lines in 0.2-0.4 s and 7 million (238 MB) in 0.8-1.5 s, with a space or a tab
alike; the careful line reader (:mod:`labelpool.runs.trec`) takes over a second per million
lines. Question ids are dictionary-encoded while parsing, blocks are 1 MiB (fastest here, and
a third of the peak memory of 16 MiB blocks), and document ids are hash-encoded once into
int32 codes. The other fields (``Q0``, rank, tag, any after the sixth) are read as small
per-block dictionaries only to check them, then dropped.

It accepts only files the careful reader would read the same way: the separator (a space or a
tab) is told by the first line; comment lines, the other separator or a run of separators,
control characters, bad scores or a row with another number of fields make it return None,
and the caller uses the careful reader, which accepts the file or names the line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from labelpool.runs.arrow import concat_numpy, numpy_of

# (int32 codes, dictionary) of one column
Encoded = tuple[np.ndarray, pa.Array]
KEPT = ("qid", "doc", "score")
MAX_FIELDS = 16  # more fields a line: the careful reader (each field is a column here)


def layout(head: bytes) -> tuple[str, int] | None:
    """(separator, fields per line) told by the first line of ``head``, or None when that
    line is not one clean row (a comment, mixed or repeated separators)."""
    if b"\n" not in head:
        return None  # no whole line in the head: not a run a table reader should try
    first = head.split(b"\n", 1)[0].removeprefix(b"\xef\xbb\xbf").rstrip(b"\r")
    tabs, spaces = b"\t" in first, b" " in first
    if tabs == spaces or first.startswith(b"#"):
        return None
    sep = "\t" if tabs else " "
    fields = first.split(sep.encode())
    if not 6 <= len(fields) <= MAX_FIELDS or b"" in fields:
        return None
    return sep, len(fields)


def csv_options(
    sep: str, n_fields: int, block: int = 1 << 20
) -> tuple[pacsv.ReadOptions, pacsv.ParseOptions, pacsv.ConvertOptions]:
    """pyarrow's CSV options for a run of ``n_fields`` fields separated by ``sep``, parsed
    ``block`` bytes at a time."""
    names = ["qid", "q0", "doc", "rank", "score", *(f"f{i}" for i in range(5, n_fields))]
    # few distinct values per block: dictionary-encoded while parsing (int32 indices, the
    # only kind pyarrow's CSV reader builds)
    types = {name: pa.dictionary(pa.int32(), pa.string()) for name in names}
    types.update(doc=pa.string(), score=pa.float64())  # doc: many distinct, encoded below
    return (
        # 1 MiB blocks: measured fastest here and a third of the peak memory of 16 MiB
        pacsv.ReadOptions(column_names=names, block_size=block),
        pacsv.ParseOptions(delimiter=sep, quote_char=False, escape_char=False),
        pacsv.ConvertOptions(
            column_types=types,
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            null_values=[],
        ),
    )


def parse_trec_fast(
    path: Path, gz: bool, sep: str, n_fields: int
) -> tuple[Encoded, Encoded, np.ndarray] | None:
    """Multi-threaded pyarrow parse of a clean file; None when it is not clean."""
    read, parse, convert = csv_options(sep, n_fields)
    try:
        # a plain file by name (random access: lower peak memory than a stream)
        source = pa.input_stream(str(path), compression="gzip") if gz else str(path)
        table = pacsv.read_csv(
            source, read_options=read, parse_options=parse, convert_options=convert
        )
    except (pa.ArrowException, OSError):
        return None
    return columns_of(table)


def columns_of(table: pa.Table) -> tuple[Encoded, Encoded, np.ndarray] | None:
    """(question codes, document codes, scores) of a parsed table; None when it is not what
    the careful reader would read the same way."""
    pool = pa.default_memory_pool()
    pool.release_unused()  # parse buffers back to the system (mimalloc keeps them otherwise)
    if table.num_rows == 0:
        return None
    for name in table.column_names:
        if name not in KEPT and not all(_clean(c.dictionary) for c in table.column(name).chunks):
            return None
    table = table.select(list(KEPT))
    scores = concat_numpy(table.column("score"), np.float64)
    if not np.isfinite(scores).all():
        return None
    qid = _global_codes(table.column("qid"))
    doc = _shared_codes(pc.dictionary_encode(table.column("doc")))
    del table
    pool.release_unused()
    if not (_clean(qid[1]) and _clean(doc[1])):
        return None
    if pc.any(pc.starts_with(qid[1], "#")).as_py():
        return None
    return (qid, doc, scores)


def _clean(values: pa.Array) -> bool:
    """No empty value, and no byte that is a control character or a separator."""
    if len(values) == 0:
        return True
    if pc.min(pc.binary_length(values)).as_py() == 0:
        return False
    buffers = values.buffers()
    width = 8 if pa.types.is_large_string(values.type) else 4
    offsets = np.frombuffer(
        buffers[1],
        dtype=np.int64 if width == 8 else np.int32,
        count=len(values) + 1,
        offset=values.offset * width,
    )
    data = np.frombuffer(buffers[2], dtype=np.uint8)[int(offsets[0]) : int(offsets[-1])]
    return not bool(((data <= 0x20) | (data == 0x7F)).any())


def _shared_codes(chunked: pa.ChunkedArray) -> Encoded:
    """(int32 codes, dictionary) of a chunked array dictionary-encoded in one pass (its
    chunks share one dictionary, the last chunk's being the complete one)."""
    codes = np.empty(len(chunked), dtype=np.int32)
    at = 0
    for chunk in chunked.chunks:
        codes[at : at + len(chunk)] = numpy_of(chunk.indices)
        at += len(chunk)
    return codes, chunked.chunks[-1].dictionary


def _global_codes(chunked: pa.ChunkedArray) -> Encoded:
    """(int32 codes, dictionary) of a chunked dictionary column, one dictionary for all.

    Each parse block has its own dictionary; their concatenation is encoded once and every
    block's codes are translated with a numpy lookup (``unify_dictionaries`` would copy the
    whole column twice).
    """
    chunks = chunked.chunks  # never empty: the caller returned on an empty table
    merged = pc.dictionary_encode(pa.concat_arrays([c.dictionary for c in chunks]))
    global_of = numpy_of(merged.indices)
    out = np.empty(len(chunked), dtype=np.int32)
    at = base = 0
    for chunk in chunks:
        n_dict = len(chunk.dictionary)
        out[at : at + len(chunk)] = global_of[base : base + n_dict][numpy_of(chunk.indices)]
        at += len(chunk)
        base += n_dict
    return out, merged.dictionary
