"""Reading a reply onto the scale never guesses; combining samples breaks ties low."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from labelpool.machine.answer import combine, read

SCALE = (0, 1, 2, 3)


@given(st.text(max_size=200))
def test_any_reply_is_a_grade_of_the_scale_or_a_reason(reply: str) -> None:
    grade, why = read(reply, SCALE)
    assert (grade is None) != (why is None)
    assert grade is None or grade in SCALE
    assert why is None or (why.startswith("can't judge") and len(why) < 200)


@given(
    st.sampled_from(SCALE),
    st.sampled_from(["", " ", "\n", "Grade: ", "**"]),
    st.sampled_from(["", ".", "\n", " / 3"]),
)
def test_a_grade_said_plainly_is_read(grade: int, before: str, after: str) -> None:
    assert read(f"{before}{grade}{after}", SCALE) == (grade, None)


@given(st.lists(st.sampled_from(SCALE), min_size=1, max_size=9))
def test_combined_grades_stay_between_the_samples(samples: list[int]) -> None:
    for how in ("majority", "mean"):
        assert min(samples) <= combine(samples, how) <= max(samples)
    mean = Fraction(sum(samples), len(samples))
    low = math.floor(mean)
    assert combine(samples, "mean") == (low + 1 if mean - low > Fraction(1, 2) else low)
    top = max(samples.count(g) for g in samples)
    assert combine(samples, "majority") == min(g for g in samples if samples.count(g) == top)


def test_words() -> None:
    words = (("relevant", 1), ("not relevant", 0))
    assert read('"Not Relevant."', (0, 1), words) == (0, None)
    assert read("relevant!", (0, 1), words) == (1, None)
    assert read("1", (0, 1), words)[0] is None
