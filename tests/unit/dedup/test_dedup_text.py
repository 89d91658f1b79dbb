"""Text as the near-duplicate finder sees it: normalisation, words, shingles, hashed shingles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from labelpool.dedup.text import hashed, hashed_array, normalise, shingles, words

texts = st.text(max_size=300)
prose = st.lists(
    st.sampled_from(["oslo", "Bergen", "12", "the", "ﬁle", "Straße", "é"]), max_size=40
)


@given(texts)
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert once == once.strip() and "  " not in once


def test_normalise_folds_case_width_and_space() -> None:
    assert normalise("  Ｏｓｌｏ\u00a0\tSTRASSE\n ﬁle ") == "oslo strasse file"
    assert words("Oslo, 12 days; (Bergen)!") == ["oslo", "12", "days", "bergen"]


def test_shingles_short_empty_and_long() -> None:
    assert shingles("") == frozenset()
    assert shingles("  \n\t ") == frozenset()
    assert shingles("!!! ---") == frozenset()
    assert shingles("One") == frozenset({"one"})
    assert shingles("one two three") == frozenset({"one two three"})
    assert shingles("a b c d e f") == frozenset({"a b c d e", "b c d e f"})
    assert shingles("a b c d e f", n=2) == frozenset({"a b", "b c", "c d", "d e", "e f"})


@given(prose.map(" ".join))
def test_hashed_has_one_integer_a_shingle(text: str) -> None:
    assert len(hashed(text)) == len(shingles(text))
    array = hashed_array(text)
    assert list(array) == sorted(set(array.tolist()))


def test_reflowing_and_case_do_not_change_shingles() -> None:
    text = "The courier crushed the box and the lamp inside is in pieces."
    reflowed = "THE courier\ncrushed  the box\n\nand the lamp inside is in pieces"
    assert shingles(text) == shingles(reflowed)
    assert hashed(text) == hashed(reflowed)


def test_word_order_matters() -> None:
    assert hashed("a b c d e") != hashed("e d c b a")


def test_a_ten_megabyte_text_in_bounded_time() -> None:
    import time

    text = " ".join(f"w{i % 40_000}" for i in range(1_600_000))  # about 10 MB
    start = time.perf_counter()
    got = hashed_array(text)
    assert time.perf_counter() - start < 10
    assert len(got) == 40_000
