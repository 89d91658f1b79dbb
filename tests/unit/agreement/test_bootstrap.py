"""The vectorised bootstrap equals resampling the questions one replicate at a time and
computing the statistic on the resampled panel."""

from __future__ import annotations

import numpy as np
import pytest

from labelpool.agreement import alpha, bootstrap
from labelpool.agreement.panel import value_counts


def test_replicates_equal_a_loop_over_resampled_panels() -> None:
    rng = np.random.default_rng(3)
    units, questions = 60, 12
    question = rng.integers(0, questions, units)
    grades = rng.integers(0, 4, (units, 3)).astype(float)
    grades[rng.random((units, 3)) < 0.3] = np.nan
    values = np.arange(4)
    counts = value_counts(grades, values)
    block = alpha.block(question, counts, alpha.ORDINAL)
    ours = bootstrap.replicates_of([block], questions, 50, seed=5)[0]
    draws = bootstrap.draws(np.random.default_rng(5), 50, questions)
    for r in range(50):
        picked = np.repeat(np.arange(questions), draws[r].astype(int))
        rows = np.concatenate([np.flatnonzero(question == q) for q in picked])
        expected = alpha.alpha(counts[rows], alpha.ORDINAL) if rows.size else np.nan
        if np.isnan(expected):
            assert np.isnan(ours[r])
        else:
            assert ours[r] == pytest.approx(expected, abs=1e-12)


def test_the_interval_is_over_the_defined_replicates() -> None:
    rng = np.random.default_rng(4)
    question = rng.integers(0, 9, 40)
    counts = value_counts(rng.integers(0, 3, (40, 2)).astype(float), np.arange(3))
    block = alpha.block(question, counts, alpha.NOMINAL)
    whole = bootstrap.replicates_of([block], 9, 30, seed=1)[0]
    assert whole.shape == (30,)
    assert bootstrap.interval(whole) is not None
    assert bootstrap.interval(np.full(4, np.nan)) is None
    assert bootstrap.interval(np.array([np.nan, 0.0, 1.0])) == pytest.approx((0.025, 0.975))
