"""Run files (TREC, JSON Lines, gzip) read into columnar arrays in trec_eval order.

Public API (other modules build on these names):

* :func:`read_run` ``(path, name=None) -> Run``: parse one run file. Raises :class:`RunError`.
* :class:`Run`: a frozen dataclass with

  - ``name``: the system name (file name minus ``.trec .run .txt .tsv .jsonl .gz``, or ``name``);
  - ``path``, ``sha256`` (hex digest of the file's bytes as stored, compressed or not);
  - ``qids``: ``np.ndarray`` of unique question ids (``str``), sorted by code point;
  - ``offsets``: ``np.ndarray[int64]`` of length ``len(qids) + 1``; question ``i``'s rows are
    ``offsets[i]:offsets[i + 1]``;
  - ``doc_codes``: ``np.ndarray[int32]``, each row's document as an index into ``doc_vocab``
    (a ``pyarrow.StringArray`` of the run's distinct ids): compact for millions of rows, and
    what the scorer joins on; ``docs``: the ids of every row in ranked order (a pyarrow string
    array, built on first use); ``scores``: ``np.ndarray[float64]`` aligned with the rows;
  - helpers ``ranking(qid) -> list[str]``, ``top(k) -> dict[str, list[str]]``, ``qid_set``,
    ``qid_index(qid) -> int | None``, ``tied_questions`` (questions whose scores are all equal).

* :func:`resolve` ``(cfg, spec) -> Path``: a run file path, or a system name looked up in
  ``cfg.runs_dir``; :func:`expand` ``(cfg, spec) -> list[Path]`` also takes a folder (its run
  files).
* :func:`system_name` ``(path) -> str``: the name a run file gives its system.

Ranking follows trec_eval exactly: score descending, ties broken by document id descending
(code-point order of the UTF-8 bytes), the rank column ignored. A JSON Lines run of ranked lists
(``{"qid", "doc_ids": [...]}``) keeps the list order (it is given descending synthetic scores).

Reader choice (measured on the project's 2-core machine, shared with other jobs): pyarrow's
multi-threaded CSV reader with a space delimiter parses 1 million run lines in 0.2-0.4 s and 7
million (238 MB) in 0.8-1.5 s; the exact Python line reader below takes 1.3 s per million
lines (about 9 s for 7 million). polars is not a dependency (and not installed here), so
pyarrow, already required, is used. Question ids are dictionary-encoded while parsing, blocks
are 1 MiB (fastest here, and a third of the peak memory of 16 MiB blocks), and document ids are
hash-encoded once into int32 codes (``doc_codes``) that the scorer joins on.

The fast path accepts only well-formed single-space-separated files; anything it rejects
(comment lines, tabs, runs of spaces, bad fields) is re-read by the careful line-by-line reader,
which either accepts the file (whitespace-separated like trec_eval) or raises a :class:`RunError`
with the physical line number. Errors are therefore always exact, and the common case is fast.
Runs written grouped by question and in rank order (what retrieval systems write) skip the
sort: that order is verified in one vectorised pass, and only question blocks are reordered.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pyarrow as pa

    from labelpool.config import Config

RUN_SUFFIXES = (".trec", ".run", ".txt", ".tsv", ".jsonl", ".gz")
GZIP_MAGIC = b"\x1f\x8b"


class RunError(Exception):
    """A run file cannot be used; ``str()`` is ``path:line: message``."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")


def system_name(path: Path) -> str:
    """File name minus every known run suffix (``bm25.trec.gz`` -> ``bm25``)."""
    name = path.name
    changed = True
    while changed:
        changed = False
        for suffix in RUN_SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                changed = True
    return name


