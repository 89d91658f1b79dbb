"""The canonical reader's pending entry ``{doc: ID, verdict: V}`` (one a line, as ``pool``
writes a batch): read by one regular expression, it gives exactly what the generic flow
mapping reader gives, and both what libyaml's event pass gives; any other form (a comment, a
quoted id, another key, a space too many) is the generic reader's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import yamlfile
from labelpool.yamlfile import canonical, fast, reading

WHERE = Path("labels/q.yaml")
HEAD = "id: q\nquestion: What?\njudged_ids:\n  - d1\n"
BATCH = "pending:\n  - batch: '2026-12-02-bm25@20'\n    depth: 20\n    docs:\n"

# ids and verdicts a resolver may take as a non-string (`no`, `0x1`, `2026-06-02`, `~`), or
# that need quotes (`'`, `,`, `: `), or hold a comment's ` #`
PIECES = [
    "null",
    "relevant",
    "irrelevant",
    "2",
    "017",
    "-1",
    "no",
    "yes",
    "~",
    "0x1F",
    "2026-06-02",
    "1e3",
    "a b",
    "a  b",
    "x #y",
    "a,b",
    "O'Brien",
    "<<",
    "=",
    "d#1",
    "help-stores#returns",
    "é",
    "a:b",
    "[x]",
    "{duplicate-of: d2}",
    "-x",
    "?x",
    ".5",
    "+1",
    "true",
]
piece = st.one_of(
    st.sampled_from(PIECES), st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 #.<>@_:-]{0,10}", fullmatch=True)
)


@st.composite
def entry_line(draw: st.DrawFn) -> str:
    parts = [f"doc: {draw(piece)}", f"verdict: {draw(piece)}"]
    if draw(st.integers(0, 9)) == 0:  # another key, a space too many, keys swapped
        choice = draw(st.sampled_from(["extra", "space", "swap"]))
        if choice == "extra":
            parts.insert(draw(st.integers(0, 2)), "x: 1")
        elif choice == "space":
            parts[0] = " " + parts[0]
        else:
            parts.reverse()
    line = "      - {" + ", ".join(parts) + "}"
    if draw(st.integers(0, 15)) == 0:
        line += draw(st.sampled_from([" # note", " ", "x", "}"]))
    return line


@st.composite
def batches(draw: st.DrawFn) -> str:
    lines = draw(st.lists(entry_line(), min_size=1, max_size=6))
    return BATCH + "\n".join(lines) + "\n"


def _generic(text: str, max_depth: int) -> Any:
    """The canonical reader with the entry fast path turned off."""
    saved = canonical.PENDING_ENTRY
    canonical.PENDING_ENTRY = re.compile(r"(?!)()()")  # matches nothing
    try:
        return reading.read_text(str(WHERE), text, max_depth)
    finally:
        canonical.PENDING_ENTRY = saved


def _agrees(text: str, max_depth: int = yamlfile.MAX_DEPTH) -> None:
    if yamlfile.text_findings(WHERE, text.encode("utf-8"), yamlfile.MAX_BYTES)[0]:
        return
    got = reading.read_text(str(WHERE), text, max_depth)
    ref = _generic(text, max_depth)
    assert got.findings == ref.findings, text
    assert str(got.error(str(WHERE))) == str(ref.error(str(WHERE))), text
    if got.error(str(WHERE)) is None:
        assert reading.same(got.data, ref.data), text
    line = canonical.read_canonical(text, max_depth)  # PyYAML's resolution
    if line is not fast.ODD:
        assert reading.same(line, fast.pyyaml_loads(text)), text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches(), st.sampled_from([yamlfile.MAX_DEPTH, 4, 5]))
def test_entry_fast_path_reads_as_the_generic_reader_and_libyaml(block: str, depth: int) -> None:
    _agrees(HEAD + block, depth)
    _agrees(HEAD + block + "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n", depth)


def test_what_pool_writes_takes_the_fast_path() -> None:
    plain, suspect = reading._strict_plain, reading.SUSPECT.match
    got = canonical._scalar("{doc: help-stores#returns, verdict: null}", 3, 64, plain, suspect)
    assert got == {"doc": "help-stores#returns", "verdict": None}
    assert canonical.PENDING_ENTRY.fullmatch("{doc: d1, verdict: 2}") is not None
    for other in ("{doc: 'd 1', verdict: null}", "{doc: d1, verdict: null} # x", "{doc: d1}"):
        assert canonical.PENDING_ENTRY.fullmatch(other) is None
    _agrees(HEAD + BATCH + "      - {doc: d2, verdict: null}\n      - {doc: no, verdict: 2}\n")
