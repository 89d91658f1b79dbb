"""The canonical reader's ``verdicts`` block (one flow mapping a line, as labelpool writes
the record of judges): read by one regular expression, it gives exactly what the generic
block reader gives, and both what libyaml's event pass gives; any other line leaves the block
to the generic reader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import yamlfile
from labelpool.labelfile import record as record_file
from labelpool.model import JudgeVerdict
from labelpool.yamlfile import canonical, fast, reading

WHERE = Path("labels/q.yaml")
HEAD = "id: q\nquestion: What?\njudged_ids:\n  - d1\n"

# judges, kinds, verdicts and document ids, tricky ones among them (a reader may take
# `no`, `0x1`, `2026-06-02`, `~` as a non-string; a `'` or `,` needs quotes; ` #` a comment)
PIECES = [
    "Ana Lopez <ana@example.org>",
    "umbrela-3",
    "machine",
    "person",
    "relevant",
    "irrelevant",
    "2",
    "017",
    "-1",
    "no",
    "yes",
    "null",
    "~",
    "0x1F",
    "2026-06-02",
    "1e3",
    "a b",
    "a  b",
    "x #y",
    "a,b",
    "O'Brien <o@x.org>",
    "<<",
    "=",
    "d#1",
    "D1",
    "help-stores#returns",
    "é <e@x>",
    "a:b",
    "[x]",
    "{x: 1}",
    "-x",
    "?x",
]
piece = st.one_of(
    st.sampled_from(PIECES), st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 #.<>@_-]{0,10}", fullmatch=True)
)


@st.composite
def verdict_line(draw: st.DrawFn) -> str:
    role = draw(st.sampled_from(["judge", "adjudicator", "judge"]))
    parts = [f"{role}: {draw(piece)}"]
    if draw(st.booleans()):
        parts.append(f"kind: {draw(piece)}")
    parts.append(f"verdict: {draw(piece)}")
    if draw(st.integers(0, 9)) == 0:  # another key, a space too many, a comment
        parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(["x: 1", " a: b"])))
    line = "    - {" + ", ".join(parts) + "}"
    if draw(st.integers(0, 15)) == 0:
        line += draw(st.sampled_from([" # note", " ", "x"]))
    return line


@st.composite
def verdicts_blocks(draw: st.DrawFn) -> str:
    lines = ["verdicts:"]
    for _ in range(draw(st.integers(1, 4))):
        lines.append(f"  {draw(piece)}:")
        lines += draw(st.lists(verdict_line(), min_size=0 if draw(st.booleans()) else 1))
    return "\n".join(lines) + "\n"


def _same(a: Any, b: Any) -> bool:
    return reading.same(a, b)


def _generic(text: str) -> Any:
    """The canonical reader with the verdicts fast path turned off."""
    saved = canonical._verdict_map
    canonical._verdict_map = lambda body, plain, suspect: None  # type: ignore[assignment]
    try:
        return reading.read_text(str(WHERE), text)
    finally:
        canonical._verdict_map = saved  # type: ignore[assignment]


def _agrees(text: str) -> None:
    if yamlfile.text_findings(WHERE, text.encode("utf-8"), yamlfile.MAX_BYTES)[0]:
        return
    got = reading.read_text(str(WHERE), text)
    ref = _generic(text)
    assert got.findings == ref.findings, text
    assert str(got.error(str(WHERE))) == str(ref.error(str(WHERE))), text
    if got.error(str(WHERE)) is None:
        assert _same(got.data, ref.data), text
    line = canonical.read_canonical(text, yamlfile.MAX_DEPTH)  # PyYAML's resolution
    if line is not fast.ODD:
        assert _same(line, fast.pyyaml_loads(text)), text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(verdicts_blocks())
def test_verdicts_fast_path_reads_as_the_generic_reader_and_libyaml(block: str) -> None:
    _agrees(HEAD + block)
    _agrees(HEAD + block + "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n")


def test_what_labelpool_writes_takes_the_fast_path() -> None:
    record = {
        "D2": (
            JudgeVerdict("Ana Lopez <ana@example.org>", 2),
            JudgeVerdict("umbrela-3", "irrelevant", "machine"),
            JudgeVerdict("Cy Park <cy@example.org>", 2, adjudicator=True),
        ),
        "D1": (JudgeVerdict("Bo Chen <bo@example.org>", "relevant"),),
    }
    lines = record_file.verdicts_lines(record)
    body = "\n".join(lines[1:]) + "\n"
    got = canonical._verdict_map(body, reading._strict_plain, reading.SUSPECT.match)
    assert got == {
        "D1": [{"judge": "Bo Chen <bo@example.org>", "verdict": "relevant"}],
        "D2": [
            {"judge": "Ana Lopez <ana@example.org>", "verdict": 2},
            {"judge": "umbrela-3", "kind": "machine", "verdict": "irrelevant"},
            {"adjudicator": "Cy Park <cy@example.org>", "verdict": 2},
        ],
    }
    _agrees(HEAD + "\n".join(lines) + "\n")
    # a duplicate-of verdict (a nested flow mapping), a document without verdicts: the
    # generic reader's
    for other in (
        "  D1:\n    - {judge: A <a@x>, verdict: {duplicate-of: D2}}\n",
        "  D1:\n  D2:\n    - {judge: A <a@x>, verdict: relevant}\n",
        "  D1:\n    - {judge: A <a@x>, verdict: relevant}\n"
        "  D1:\n    - {judge: B <b@x>, verdict: 2}\n",
    ):
        assert canonical._verdict_map(other, reading._strict_plain, reading.SUSPECT.match) is None
        _agrees(HEAD + "verdicts:\n" + other)
