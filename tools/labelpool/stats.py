"""The noise floor of a paired comparison: sign-flip test, bootstrap interval, Holm, MDE.

Pure numpy (scipy is only the reference in the tests). Every function takes the per-question
deltas ``challenger - baseline`` of one measure and is deterministic for a given ``seed``.

* :func:`paired_randomization`: the p-value exactly as ``scipy.stats.permutation_test((d,),
  mean, permutation_type='samples', alternative='two-sided')`` defines it: the sign of each
  delta is flipped; two-sided is twice the smaller one-sided p-value, capped at 1; ties of the
  statistic are detected with scipy's relative tolerance (100 machine epsilons of the observed
  mean); exact (all ``2**n`` sign assignments) for ``n <= 20``, else Monte Carlo with
  ``samples`` seeded draws and the ``+1`` correction.
* :func:`bootstrap_ci`: paired percentile bootstrap of the mean delta.
* :func:`holm`: Holm's step-down adjusted p-values.
* :func:`mde`: minimum detectable effect ``(z_{1-alpha/2} + z_power) * sd / sqrt(n)``, with the
  sample standard deviation (``ddof=1``).
* :func:`draws_for`: the budget of draws x questions: the requested draws while their product
  with the questions fits the budget, fewer past it (never below a floor, in whole steps).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

EXACT_MAX_N = 20
DRAWS = 100_000  # the sign-flip test's Monte Carlo draws while DRAWS_BUDGET holds them
DRAWS_BUDGET = 1_000_000_000  # draws x questions
DRAWS_FLOOR = 10_000
DRAWS_STEP = 1_000
RESAMPLES = 10_000  # the bootstrap's resamples while RESAMPLES_BUDGET holds them
RESAMPLES_BUDGET = 100_000_000  # resamples x questions
RESAMPLES_FLOOR = 1_000
RESAMPLES_STEP = 100
_CHUNK_ELEMENTS = 1 << 22  # rows x questions per batch (32 MiB of float64)
# rows x columns of the temporary arrays summed at once: they stay in the CPU cache (measured
# 2.5-4.5x faster than a whole batch at 10,000 questions; the sums are the same)
_CACHE_ELEMENTS = 1 << 18


@dataclass(frozen=True)
class TestResult:
    """Outcome of :func:`paired_randomization`."""

    __test__ = False  # not a pytest test class

    p_value: float
    method: str  # "exact" or "monte-carlo"
    n: int  # questions
    samples: int  # sign assignments evaluated (2**n when exact)


def _as_deltas(deltas: np.ndarray) -> np.ndarray:
    d = np.asarray(deltas, dtype=np.float64)
    if d.ndim != 1:
        raise ValueError("deltas must be a one-dimensional array")
    if not np.all(np.isfinite(d)):
        raise ValueError("deltas must be finite")
    return d


def _sign_rows(start: int, stop: int, n: int) -> np.ndarray:
    """Sign patterns ``start..stop-1`` of all ``2**n``: bit i of the index flips question i."""
    idx = np.arange(start, stop, dtype=np.int64)[:, None]
    bits = (idx >> np.arange(n, dtype=np.int64)[None, :]) & 1
    return 1.0 - 2.0 * bits.astype(np.float64)


def _null_means(signs: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Mean of each sign-flipped row, summed left to right as scipy's strided reduction does.

    Theoretically tied statistics must round alike for the p-value to equal scipy's (its tie
    tolerance is relative to the observed mean, which can be ~1e-17 for a zero mean), so the
    summation order is scipy's: question 0, then 1, ... (not numpy's pairwise contiguous sum).
    """
    acc = signs[:, 0] * d[0]
    for i in range(1, d.size):
        acc = acc + signs[:, i] * d[i]
    out: np.ndarray = acc / d.size
    return out