@dataclass(frozen=True, eq=False)
class Run:
    """One system's ranked documents for every question, in trec_eval order."""

    name: str
    path: Path
    sha256: str
    qids: np.ndarray
    offsets: np.ndarray
    doc_codes: np.ndarray  # int32: each row's document as an index into ``doc_vocab``
    doc_vocab: pa.Array  # the run's distinct document ids (pyarrow strings, no order)
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.doc_codes)

    @cached_property
    def docs(self) -> pa.Array:
        """Document ids of every row in ranked order (a pyarrow string array)."""
        return self.doc_vocab.take(arrow_array(self.doc_codes.astype("int64")))

    @cached_property
    def qid_set(self) -> frozenset[str]:
        return frozenset(str(q) for q in self.qids)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {str(q): i for i, q in enumerate(self.qids)}

    def qid_index(self, qid: str) -> int | None:
        return self._index.get(qid)

    def ranking(self, qid: str) -> list[str]:
        """Document ids for ``qid`` in trec_eval order (empty when the run lacks it)."""
        i = self._index.get(qid)
        if i is None:
            return []
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        rows = self.doc_codes[a:b].astype("int64")
        return [str(d) for d in self.doc_vocab.take(arrow_array(rows)).to_pylist()]

    def top(self, k: int) -> dict[str, list[str]]:
        """The first ``k`` documents of every question, in trec_eval order."""
        import numpy as np

        counts = np.minimum(np.diff(self.offsets), max(k, 0))
        if len(counts) == 0:
            return {}
        starts = self.offsets[:-1]
        rows = np.repeat(starts, counts) + _ranks_within(counts)
        codes = self.doc_codes[rows].astype(np.int64)
        docs = self.doc_vocab.take(arrow_array(codes)).to_pylist()
        out: dict[str, list[str]] = {}
        pos = 0
        for q, c in zip(self.qids, counts, strict=True):
            out[str(q)] = docs[pos : pos + int(c)]
            pos += int(c)
        return out

    @cached_property
    def tied_questions(self) -> tuple[str, ...]:
        """Questions with two or more documents whose scores are all equal (order = doc id)."""
        import numpy as np

        n = np.diff(self.offsets)
        if len(n) == 0:
            return ()
        starts = self.offsets[:-1]
        has = n >= 2
        mx = _segment_reduce(np.maximum, self.scores, starts, n, -np.inf)
        mn = _segment_reduce(np.minimum, self.scores, starts, n, np.inf)
        tied = has & (mx == mn)
        return tuple(str(q) for q in self.qids[tied])


def _segment_reduce(
    ufunc: Any, values: np.ndarray, starts: np.ndarray, counts: np.ndarray, empty: float
) -> np.ndarray:
    import numpy as np

    out = np.full(len(counts), empty)
    nonempty = counts > 0
    if nonempty.any():
        out[nonempty] = ufunc.reduceat(values, starts[nonempty])
    return out


