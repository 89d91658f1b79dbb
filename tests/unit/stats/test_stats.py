"""stats: the sign-flip test against scipy, bootstrap coverage, Holm, MDE; readings table."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import stats
from labelpool.config import Readings
from labelpool.readings import MEANINGFUL, RELABEL, UNINTERPRETABLE, reading, why
from labelpool.stats import bootstrap_ci, bootstrap_ci_many, holm, mde, paired_randomization


def _scipy_p(d: np.ndarray, n_resamples: float = np.inf) -> float:
    res = scipy.stats.permutation_test(
        (d,),
        lambda x, axis: np.mean(x, axis=axis),
        permutation_type="samples",
        alternative="two-sided",
        n_resamples=n_resamples,
        vectorized=True,
    )
    return float(res.pvalue)


def _ir_like(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    """Deltas as measures make them: many zeros, ties, tenths that do not sum exactly."""
    if kind == 0:
        return rng.integers(0, 11, n) / 10 - rng.integers(0, 11, n) / 10
    if kind == 1:
        return rng.integers(-3, 4, n) / 10.0
    if kind == 2:
        d = rng.normal(0.03, 0.2, n)
        d[rng.random(n) < 0.4] = 0.0
        return d
    return 1 / rng.integers(1, 11, n) - 1 / rng.integers(1, 11, n)


@pytest.mark.parametrize("seed", range(40))
def test_exact_p_value_equals_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 15))
    d = _ir_like(rng, n, seed % 4)
    res = paired_randomization(d)
    assert res.method == "exact" and res.n == n and res.samples == 2**n
    assert res.p_value == pytest.approx(_scipy_p(d), abs=1e-12)


@pytest.mark.parametrize(
    "d",
    [
        np.zeros(6),  # all ties: p = 1
        np.array([0.1, -0.1, 0.2, -0.2, 0.0, 0.3, -0.3]),  # mean exactly 0
        np.array([-0.1, -0.2, 0.3, -0.2, -0.1, 0.1, 0.2, 0.1, 0.3, -0.3, -0.1]),  # mean ~1e-17
        np.array([0.5] * 8),  # the most extreme outcome: p = 2 / 2**8
        np.array([0.1, 0.1, 0.1, -0.1, 0.0, 0.0]),
    ],
)
def test_exact_p_value_equals_scipy_on_ties_and_zeros(d: np.ndarray) -> None:
    assert paired_randomization(d).p_value == pytest.approx(_scipy_p(d), abs=1e-12)


def test_exact_p_value_equals_scipy_at_twenty_questions() -> None:
    rng = np.random.default_rng(20)
    d = _ir_like(rng, 20, 0)
    res = paired_randomization(d)
    assert res.method == "exact" and res.samples == 2**20
    assert res.p_value == pytest.approx(_scipy_p(d), abs=1e-12)


def test_known_small_case_by_hand() -> None:
    # 3 positive deltas: of 8 sign patterns only +++ is >= observed and only --- <= -observed.
    assert paired_randomization(np.array([0.2, 0.3, 0.4])).p_value == pytest.approx(2 / 8)


def test_monte_carlo_within_standard_error_of_exact() -> None:
    rng = np.random.default_rng(7)
    d = rng.normal(0.02, 0.1, 30)
    samples = 20_000
    mc = paired_randomization(d, samples=samples, seed=3)
    assert mc.method == "monte-carlo" and mc.samples == samples
    # The exact value for n = 30 via scipy would take 2**30 statistics: use its own Monte Carlo
    # with many more draws as the reference, and the sign-flip null's normal approximation.
    ref = _scipy_p(d, n_resamples=200_000)
    se = math.sqrt(ref * (1 - ref) / samples) + math.sqrt(ref * (1 - ref) / 200_000)
    assert abs(mc.p_value - ref) <= 3 * se


def test_monte_carlo_agrees_with_exact_on_twenty_questions() -> None:
    # Exact is available up to 20: force Monte Carlo by asking for n = 21 with a zero delta
    # added (a zero delta does not change the null distribution of the sum).
    rng = np.random.default_rng(11)
    d = _ir_like(rng, 20, 2)
    exact = paired_randomization(d).p_value
    samples = 40_000
    # Adding a zero keeps the sum; the mean is scaled by 20/21 on both sides alike.
    mc = paired_randomization(np.append(d, 0.0), samples=samples, seed=5)
    assert mc.method == "monte-carlo"
    se = math.sqrt(exact * (1 - exact) / samples)
    assert abs(mc.p_value - exact) <= 4 * se + 1 / samples


def test_monte_carlo_plus_one_correction() -> None:
    # All 25 deltas positive: no draw is as extreme, p = 2 * (1 + hits) / (samples + 1).
    d = np.full(25, 0.1)
    res = paired_randomization(d, samples=999, seed=0)
    # The all-positive pattern has probability 2**-25: practically never drawn.
    assert res.p_value == pytest.approx(2 * 1 / 1000)


def test_same_seed_same_results_different_seed_differs() -> None:
    rng = np.random.default_rng(1)
    d = rng.normal(0.01, 0.2, 60)
    a = paired_randomization(d, samples=5000, seed=42)
    b = paired_randomization(d, samples=5000, seed=42)
    c = paired_randomization(d, samples=5000, seed=43)
    assert a == b
    assert a.p_value != c.p_value
    assert bootstrap_ci(d, seed=9) == bootstrap_ci(d, seed=9)
    assert bootstrap_ci(d, seed=9) != bootstrap_ci(d, seed=10)


def test_bootstrap_interval_contains_mean_and_is_ordered() -> None:
    d = np.random.default_rng(2).normal(0.05, 0.1, 40)
    low, high = bootstrap_ci(d, resamples=2000)
    assert low < float(np.mean(d)) < high


def test_bootstrap_coverage_on_simulated_data() -> None:
    # Deltas as a measure makes them: a few values, many ties and zeros, known true mean.
    values = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
    probs = np.array([0.10, 0.15, 0.45, 0.17, 0.13])
    true_mean = float(values @ probs)  # 0.03
    n, sims = 50, 300
    rng = np.random.default_rng(2026)
    hits = 0
    for s in range(sims):
        d = rng.choice(values, size=n, p=probs)
        low, high = bootstrap_ci(d, resamples=2000, seed=s)
        hits += low <= true_mean <= high
    coverage = hits / sims
    # nominal 0.95; the percentile bootstrap undercovers a little at n = 50; binomial sd ~ 0.013
    assert 0.90 <= coverage <= 0.985, coverage


def test_bootstrap_level_widens_interval() -> None:
    d = np.random.default_rng(3).normal(0.0, 0.1, 30)
    l90, h90 = bootstrap_ci(d, level=0.90)
    l99, h99 = bootstrap_ci(d, level=0.99)
    assert l99 < l90 < h90 < h99


def test_holm_hand_computed() -> None:
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> monotone 0.06
    expected = np.array([0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm(p), expected, rtol=0, atol=1e-15)


def test_holm_caps_at_one_and_is_monotone() -> None:
    p = np.array([0.5, 0.9, 0.2])
    adj = holm(p)
    np.testing.assert_allclose(adj, [1.0, 1.0, 0.6])
    order = np.argsort(p)
    assert np.all(np.diff(adj[order]) >= 0)
    assert holm(np.array([])).size == 0
    np.testing.assert_allclose(holm(np.array([0.2])), [0.2])


def test_mde_formula_with_sample_sd() -> None:
    d = np.array([0.1, -0.2, 0.05, 0.3, 0.0, -0.1])
    sd = float(np.std(d, ddof=1))
    expected = (scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)) * sd / math.sqrt(6)
    assert mde(d) == pytest.approx(expected, rel=1e-12)
    assert mde(d, alpha=0.01) > mde(d)
    assert math.isnan(mde(np.array([0.1])))


def test_bad_deltas_are_rejected() -> None:
    with pytest.raises(ValueError):
        paired_randomization(np.array([0.1, np.nan]))
    with pytest.raises(ValueError):
        bootstrap_ci(np.ones((2, 2)))


R = Readings()


@pytest.mark.parametrize(
    ("baseline", "challenger", "expected"),
    [
        (0.0, 0.0, MEANINGFUL),
        (0.0, 0.04, MEANINGFUL),  # ratio infinite but difference below 0.05
        (0.0, 0.05, UNINTERPRETABLE),  # a 0 rate: the difference decides
        (0.03, 0.08, MEANINGFUL),  # 2.7x: below the ratio
        (0.02, 0.07, UNINTERPRETABLE),  # 3.5x and 0.05 apart
        (0.03, 0.09, UNINTERPRETABLE),  # exactly 3x, 0.06 apart
        (0.01, 0.04, MEANINGFUL),  # 4x but only 0.03 apart
        (0.09, 0.03, UNINTERPRETABLE),  # either way round
        (0.10, 0.10, MEANINGFUL),  # 0.10 is still low
        (0.05, 0.10, MEANINGFUL),  # 2x
        (0.03, 0.41, UNINTERPRETABLE),  # low / high
        (0.41, 0.03, UNINTERPRETABLE),  # high / low
        (0.0, 0.11, UNINTERPRETABLE),
        (0.11, 0.5, RELABEL),
        (0.6, 0.6, RELABEL),
    ],
)
def test_reading_table(baseline: float, challenger: float, expected: str) -> None:
    assert reading(baseline, challenger, R) == expected
    assert why(baseline, challenger, R)


def test_reading_follows_config_thresholds() -> None:
    strict = Readings(high=0.02, ratio=2.0, min_difference=0.01)
    assert reading(0.03, 0.03, strict) == RELABEL
    assert reading(0.01, 0.02, strict) == UNINTERPRETABLE
    assert reading(0.01, 0.02, R) == MEANINGFUL
    with pytest.raises(ValueError):
        reading(-0.1, 0.0, R)


_deltas = st.lists(st.integers(-10, 10).map(lambda x: x / 10), min_size=1, max_size=12).map(
    np.array
)


@settings(max_examples=60, deadline=None)
@given(_deltas, st.randoms(use_true_random=False))
def test_exact_p_value_is_symmetric_and_order_free(d: np.ndarray, rnd) -> None:  # type: ignore[no-untyped-def]
    p = paired_randomization(d).p_value
    assert 0.0 < p <= 1.0
    assert paired_randomization(-d).p_value == pytest.approx(p, abs=1e-12)
    # Question order does not matter, except when the mean is exactly zero in theory: then
    # scipy's tie tolerance (relative to an observed mean of ~1e-17) depends on rounding, and
    # so does the p-value (inherited from the definition; labelpool sorts questions by id).
    if abs(float(np.sum(np.round(d * 10)))) >= 1:
        shuffled = d.copy()
        rnd.shuffle(shuffled)
        assert paired_randomization(shuffled).p_value == pytest.approx(p, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_holm_is_never_below_the_raw_p_and_keeps_order(ps: list[float]) -> None:
    p = np.array(ps)
    adj = holm(p)
    assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= -1e-15)


@pytest.mark.parametrize("n", [21, 64, 999])
def test_monte_carlo_draws_equal_unpacked_bits(n: int) -> None:
    """The byte-table sum sees the very draws of the plain version: every random bit unpacked
    into a float matrix (one batch here), so the p-value is the same."""
    d = np.random.default_rng(n).normal(0.05, 1.0, n)
    samples = 3000
    rng = np.random.default_rng(7)
    raw = np.frombuffer(rng.bytes(samples * ((n + 7) // 8)), dtype=np.uint8)
    flips = np.unpackbits(raw.reshape(samples, -1), axis=1, count=n).astype(np.float64)
    null = (d.sum() - 2.0 * (flips @ d)) / n
    observed = np.mean(d)
    less = (np.count_nonzero(null <= observed) + 1) / (samples + 1)
    greater = (np.count_nonzero(null >= observed) + 1) / (samples + 1)
    expected = min(1.0, 2.0 * min(less, greater))
    assert paired_randomization(d, samples=samples, seed=7).p_value == expected


@pytest.mark.parametrize("n", [1, 5, 21, 300, 2000])
def test_bootstrap_of_several_measures_equals_one_call_each(n: int) -> None:
    """compare resamples the questions once for every measure: each interval is the one a call
    of its own gives, to the bit (the same seeded draws, the same summation order)."""
    rng = np.random.default_rng(n)
    measures = [np.round(rng.normal(0.01, 0.2, n), 3) for _ in range(4)] + [np.zeros(n)]
    together = bootstrap_ci_many(measures, resamples=3000, seed=11)
    idx = np.random.default_rng(11).integers(0, n, size=(3000, n))  # the plain version
    plain = [tuple(np.quantile(d[idx].mean(axis=1), [0.025, 0.975]).tolist()) for d in measures]
    assert np.allclose(together, plain, rtol=0, atol=1e-12)  # sums in other chunks
    assert together == [bootstrap_ci(d, resamples=3000, seed=11) for d in measures]


def test_bootstrap_of_several_measures_needs_the_same_questions() -> None:
    with pytest.raises(ValueError, match="same questions"):
        bootstrap_ci_many([np.zeros(3), np.zeros(4)])
    assert bootstrap_ci_many([]) == []


def _plain_p(d: np.ndarray, samples: int, seed: int) -> float:
    """The sign-flip p-value with every random bit unpacked into a float matrix, drawn in the
    batches the test draws in (the reference the byte table is held to)."""
    n = d.size
    width = (n + 7) // 8
    rows = max(1, (1 << 22) // n)
    rng = np.random.default_rng(seed)
    observed = np.mean(d)
    gamma = abs(np.finfo(np.float64).eps * 100 * observed)
    less = greater = 0
    for start in range(0, samples, rows):
        size = min(samples, start + rows) - start
        raw = np.frombuffer(rng.bytes(size * width), dtype=np.uint8).reshape(size, width)
        flips = np.unpackbits(raw, axis=1, count=n).astype(np.float64)
        null = (d.sum() - 2.0 * (flips @ d)) / n
        less += np.count_nonzero(null <= observed + gamma)
        greater += np.count_nonzero(null >= observed - gamma)
    return min(1.0, 2.0 * min((less + 1) / (samples + 1), (greater + 1) / (samples + 1)))


def test_sign_flip_over_many_batches_equals_unpacked_bits() -> None:
    """More draws than one batch holds: the byte table sees the draws of the plain version,
    batch after batch."""
    rng = np.random.default_rng(3)
    n = 5000  # 838 draws a batch: 9 batches
    for k in range(4):
        d = _ir_like(rng, n, k)
        assert paired_randomization(d, samples=7000, seed=1).p_value == _plain_p(d, 7000, 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5000), min_size=1, max_size=5), st.integers(0, 2**32 - 1))
def test_random_bytes_are_the_generators_bytes(lengths: list[int], seed: int) -> None:
    """The sign-flip's draws: ``rng.bytes`` call after call, odd lengths too (the partial
    last word of one call is not carried to the next)."""
    plain, fast = np.random.default_rng(seed), np.random.default_rng(seed)
    for length in lengths:
        assert stats._random_bytes(fast, length).tobytes() == plain.bytes(length)
