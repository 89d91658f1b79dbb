"""``render.sanitize.joined``: many lines through ``text`` at once, held to the line-by-line
form (the one pass over the whole must never let a character, a ``::`` or a ``##[`` by)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.render import sanitize

HAZARDS = ["\n", "\x1b", "\x85", "\u202e", "\u2028"]
PIECES = st.sampled_from(["q1", "  + judged d0: relevant", ":", "::", "#", "##[", *HAZARDS, "é"])
LINES = st.lists(st.lists(PIECES, max_size=6).map("".join), max_size=8)


def by_line(lines: list[str]) -> str:
    return "\n".join(sanitize.text(line) for line in lines)


@settings(max_examples=400, deadline=None)
@given(LINES)
def test_joined_is_text_line_by_line(lines: list[str]) -> None:
    assert sanitize.joined(lines) == by_line(lines)


def test_joined_of_safe_lines_and_of_each_hazard() -> None:
    safe = ["labels a -> b: 1 question changed", "q1:", "  + judged d0: irrelevant"]
    assert sanitize.joined(safe) == "\n".join(safe)
    for hazard in ("::error::x", "  ::warning", "a ##[group]", "d\x1b[2J", "d\u202ex", "a\nb"):
        lines = [*safe, hazard]
        assert sanitize.joined(lines) == by_line(lines) != "\n".join(lines)
    # a "::" made only by joining two lines is no command: the fallback gives the same text
    assert sanitize.joined(["q1:", ":x"]) == "q1:\n:x"
    assert sanitize.joined([]) == ""