def _ranks_within(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., c-1 for every count ``c``, concatenated."""
    import numpy as np

    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    starts = ends - counts
    return np.arange(total, dtype=np.int64) - np.repeat(starts, counts)


# ---------------------------------------------------------------------------- reading


def _open_error(path: Path, exc: OSError) -> RunError:
    if isinstance(exc, IsADirectoryError):
        return RunError(path, None, "is a folder, not a run file")
    if isinstance(exc, FileNotFoundError):
        return RunError(path, None, "no such run file")
    return RunError(path, None, f"cannot read: {exc.strerror or exc}")


def _sha256_file(path: Path, out: list[str]) -> None:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)  # releases the GIL: runs beside the parser
    out.append(digest.hexdigest())


def _head(path: Path) -> tuple[bool, bytes]:
    """(gzip?, the first bytes of the decompressed content)."""
    try:
        with path.open("rb") as handle:
            magic = handle.read(2)
        if magic == GZIP_MAGIC:
            with gzip.open(path, "rb") as handle:
                return True, handle.read(1 << 16)
        with path.open("rb") as handle:
            return False, handle.read(1 << 16)
    except (EOFError, gzip.BadGzipFile) as exc:
        raise RunError(path, None, f"not a valid gzip file: {exc}") from None
    except OSError as exc:
        raise _open_error(path, exc) from None


def _all_bytes(path: Path, gz: bool) -> bytes:
    try:
        return gzip.decompress(path.read_bytes()) if gz else path.read_bytes()
    except (EOFError, gzip.BadGzipFile) as exc:
        raise RunError(path, None, f"not a valid gzip file: {exc}") from None
    except OSError as exc:
        raise _open_error(path, exc) from None


def read_run(path: Path, name: str | None = None) -> Run:
    """Read a TREC or JSON Lines run (gzip by magic bytes) into a :class:`Run`."""
    path = Path(path)
    gz, head = _head(path)
    digest: list[str] = []
    hasher = threading.Thread(target=_sha256_file, args=(path, digest), daemon=True)
    hasher.start()
    try:
        if not head.strip():
            data = _all_bytes(path, gz)
            if not data.strip():
                raise RunError(path, 1, "empty run file (no ranked documents)")
        data = b""
        checked = True  # the slow readers find duplicates themselves, naming both lines
        if head.lstrip().startswith(b"{"):
            data = _all_bytes(path, gz)
            columns = _columns_from_lists(*_parse_jsonl(path, data))
        else:
            columns = _parse_trec_fast(path, gz)
            if columns is None:
                data = _all_bytes(path, gz)
                columns = _columns_from_lists(*_parse_trec_slow(path, data))
            else:
                checked = False
        try:
            qids, offsets, codes, vocab, scores = _order(columns, check_duplicates=not checked)
        except _DuplicateFound:
            _parse_trec_slow(path, _all_bytes(path, gz))  # raises RunError naming both lines
            raise AssertionError("a duplicate the line reader did not find") from None
        del data, columns
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
        scores=scores,
    )


def _columns_from_lists(qids: list[str], docs: list[str], scores: list[float]) -> Any:
    import numpy as np

    return (arrow_strings(qids), arrow_strings(docs), np.asarray(scores, dtype=np.float64), None)


# pyarrow.array() imports pandas when it is installed (a quarter second of start-up); these
# build arrays from buffers instead.


def arrow_strings(values: list[str]) -> pa.Array:
    """A pyarrow string array from Python strings, without ``pyarrow.array``."""
    import numpy as np
    import pyarrow as pa

    joined = "".join(values)
    if joined.isascii():  # one byte per character: lengths without encoding each string
        data = joined.encode("ascii")
        lengths = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    else:
        encoded = [v.encode("utf-8") for v in values]
        data = b"".join(encoded)
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    offsets = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] < 2**31:
        return pa.Array.from_buffers(
            pa.string(),
            len(values),
            [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)],
        )
    return pa.Array.from_buffers(
        pa.large_string(), len(values), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )


_NUMPY_TYPES = {
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float": "float32",
    "double": "float64",
}


def numpy_of(array: pa.Array, fill: int | None = None) -> np.ndarray:
    """A numpy view of a primitive pyarrow array (``to_numpy`` imports pandas); nulls become
    ``fill`` (a copy), and without ``fill`` an array with nulls is refused."""
    import numpy as np

    dtype = np.dtype(_NUMPY_TYPES[str(array.type)])
    buffers = array.buffers()
    if buffers[1] is None or len(array) == 0:
        return np.zeros(0, dtype=dtype)
    start = array.offset * dtype.itemsize
    values = np.frombuffer(buffers[1], dtype=dtype, count=len(array), offset=start)
    if array.null_count:
        if fill is None:
            raise ValueError("numpy_of: the array has nulls")
        bits = np.unpackbits(np.frombuffer(buffers[0], dtype=np.uint8), bitorder="little")
        valid = bits[array.offset : array.offset + len(array)].astype(bool)
        values = np.where(valid, values, fill).astype(dtype)
    return values


def arrow_array(values: np.ndarray) -> pa.Array:
    """A pyarrow array over a numpy int64/float64/bool array, without ``pyarrow.array``."""
    import numpy as np
    import pyarrow as pa

    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    kinds = {np.dtype(np.int64): pa.int64(), np.dtype(np.float64): pa.float64()}
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(kinds[values.dtype], len(values), [None, pa.py_buffer(values)])


def _parse_trec_fast(path: Path, gz: bool) -> Any:
    """Multi-threaded pyarrow parse of a clean single-space file; None when it is not clean.

    Comment lines, tabs, runs of spaces, bad scores or field counts make pyarrow fail (or
    leave a ``#`` question id), and the caller then uses the exact line-by-line reader.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    names = ["qid", "q0", "doc", "rank", "score", "tag"]
    try:
        # a plain file by name (random access: lower peak memory than a stream)
        source = pa.input_stream(str(path), compression="gzip") if gz else str(path)
        table = pacsv.read_csv(
            source,
            # 1 MiB blocks: measured fastest here and a third of the peak memory of 16 MiB
            read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 20),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, escape_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={
                    # few distinct per block: dictionary-encoded while parsing
                    "qid": pa.dictionary(pa.int32(), pa.string()),
                    "q0": pa.string(),
                    "doc": pa.string(),  # many distinct per block: encoded once below
                    "rank": pa.string(),
                    "score": pa.float64(),
                    "tag": pa.string(),
                },
                include_columns=["qid", "doc", "score"],
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                null_values=[],
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError):
        return None
    pool = pa.default_memory_pool()
    pool.release_unused()  # parse buffers back to the system (mimalloc keeps them otherwise)
    if table.num_rows == 0:
        return None
    scores = _concat_numpy(table.column("score"), np.float64)
    if not np.isfinite(scores).all():
        return None
    qid = _global_codes(table.column("qid"))
    doc = _shared_codes(pc.dictionary_encode(table.column("doc")))
    del table
    pool.release_unused()
    for _, column in (qid, doc):
        if len(column) == 0 or pc.min(pc.binary_length(column)).as_py() == 0:
            return None
    if pc.any(pc.starts_with(qid[1], "#")).as_py():
        return None
    return (qid, doc, scores, None)


def _concat_numpy(chunked: pa.ChunkedArray, dtype: Any) -> np.ndarray:
    """One numpy array from the chunks (filled chunk by chunk: no intermediate copy)."""
    import numpy as np

    out = np.empty(len(chunked), dtype=dtype)
    at = 0
    for chunk in chunked.chunks:
        out[at : at + len(chunk)] = numpy_of(chunk)
        at += len(chunk)
    return out


def _shared_codes(chunked: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """(int32 codes, dictionary) of a chunked array dictionary-encoded in one pass (its
    chunks share one dictionary, the last chunk's being the complete one)."""
    import numpy as np

    codes = np.empty(len(chunked), dtype=np.int32)
    at = 0
    for chunk in chunked.chunks:
        codes[at : at + len(chunk)] = numpy_of(chunk.indices)
        at += len(chunk)
    return codes, chunked.chunks[-1].dictionary


def _global_codes(chunked: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """(int32 codes, dictionary) of a chunked dictionary column, one dictionary for all.

    Each parse block has its own dictionary; their concatenation is encoded once and every
    block's codes are translated with a numpy lookup (``unify_dictionaries`` would copy the
    whole column twice).
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = chunked.chunks
    if not chunks:
        return np.zeros(0, dtype=np.int32), pa.array([], type=pa.string())
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


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    yield from enumerate(data.split(b"\n"), start=1)


def _decode(path: Path, number: int, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RunError(path, number, f"not valid UTF-8 ({exc.reason})") from None


def _score(path: Path, number: int, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RunError(path, number, f"score {text!r} is not a number") from None
    if not math.isfinite(value):
        raise RunError(path, number, f"score {text!r} is not a finite number")
    return value


def _parse_trec_slow(path: Path, data: bytes) -> tuple[list[str], list[str], list[float]]:
    """Line-by-line TREC reader: whitespace-separated, ``#`` comments, exact error lines."""
    qids: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    seen: dict[tuple[str, str], int] = {}
    for number, raw in _lines(data):
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
        score = _score(path, number, score_text)
        first = seen.setdefault((qid, doc), number)
        if first != number:
            raise RunError(
                path,
                number,
                f"document {doc!r} appears twice for question {qid!r} (lines {first} and {number})",
            )
        qids.append(qid)
        docs.append(doc)
        scores.append(score)
    if not qids:
        raise RunError(path, 1, "empty run file (no ranked documents)")
    return qids, docs, scores


def _parse_jsonl(path: Path, data: bytes) -> tuple[list[str], list[str], list[float]]:
    """``{"qid","doc_id","score"}`` rows, or ``{"qid","doc_ids":[...]}`` ranked lists."""
    qids: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    seen: dict[tuple[str, str], int] = {}
    list_line: dict[str, int] = {}
    kind: str | None = None
    for number, raw in _lines(data):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunError(path, number, f"bad JSON: {exc}") from None
        if not isinstance(obj, dict) or "qid" not in obj:
            raise RunError(path, number, 'expected an object with "qid"')
        qid = _id_text(path, number, obj["qid"], "qid")
        this = "lists" if "doc_ids" in obj else "rows"
        if kind is None:
            kind = this
        elif kind != this:
            raise RunError(
                path, number, 'mixes {"doc_ids": [...]} lists with {"doc_id", "score"} rows'
            )
        if this == "lists":
            ranked = obj["doc_ids"]
            if not isinstance(ranked, list):
                raise RunError(path, number, '"doc_ids" must be a list of document ids')
            if qid in list_line:
                raise RunError(
                    path,
                    number,
                    f"question {qid!r} is ranked twice (lines {list_line[qid]} and {number})",
                )
            list_line[qid] = number
            n = len(ranked)
            local: set[str] = set()
            for i, d in enumerate(ranked):
                doc = _id_text(path, number, d, "doc_ids item")
                if doc in local:
                    raise RunError(
                        path,
                        number,
                        f"document {doc!r} appears twice in the list of question {qid!r}",
                    )
                local.add(doc)
                qids.append(qid)
                docs.append(doc)
                scores.append(float(n - i))
        else:
            if "doc_id" not in obj or "score" not in obj:
                raise RunError(path, number, 'expected "qid", "doc_id" and "score" (or "doc_ids")')
            doc = _id_text(path, number, obj["doc_id"], "doc_id")
            value = obj["score"]
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise RunError(path, number, f"score {value!r} is not a number")
            score = _score(path, number, str(value))
            first = seen.setdefault((qid, doc), number)
            if first != number:
                raise RunError(
                    path,
                    number,
                    f"document {doc!r} appears twice for question {qid!r} "
                    f"(lines {first} and {number})",
                )
            qids.append(qid)
            docs.append(doc)
            scores.append(score)
    if not qids:
        raise RunError(path, 1, "empty run file (no ranked documents)")
    return qids, docs, scores


def _id_text(path: Path, number: int, value: Any, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RunError(path, number, f"{what} {value!r} is not a string")
    text = str(value)
    if not text or any(c.isspace() for c in text):
        raise RunError(path, number, f"{what} {text!r} is empty or contains whitespace")
    return text


def _sort_ranks(values: pa.Array) -> np.ndarray:
    """Rank (int32, 0-based) of each entry of a small array of distinct strings, ascending."""
    import numpy as np
    import pyarrow.compute as pc

    out = np.empty(len(values), dtype=np.int32)
    out[numpy_of(pc.sort_indices(values)).astype(np.int64)] = np.arange(len(values), dtype=np.int32)
    return out


def _order(columns: Any, check_duplicates: bool) -> Any:
    """Put rows in trec_eval order; check duplicates; build qids, offsets, doc codes.

    Questions and documents are dictionary-encoded first (hash, multi-threaded C++), so the
    rest works on integers. Run files are nearly always written grouped by question and in
    rank order; that is checked in one vectorised pass, and then only the question blocks are
    reordered. Otherwise pyarrow sorts all rows (question, score descending, doc id
    descending).
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    qid, doc, scores, _ = columns
    scores = np.asarray(scores, dtype=np.float64)
    q_codes, q_dict = qid if isinstance(qid, tuple) else _encode(qid)
    qrank = _sort_ranks(q_dict)
    row_q = qrank[q_codes]
    qids = np.asarray(q_dict.take(_argsort_strings(q_dict)).to_pylist(), dtype=object)
    del qid, q_codes
    codes, vocab = doc if isinstance(doc, tuple) else _encode(doc)
    del doc
    order = _presorted_order(row_q, scores, codes, vocab, len(qids))
    if order is None:
        doc_rank = _sort_ranks(vocab)[codes]
        table = pa.Table.from_arrays(
            [
                arrow_array(row_q.astype(np.int64)),
                arrow_array(scores),
                arrow_array(doc_rank.astype(np.int64)),
            ],
            names=["q", "score", "doc"],
        )
        del doc_rank
        order = numpy_of(
            pc.sort_indices(
                table,
                sort_keys=[("q", "ascending"), ("score", "descending"), ("doc", "descending")],
            )
        ).astype(np.int64)
        del table
    if order is not False:
        row_q, scores, codes = row_q[order], scores[order], codes[order]
    counts = np.bincount(row_q, minlength=len(qids)).astype(np.int64)
    offsets = np.zeros(len(qids) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    if check_duplicates:
        _check_duplicates(row_q, codes, len(vocab))
    return qids, offsets, codes, vocab, scores


def _encode(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    import numpy as np
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(values)
    return numpy_of(encoded.indices).astype(np.int32, copy=False), encoded.dictionary


def _argsort_strings(values: pa.Array) -> pa.Array:
    import pyarrow.compute as pc

    return pc.sort_indices(values)


def _presorted_order(
    row_q: np.ndarray, scores: np.ndarray, codes: np.ndarray, vocab: pa.Array, nq: int
) -> Any:
    """Rows already grouped by question and in trec order within each group: the block
    permutation (``False`` when none is needed); ``None`` when a full sort is needed."""
    import numpy as np
    import pyarrow.compute as pc

    n = len(row_q)
    if n < 2:
        return False
    change = row_q[1:] != row_q[:-1]
    if int(change.sum()) != nq - 1:
        return None  # a question's rows are not contiguous
    same = ~change
    s0, s1 = scores[:-1], scores[1:]
    if bool((same & (s0 < s1)).any()):
        return None
    tied = np.flatnonzero(same & (s0 == s1))
    if len(tied):
        left = vocab.take(arrow_array(codes[tied].astype(np.int64)))
        right = vocab.take(arrow_array(codes[tied + 1].astype(np.int64)))
        if not pc.all(pc.greater(left, right)).as_py():
            return None
    starts = np.concatenate([[0], np.flatnonzero(change) + 1]).astype(np.int64)
    block_q = row_q[starts]
    if bool((block_q[1:] > block_q[:-1]).all()):
        return False
    counts = np.diff(np.concatenate([starts, [n]]))
    by_q = np.argsort(block_q, kind="stable")
    return (np.repeat(starts[by_q], counts[by_q]) + _ranks_within(counts[by_q])).astype(np.int64)


def _check_duplicates(row_q: np.ndarray, codes: np.ndarray, n_vocab: int) -> None:
    """Raise :class:`_DuplicateFound` when a doc id appears twice for one question."""
    import numpy as np

    if len(codes) < 2:
        return
    width = max(n_vocab, 1)
    small = int(row_q.max()) * width + width < 2**31
    key: np.ndarray = row_q.astype(np.int32 if small else np.int64)
    key *= width
    key += codes
    key.sort()
    if bool((key[1:] == key[:-1]).any()):
        raise _DuplicateFound()


class _DuplicateFound(Exception):
    pass


def is_run_file(path: Path) -> bool:
    """A file whose name ends with a known run suffix (``.trec .run .txt .tsv .jsonl .gz``)."""
    return path.is_file() and path.name.endswith(RUN_SUFFIXES) and system_name(path) != path.name


def expand(cfg: Config, spec: str) -> list[Path]:
    """:func:`resolve`, except that a folder stands for every run file in it (sorted by name;
    other files such as a README or the script that made the runs are left out)."""
    folder = Path(spec)
    if folder.is_dir():
        found = sorted(p for p in folder.iterdir() if is_run_file(p))
        if not found:
            raise RunError(spec, None, f"no run files in this folder ({', '.join(RUN_SUFFIXES)})")
        return found
    return [resolve(cfg, spec)]


def resolve(cfg: Config, spec: str) -> Path:
    """A run given as a path, or a system name found in ``cfg.runs_dir``.

    A system name matches the unique file of ``cfg.runs_dir`` whose :func:`system_name`
    equals it; no match or several matches raise :class:`RunError` listing the candidates.
    """
    direct = Path(spec)
    if direct.is_file():
        return direct
    runs_dir = cfg.runs_dir
    candidates = sorted(p for p in runs_dir.iterdir() if p.is_file()) if runs_dir.is_dir() else []
    matches = [p for p in candidates if system_name(p) == spec]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        listed = ", ".join(p.name for p in matches)
        raise RunError(spec, None, f"system name is ambiguous in {runs_dir}: {listed}")
    known = ", ".join(sorted({system_name(p) for p in candidates})) or "none"
    raise RunError(
        spec, None, f"no such run file, and no run named so in {runs_dir} (known: {known})"
    )
