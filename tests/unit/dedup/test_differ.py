"""What differs between two near-duplicate texts: one line of the words not shared."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from labelpool.dedup.differ import differing


def test_the_words_not_shared_on_each_side() -> None:
    a = "Acme customers may return items within 12 days. Contact Oslo support."
    b = "Initech customers may return items within 14 days. Contact Bergen support."
    assert differing(a, b) == '"Acme" "12" "Oslo" / "Initech" "14" "Bergen"'
    assert differing(a, a.upper()) == ""
    assert differing("a b c", "a b") == '"c" / (none)'


@given(st.text(max_size=400), st.text(max_size=400), st.integers(0, 120))
def test_never_longer_than_width_and_one_line(a: str, b: str, width: int) -> None:
    line = differing(a, b, width)
    assert len(line) <= width
    assert "\n" not in line and "\r" not in line


def test_a_long_difference_is_cut_with_an_ellipsis() -> None:
    a = " ".join(f"alpha{i}" for i in range(50))
    b = " ".join(f"beta{i}" for i in range(50))
    line = differing(a, b, 60)
    assert len(line) <= 60 and line.count("…") == 2 and " / " in line
