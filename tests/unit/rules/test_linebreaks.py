"""``rules.linebreaks``: LP041 positions and ``fmt``'s replacement."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.rules import linebreaks

LABEL = """\
id: q1
question: "Where is my parcel?"
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1  # a comment
pool:
  - system: bm25
    k: 2
    date: '2026-06-02'
"""


def test_positions_count_lines_as_git_does() -> None:
    found = linebreaks.check(b"a: 1\r\nb: x\ry\nc: \xe2\x80\xa8\n")
    assert [(f.line, f.col, f.rule) for f in found] == [(2, 5, "LP041"), (3, 4, "LP041")]


def test_crlf_is_not_reported() -> None:
    assert linebreaks.check(LABEL.replace("\n", "\r\n").encode()) == []


def test_fix_keeps_every_other_character() -> None:
    text = LABEL.replace("my parcel", "my\u2028parcel")
    fixed = linebreaks.fix(text)
    assert (fixed.text, fixed.replaced, fixed.left) == (LABEL, 1, ())


def test_fix_leaves_a_break_that_starts_a_key() -> None:
    text = LABEL.replace("\nrelevant_doc_ids", "\rrelevant_doc_ids")
    fixed = linebreaks.fix(text)
    assert fixed.text == text
    assert [(f.line, f.col) for f in fixed.left] == [(2, 32)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(LABEL)), st.sampled_from(["\r", "\u2028", "\u2029"])),
        min_size=1,
        max_size=4,
    )
)
def test_fix_never_raises_and_leaves_no_break_it_says_it_fixed(
    inserts: list[tuple[int, str]],
) -> None:
    text = LABEL
    for at, char in sorted(inserts, reverse=True):
        text = text[:at] + char + text[at:]
    fixed = linebreaks.fix(text)
    assert len(fixed.text) == len(text)
    left = {(f.line, f.col) for f in fixed.left}
    still = {(f.line, f.col) for f in linebreaks.check_text(fixed.text)}
    assert still == left
    assert fixed.replaced + len(fixed.left) == len(linebreaks.check_text(text))
