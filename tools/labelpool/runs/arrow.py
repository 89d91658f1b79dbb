"""numpy <-> pyarrow without ``pyarrow.array`` or ``to_numpy``.

``pyarrow.array()`` and ``Array.to_numpy()`` import pandas when it is installed (a quarter
second of start-up); these build arrays from buffers instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

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


def arrow_strings(values: list[str]) -> pa.Array:
    """A pyarrow string array from Python strings, without ``pyarrow.array``."""
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


def numpy_of(array: pa.Array, fill: int | None = None) -> np.ndarray:
    """A numpy view of a primitive pyarrow array (``to_numpy`` imports pandas); nulls become
    ``fill`` (a copy), and without ``fill`` an array with nulls is refused."""
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
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    kinds = {np.dtype(np.int64): pa.int64(), np.dtype(np.float64): pa.float64()}
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(kinds[values.dtype], len(values), [None, pa.py_buffer(values)])


def concat_numpy(chunked: pa.ChunkedArray, dtype: Any) -> np.ndarray:
    """One numpy array from the chunks (filled chunk by chunk: no intermediate copy)."""
    out = np.empty(len(chunked), dtype=dtype)
    at = 0
    for chunk in chunked.chunks:
        out[at : at + len(chunk)] = numpy_of(chunk)
        at += len(chunk)
    return out


def ranks_within(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., c-1 for every count ``c``, concatenated."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    starts = ends - counts
    out: np.ndarray = np.arange(total, dtype=np.int64) - np.repeat(starts, counts)
    return out
