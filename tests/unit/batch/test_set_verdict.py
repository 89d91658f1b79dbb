"""batch.set_verdict / verdict_token: only the token after ``verdict:`` changes, and the line
reads back (through the one reading) as the verdict written."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import batch, yamlfile
from labelpool.model import DuplicateOf

HEAD = """\
id: q
question: Q?
judged_ids: []
pending:
  - batch: 'b'
    systems:
      - s
    depth: 2
    date: '2026-12-02'
    docs:
"""

ids = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x24F, blacklist_categories=("Cc", "Cf", "Zs")),
    min_size=1,
    max_size=20,
).filter(lambda s: s.strip() == s)
verdicts = st.one_of(
    st.none(),
    st.sampled_from(["relevant", "irrelevant"]),
    st.integers(min_value=0, max_value=1_000_000),
    ids.map(DuplicateOf),
)
comments = st.one_of(
    st.just(""), st.text(st.sampled_from("abc #}{'"), max_size=12).map(lambda s: "  # " + s)
)


@settings(max_examples=300, deadline=None)
@given(doc=ids, verdict=verdicts, comment=comments)
def test_only_the_token_changes_and_reads_back(doc: str, verdict: object, comment: str) -> None:
    line = f"      - {{doc: {batch.quote(doc)}, verdict: null}}{comment}"
    token = batch.verdict_token(verdict)  # type: ignore[arg-type]
    new = batch.set_verdict(line, token)
    prefix = f"      - {{doc: {batch.quote(doc)}, verdict:"
    if ", verdict:" in batch.quote(doc):
        return  # an id holding the key itself: the workflow reads the edit back and refuses
    assert new == f"{prefix} {token}}}{comment}"
    data = yamlfile.loads_fast(HEAD + new + "\n")
    entry = data["pending"][0]["docs"][0]
    assert entry["doc"] == doc
    expected = {"duplicate-of": verdict.doc} if isinstance(verdict, DuplicateOf) else verdict
    assert entry["verdict"] == expected


def test_tokens() -> None:
    assert batch.verdict_token(None) == "null"
    assert batch.verdict_token("relevant") == "relevant"
    assert batch.verdict_token(3) == "3"
    assert batch.verdict_token(DuplicateOf("a#1")) == "{duplicate-of: a#1}"
    assert batch.verdict_token(DuplicateOf("no")) == "{duplicate-of: 'no'}"
    assert batch.verdict_token(DuplicateOf("it's")) == "{duplicate-of: 'it''s'}"
    for bad in (True, -1, "maybe", 1.5):
        try:
            batch.verdict_token(bad)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(bad)


def test_other_layouts_are_refused() -> None:
    for line in ("      - doc: x", "      - {verdict: null, doc: x}", "  foo: bar"):
        try:
            batch.set_verdict(line, "relevant")
        except ValueError:
            continue
        raise AssertionError(line)


def test_reason_and_text_comments() -> None:
    lines = [
        "    docs:",
        "      # question: Q?",
        "      # text: first part",
        "      #       second part",
        "      # can't judge: unclear",
        "      - {doc: x, verdict: null}",
    ]
    assert batch.reason_of(lines, 6) == "unclear"
    assert batch.text_of(lines, 6) == "first part second part"
    assert batch.reason_of(lines, 4) is None
    assert batch.reason_line("a\nb\x1b[31m", 6) == "      # can't judge: a b [31m"
