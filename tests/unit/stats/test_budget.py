"""The noise floor's budget: :func:`labelpool.stats.draws_for` (properties), the counts a
comparison makes (:mod:`labelpool.workflows.evaluate.noise`), and a Monte Carlo p-value of
the reduced draws beside the full one."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labelpool import stats
from labelpool.errors import UsageError
from labelpool.stats import draws_for, paired_randomization
from labelpool.workflows.evaluate import noise

questions = st.integers(min_value=0, max_value=10**7)
positive = st.integers(min_value=1, max_value=10**9)


@st.composite
def settings(draw: st.DrawFn) -> tuple[int, int, int, int]:
    """``requested, budget, floor, step`` with the floor a multiple of the step (as both
    defaults are)."""
    step = draw(st.integers(min_value=1, max_value=10_000))
    floor = step * draw(st.integers(min_value=1, max_value=1_000))
    return draw(positive), draw(st.integers(min_value=1, max_value=10**12)), floor, step


@given(questions, settings())
def test_never_above_requested_and_the_floor_unless_requested_is_lower(
    n: int, s: tuple[int, int, int, int]
) -> None:
    requested, budget, floor, step = s
    got = draws_for(n, requested, budget, floor, step)
    assert 1 <= got <= requested
    assert got >= min(floor, requested)


@given(questions, settings())
def test_requested_while_within_budget_else_a_multiple_of_step_within_it(
    n: int, s: tuple[int, int, int, int]
) -> None:
    requested, budget, floor, step = s
    got = draws_for(n, requested, budget, floor, step)
    if requested * n <= budget:
        assert got == requested
        return
    assert got == requested or got % step == 0
    if got > floor:  # above the floor, the product is within the budget, by less than a step
        assert got * n <= budget
        assert (got + step) * n > budget or got == requested


@given(questions, questions, settings())
def test_monotone_in_questions(a: int, b: int, s: tuple[int, int, int, int]) -> None:
    requested, budget, floor, step = s
    low, high = sorted((a, b))
    assert draws_for(high, requested, budget, floor, step) <= draws_for(
        low, requested, budget, floor, step
    )


def test_the_defaults_at_the_sizes_the_brief_names() -> None:
    def both(n: int) -> tuple[int, int]:
        c = noise.counts(n)
        return c.draws, c.resamples

    assert both(0) == (100_000, 10_000)
    assert both(10_000) == (100_000, 10_000)  # every output up to here is unchanged
    assert both(10_001) == (99_000, 9_900)  # rounded down to whole steps
    assert both(30_000) == (33_000, 3_300)
    assert both(100_000) == (10_000, 1_000)
    assert both(1_000_000) == (10_000, 1_000)  # the floors


def test_a_count_asked_for_is_made_whatever_the_size() -> None:
    assert noise.counts(1_000_000, 100_000, 10_000) == noise.Counts(100_000, 10_000)
    assert noise.counts(100, 7, 3) == noise.Counts(7, 3)


def test_a_smaller_budget_reduces_the_defaults() -> None:
    small = noise.Budget(draws=1_000, resamples=100)
    assert noise.counts(58, budget=small) == noise.Counts(10_000, 1_000)
    assert noise.counts(58) == noise.Counts(100_000, 10_000)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "--draws must be from 1 to 10,000,000, not 0"),
        (-3, "--draws must be from 1 to 10,000,000, not -3"),
        (10_000_001, "--draws must be from 1 to 10,000,000, not 10000001"),
        (True, "--draws must be a whole number, not True"),
        (1.5, "--draws must be a whole number, not 1.5"),
        ("9", "--draws must be a whole number, not '9'"),
    ],
)
def test_bad_counts_are_usage_errors(value: object, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        noise.checked("--draws", value)
    assert str(caught.value) == message
    assert caught.value.exit_code == 2


def test_draws_for_refuses_meaningless_settings() -> None:
    with pytest.raises(ValueError, match="positive"):
        draws_for(10, 0, 100, 1, 1)
    with pytest.raises(ValueError, match="positive"):
        draws_for(-1, 10, 100, 1, 1)


def test_reduced_draws_stay_within_a_few_standard_errors_of_the_full_test() -> None:
    """At 100,000 questions the test makes 10,000 draws: on a fixed example whose p-value is
    neither 0 nor 1, that p-value is within 4 standard errors (of the reduced estimate) of
    the one of 100,000 draws; the exact tail is the reference where both are."""
    rng = np.random.default_rng(20261206)
    d = rng.normal(0.01, 0.3, size=400)
    full = paired_randomization(d, samples=stats.DRAWS, seed=0).p_value
    reduced_draws = noise.counts(100_000).draws
    reduced = paired_randomization(d, samples=reduced_draws, seed=0).p_value
    assert reduced_draws == 10_000
    assert 0.05 < full < 0.95  # a p-value the draws can get wrong
    se = math.sqrt(full * (1 - full) / reduced_draws)
    assert abs(reduced - full) <= 4 * se
    for seed in (1, 2, 3):  # other seeds too: not one lucky stream
        other = paired_randomization(d, samples=reduced_draws, seed=seed).p_value
        assert abs(other - full) <= 4 * se


def test_the_command_line_refuses_what_the_workflow_refuses() -> None:
    from labelpool.cli._common import COUNT_MAX

    assert COUNT_MAX == noise.MAX_COUNT
