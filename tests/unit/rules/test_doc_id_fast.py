"""``written.doc_id_problem``'s quick answer for printable ASCII ids is the full check's."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.rules import written
from labelpool.yamlfile.textcheck import BIDI_RE


def _full(doc: str) -> str | None:
    """The full check, character by character (the reference)."""
    if not doc:
        return "is empty"
    for ch in doc:
        if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cs") or BIDI_RE.match(ch):
            return "refused"
    return None if unicodedata.is_normalized("NFC", doc) else "refused"


@given(st.text(st.characters(max_codepoint=0x7F), max_size=12))
@settings(max_examples=2000, deadline=None)
def test_ascii_ids_answer_as_the_full_check(doc: str) -> None:
    assert (written.doc_id_problem(doc) is None) == (_full(doc) is None)


def test_refused_ascii_ids_still_are() -> None:
    for doc in ("a b", "a\tb", "a\x7fb", "a\x00", ""):
        assert written.doc_id_problem(doc) is not None
