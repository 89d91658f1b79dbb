"""The canonical reader's block lists of flat mappings (``pool`` as labelpool writes it: one
``key: value`` a line): read by one regular expression, they give exactly what the generic
block reader gives, and both what libyaml's event pass gives; any other line leaves the block
to the generic reader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import yamlfile
from labelpool.yamlfile import canonical, fast, reading

WHERE = Path("labels/q.yaml")
HEAD = "id: q\nquestion: What?\njudged_ids:\n  - d1\n"
POOL = (
    "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
    "  - system: dense\n    k: 30\n    date: '2026-12-06'\n    run: 8a7163b623518d41\n"
)

# keys and values, tricky ones among them (a reader may take `no`, `0x1`, `2026-06-02`, `~`,
# `1e3` as a non-string; `y` and `on` as booleans in YAML 1.1; ` #` starts a comment)
KEYS = ["system", "k", "date", "run", "y", "on", "no", "null", "_x", "a1", "k", "True"]
VALUES = [
    "bm25",
    "20",
    "0",
    "-1",
    "017",
    "0x1F",
    "1e3",
    "1_000",
    "2026-06-02",
    "'2026-06-02'",
    "''",
    "'a #b'",
    "'it''s'",
    '"dq"',
    "no",
    "yes",
    "~",
    "null",
    ".5",
    ".inf",
    "a.b/c+d=e~f-g",
    "x #y",
    "a:b",
    "a: b",
    "[x]",
    "{x: 1}",
    "-x",
    "D1",
    "é",
]
key = st.one_of(st.sampled_from(KEYS), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True))
value = st.one_of(
    st.sampled_from(VALUES), st.from_regex(r"[A-Za-z0-9_.][A-Za-z0-9_.+/=~ -]{0,8}", fullmatch=True)
)


@st.composite
def flat_blocks(draw: st.DrawFn) -> str:
    lines = [draw(st.sampled_from(["pool:", "pool:", "other:"]))]
    for _ in range(draw(st.integers(1, 4))):
        pairs = draw(st.lists(st.tuples(key, value), min_size=1, max_size=4))
        for n, (k, v) in enumerate(pairs):
            lines.append(f"  {'- ' if n == 0 else '  '}{k}: {v}")
        if draw(st.integers(0, 9)) == 0:  # a nested list, an empty value, a deeper indent
            lines.append(draw(st.sampled_from(["    systems:", "      - bm25", "    x:", "  -"])))
    return "\n".join(lines) + "\n"


def _generic(text: str, max_depth: int = yamlfile.MAX_DEPTH) -> Any:
    """The canonical reader with the flat-mapping fast path turned off."""
    saved = canonical._flat_maps
    canonical._flat_maps = lambda body, plain, suspect: None  # type: ignore[assignment]
    try:
        return reading.read_text(str(WHERE), text, max_depth)
    finally:
        canonical._flat_maps = saved  # type: ignore[assignment]


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
@given(flat_blocks())
def test_flat_maps_read_as_the_generic_reader_and_libyaml(block: str) -> None:
    _agrees(HEAD + block)
    _agrees(HEAD + block + "owner: support-team\n")


def test_the_pool_block_labelpool_writes_takes_the_fast_path() -> None:
    body = POOL.partition("\n")[2]
    found = canonical._flat_maps(body, canonical._plain, fast.suspect_11)
    assert found == [
        {"system": "bm25", "k": 20, "date": "2026-06-02"},
        {"system": "dense", "k": 30, "date": "2026-12-06", "run": "8a7163b623518d41"},
    ]
    _agrees(HEAD + POOL)


def test_other_layouts_leave_the_block_to_the_generic_reader() -> None:
    plain, suspect = canonical._plain, fast.suspect_11
    for body in (
        "  - system: bm25\n    systems:\n      - a\n",  # a nested list
        "  - system: bm25\n    system: dense\n",  # a duplicate key
        "    k: 20\n",  # no item started
        "  - system: bm25 # note\n",  # a comment
        "  - 'system': bm25\n",  # a quoted key
        "  - system: 'it''s'\n",  # a quote inside
    ):
        assert canonical._flat_maps(body, plain, suspect) is None, body


def test_a_depth_limit_below_the_items_is_the_generic_readers_verdict() -> None:
    for depth in (1, 2, 3):
        _agrees(HEAD + POOL, depth)
