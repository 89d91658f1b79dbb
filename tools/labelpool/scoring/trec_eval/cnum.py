"""C's number parsing and rounding as trec_eval 10.0 uses them: ``atol``, ``atof``, ``lround``,
and ``printf("%6.4f")`` of a NaN (glibc prints ``-nan`` for 0/0 on x86-64)."""

from __future__ import annotations

import math
import re

import numpy as np

_LONG = re.compile(r"^[ \t\n\v\f\r]*([+-]?[0-9]+)")
_FLOAT = re.compile(
    r"^[ \t\n\v\f\r]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|[+-]?(?:inf(?:inity)?|nan))",
    re.IGNORECASE,
)


def atol(text: str) -> int:
    """C ``atol``: the leading integer of ``text``, 0 when there is none."""
    match = _LONG.match(text)
    return int(match.group(1)) if match else 0


def atof(text: str) -> float:
    """C ``atof``: the leading decimal number of ``text``, 0.0 when there is none."""
    match = _FLOAT.match(text)
    return float(match.group(1)) if match else 0.0


def lround(values: np.ndarray) -> np.ndarray:
    """C ``lround``: to the nearest integer, halves away from zero (exact for doubles)."""
    whole = np.trunc(values)
    frac = values - whole  # exact: whole and values share their leading bits
    out: np.ndarray = (whole + np.sign(values) * (np.abs(frac) >= 0.5)).astype(np.int64)
    return out


def trunc_long(values: np.ndarray) -> np.ndarray:
    """C's ``(long) x``: toward zero."""
    out: np.ndarray = np.trunc(values).astype(np.int64)
    return out


def fixed(value: float) -> str:
    """``printf("%6.4f", value)`` as glibc prints it (a NaN from 0/0 is ``-nan``)."""
    if math.isnan(value):
        # every NaN trec_eval prints comes from 0.0 / 0.0, which x86-64 makes negative
        return "  -nan"
    if math.isinf(value):
        return "  -inf" if value < 0 else "   inf"
    return f"{value:6.4f}"


def two_decimals(value: float) -> str:
    """``printf("%3.2f", value)`` (the names of measures with double cut-offs)."""
    return f"{value:3.2f}"