def _byte_sums(d: np.ndarray) -> np.ndarray:
    """``table[256 * j + v]``: the sum of the deltas of questions ``8j..8j+7`` whose bit is
    set in byte value ``v`` (bit 7 first, numpy's ``unpackbits`` order; questions past the end
    are 0)."""
    width = (d.size + 7) // 8
    padded = np.zeros(width * 8, dtype=np.float64)
    padded[: d.size] = d
    bits = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float64)
    table: np.ndarray = (padded.reshape(width, 8) @ bits.T).ravel()
    return table


def _random_bytes(rng: np.random.Generator, length: int) -> np.ndarray:
    """``rng.bytes(length)`` as a uint8 array, with one copy instead of four: the same
    little-endian 32-bit words of the same stream (a partial last word is drawn whole and
    its tail dropped, as ``Generator.bytes`` does; it draws one word for no byte too)."""
    words = rng.integers(0, 1 << 32, size=max(1, (length + 3) // 4), dtype=np.uint32)
    out: np.ndarray = words.astype("<u4", copy=False).view(np.uint8)[:length]
    return out


def draws_for(n: int, requested: int, budget: int, floor: int, step: int) -> int:
    """How many draws of ``n`` questions each to make when ``requested`` are asked for:
    ``requested`` while ``requested * n <= budget``; past that ``budget // n`` rounded down to
    a multiple of ``step``, but at least ``floor`` and never more than ``requested``."""
    if min(requested, budget, floor, step) < 1 or n < 0:
        raise ValueError("requested, budget, floor and step must be positive, n at least 0")
    if requested * n <= budget:
        return requested
    fitted = budget // n // step * step
    return min(requested, max(floor, fitted))


def paired_randomization(deltas: np.ndarray, *, samples: int = DRAWS, seed: int = 0) -> TestResult:
    """Two-sided paired sign-flip test of the mean delta (see the module docstring)."""
    d = _as_deltas(deltas)
    n = int(d.size)
    if n == 0:
        return TestResult(p_value=1.0, method="exact", n=0, samples=1)
    if n <= EXACT_MAX_N:
        return _exact(d)
    if samples < 1:
        raise ValueError("samples must be at least 1")
    observed = np.mean(d)  # scipy's observed statistic: the contiguous (pairwise) mean
    gamma = abs(np.finfo(np.float64).eps * 100 * observed)
    rng = np.random.default_rng(seed)
    d_sum = float(np.sum(d))
    table = _byte_sums(d)
    width = (n + 7) // 8
    base = (np.arange(width, dtype=np.intp) * 256)[None, :]
    n_less = 0
    n_greater = 0
    # Draws in batches of rows as before the table (``rng.bytes`` drops a partial 4-byte
    # word: the same batches give the same draws), summed in cache-sized parts. One random bit
    # per question flips its sign (bit 7 of byte j: question 8j, as numpy's unpackbits reads
    # it); the 8 flips of a byte are summed by one lookup. The parts' index, gather and sum
    # arrays are allocated once and reused: a fresh array per part costs page faults that
    # took 1.4 s of CPU for 100,000 draws over 10,000 questions where the reuse takes 0.3 s.
    rows = max(1, _CHUNK_ELEMENTS // n)
    part = max(1, _CACHE_ELEMENTS // width)
    index = np.empty((min(part, samples), width), dtype=np.intp)
    gathered = np.empty(index.shape, dtype=np.float64)
    flipped = np.empty(index.shape[0], dtype=np.float64)
    for start in range(0, samples, rows):
        size = min(samples, start + rows) - start
        raw = _random_bytes(rng, size * width).reshape(size, width)
        for lo in range(0, size, part):
            m = min(part, size - lo)
            np.add(raw[lo : lo + m], base, out=index[:m])
            np.take(table, index[:m], out=gathered[:m], mode="clip")  # in range: no clipping
            np.sum(gathered[:m], axis=1, out=flipped[:m])
            null = (d_sum - 2.0 * flipped[:m]) / n
            n_less += int(np.count_nonzero(null <= observed + gamma))
            n_greater += int(np.count_nonzero(null >= observed - gamma))
    p_less = (n_less + 1) / (samples + 1)
    p_greater = (n_greater + 1) / (samples + 1)
    p = min(1.0, 2.0 * min(p_less, p_greater))
    return TestResult(p_value=float(p), method="monte-carlo", n=n, samples=samples)


def _same_length(ds: list[np.ndarray]) -> list[np.ndarray]:
    if len({d.size for d in ds}) > 1:
        raise ValueError("every measure's deltas must cover the same questions")
    return ds


def _exact(d: np.ndarray) -> TestResult:
    """Every ``2**n`` sign assignment (``n <= EXACT_MAX_N``)."""
    n = int(d.size)
    observed = np.mean(d)  # scipy's observed statistic: the contiguous (pairwise) mean
    gamma = abs(np.finfo(np.float64).eps * 100 * observed)
    rows = max(1, _CHUNK_ELEMENTS // n)
    n_less = 0
    n_greater = 0
    total = 1 << n
    for start in range(0, total, rows):
        stop = min(total, start + rows)
        null = _null_means(_sign_rows(start, stop, n), d)
        n_less += int(np.count_nonzero(null <= observed + gamma))
        n_greater += int(np.count_nonzero(null >= observed - gamma))
    p = min(1.0, 2.0 * min(n_less / total, n_greater / total))
    return TestResult(p_value=float(p), method="exact", n=n, samples=total)


def bootstrap_ci(
    deltas: np.ndarray, *, resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Paired percentile bootstrap interval of the mean delta (questions resampled)."""
    return bootstrap_ci_many([deltas], resamples=resamples, seed=seed, level=level)[0]


def bootstrap_ci_many(
    deltas: Sequence[np.ndarray], *, resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95
) -> list[tuple[float, float]]:
    """:func:`bootstrap_ci` of several measures' deltas over the same questions, each equal to
    ``bootstrap_ci(d, resamples=resamples, seed=seed, level=level)``: the seeded resamples
    are drawn once and gathered from every measure's deltas (the same means to the bit)."""
    ds = _same_length([_as_deltas(d) for d in deltas])
    if not ds:
        return []
    n = int(ds[0].size)
    if n == 0:
        return [(math.nan, math.nan) for _ in ds]
    if not 0.0 < level < 1.0:
        raise ValueError("level must be between 0 and 1")
    rng = np.random.default_rng(seed)
    # Drawn in parts of rows that stay in the CPU cache: one call of ``rng.integers`` for
    # many rows gives the same indices as consecutive calls for its parts (the generator's
    # state carries over), so the draws are those of one call for every resample. The
    # gather and sum arrays are allocated once (fresh ones cost page faults).
    part = max(1, _CACHE_ELEMENTS // n)
    gathered = np.empty((min(part, resamples), n), dtype=np.float64)
    means = [np.empty(resamples, dtype=np.float64) for _ in ds]
    for lo in range(0, resamples, part):
        m = min(part, resamples - lo)
        idx = rng.integers(0, n, size=(m, n))
        for k, d in enumerate(ds):
            np.take(d, idx, out=gathered[:m], mode="clip")  # in range: no clipping
            # ``mean(axis=1)``: the row sums, then divided by n (the same rounding)
            total = np.sum(gathered[:m], axis=1, out=means[k][lo : lo + m])
            np.divide(total, n, out=total)
    tail = (1.0 - level) / 2.0
    out = []
    for column in means:
        low, high = np.quantile(column, [tail, 1.0 - tail])
        out.append((float(low), float(high)))
    return out


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values, in the input order (monotone, capped at 1)."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = (m - np.arange(m)) * p[order]
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(scaled))
    out = np.empty(m, dtype=np.float64)
    out[order] = adjusted_sorted
    return out


def mde(deltas: np.ndarray, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest mean delta a two-sided test at ``alpha`` detects with ``power`` (NaN if n < 2)."""
    d = _as_deltas(deltas)
    n = int(d.size)
    if n < 2:
        return math.nan
    z = NormalDist()
    sd = float(np.std(d, ddof=1))
    return (z.inv_cdf(1.0 - alpha / 2.0) + z.inv_cdf(power)) * sd / math.sqrt(n)
