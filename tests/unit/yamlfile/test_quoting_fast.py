"""The quick yes of :func:`labelpool.yamlfile.quoting.surely_plain` is the full check's answer:
a string it calls plain is one every reader takes as that string, in block and flow context."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from labelpool.yamlfile import quoting

# every character class the quick check treats differently, and the resolvers' words
_CHARS = st.sampled_from(list("aAeEnNyYoOtTfFlLsSuUxXbB0123456789_./#+@=~-:,?![]{}' \t\u00e9"))
_TEXT = st.one_of(
    st.text(_CHARS, max_size=12),
    st.sampled_from(
        ["yes", "No", "ON", "off", "Null", "True", "y", "N", "e1", "E5", "inf", "nan", "x1e3"]
    ),
)


@given(_TEXT, st.booleans())
@settings(max_examples=3000, deadline=None)
@example("y", False)
@example("Yes", True)
@example("a#b", True)
@example("a=b", False)
def test_surely_plain_agrees_with_the_full_check(text: str, flow: bool) -> None:
    if quoting.surely_plain(text):
        assert not quoting._needs_quotes(text, flow)
    assert quoting.needs_quotes(text, flow) == quoting._needs_quotes(text, flow)


@pytest.mark.parametrize("text", ["D123", "tenant-acme#returns", "doc.v2/part_3", "Q~1@x=2"])
def test_common_ids_take_the_quick_path(text: str) -> None:
    assert quoting.surely_plain(text)


@pytest.mark.parametrize("text", ["yes", "NULL", "1e3", "2026-01-01", ".inf", "=", "- a", ""])
def test_misread_strings_do_not(text: str) -> None:
    assert not quoting.surely_plain(text)
    assert quoting.needs_quotes(text)
