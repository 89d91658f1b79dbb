"""The one reading (``yamlfile.loads_checked`` / ``read_text``) against the YAML readers.

Reading a label file once took two parses: the guard's libyaml event pass, then PyYAML's C
safe loader, while the editor read YAML 1.2 with ruamel. These properties pin the one
reading: for bad input the same findings, in the same order, as the guard as it was
(``tests/reference/guard_reference.py``, with the escapes of issue 29:
``tests/reference/escape_reference.py``); for a file it accepts, exactly the data PyYAML
(YAML 1.1) *and* ruamel's round trip (YAML 1.2) give, which therefore agree; a file on which
they could disagree is refused with LP021 at an ambiguous scalar.
"""

from __future__ import annotations

import math
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import labelfile, labelset, yamlfile
from labelpool.yamlfile import fast, reading, textcheck
from reference.escape_reference import REFUSED, guard_with_escapes

WHERE = Path("labels/q.yaml")

# Plain scalars every YAML reader sees differently, and plain strings.
TRICKY = [
    "0123",
    "1e3",
    "1.5",
    ".5",
    "3.",
    "-1",
    "+5",
    "1_000",
    "0x1F",
    "0o17",
    "0b101",
    "12:30",
    "190:20:30",
    ".inf",
    "-.Inf",
    ".nan",
    "no",
    "No",
    "NO",
    "yes",
    "on",
    "Off",
    "y",
    "n",
    "true",
    "False",
    "TRUE",
    "null",
    "Null",
    "~",
    "",
    "2026-06-02",
    "2026-6-2",
    "2026-06-02T10:00:00Z",
    "2026-06-02 10:00:00.5 +02:00",
    "2026-02-30",
    "=",
    "<<",
    "0",
    "-0",
    "007",
    "1,000",
    "nul",
    "tru",
    "D12345",
    "faq-shipping#damaged",
    "a b",
    "über",
    "x:y",
    "- a",
    "#x",
    "@x",
    "`x`",
    "%x",
    "!x",
    "&x",
    "*x",
    "|",
    ">",
    "?",
    "[a]",
    "{a: b}",
]
word = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9#._-]{0,8}", fullmatch=True)
text_value = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\x85\u2028\u2029"),
    max_size=12,
)
# what a writer writes (it refuses the characters LP003 and LP004 refuse, escaped or not)
writable_value = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\x85\u2028\u2029" + REFUSED),
    max_size=12,
)


def _quoted(value: str, style: str) -> str:
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(c if c.isprintable() or c == " " else f"\\u{ord(c):04x}" for c in escaped)
    return '"' + escaped + '"'


@st.composite
def scalars(draw: st.DrawFn, flow: bool = False) -> str:
    """A scalar as written in a file: plain, single- or double-quoted."""
    style = draw(st.sampled_from(["plain", "plain", "'", '"']))
    value = draw(st.one_of(st.sampled_from(TRICKY), word, text_value))
    if style == "plain":
        if value in TRICKY or draw(st.booleans()):
            candidate = value if value in TRICKY else draw(word)
            if flow and any(c in candidate for c in ",[]{}"):
                return _quoted(candidate, "'")
            return candidate
        return draw(word)
    return _quoted(value, style)


@st.composite
def label_texts(draw: st.DrawFn) -> str:
    """Label-shaped YAML: block and flow lists, nested mappings, comments, tricky scalars."""
    lines = ["# judged by someone"] if draw(st.booleans()) else []
    lines.append(f"id: {draw(scalars())}")
    lines.append(f"question: {draw(scalars())}")
    for key in ("relevant_doc_ids", "judged_ids"):
        items = draw(st.lists(scalars(), max_size=5))
        if draw(st.booleans()) or not items:
            flow_items = draw(st.lists(scalars(flow=True), max_size=4))
            lines.append(f"{key}: [{', '.join(flow_items)}]")
        else:
            lines.append(f"{key}:")
            lines += [f"  - {v}" + ("  # note" if draw(st.booleans()) else "") for v in items]
    grade_keys = st.one_of(word, st.sampled_from(TRICKY))
    grade_values = st.one_of(scalars(), st.integers(0, 12).map(str))
    grades = draw(st.lists(st.tuples(grade_keys, grade_values), max_size=4))  # duplicates too
    if grades:
        lines.append("grades:")
        lines += [f"  {k}: {v}" for k, v in grades]
    if draw(st.booleans()):
        lines.append("relevant_classes:")
        lines.append(f"  - - {draw(scalars())}")
        lines.append(f"    - {draw(scalars())}")
    if draw(st.booleans()):
        lines += [
            "pool:",
            f"  - system: {draw(scalars())}",
            f"    k: {draw(scalars())}",
            f"    date: {draw(scalars())}",
        ]
    if draw(st.booleans()):
        lines += [
            "pending:",
            "  - batch: b1",
            "    docs:",
            f"      - {{doc: {draw(scalars(flow=True))}, verdict: {draw(scalars(flow=True))}}}",
        ]
    if draw(st.booleans()):
        lines += ["notes: |", "  a block scalar", "  over two lines"]
    return "\n".join(lines) + "\n"


HAZARDS = [
    " &a",
    " *a",
    "&a ",
    "*a",
    "!!str ",
    "!x ",
    "!!python/object/apply:os.system ",
    "<<: x\n",
    "<<: {a: 1}\n",
    "'<<': x\n",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2026:\n",
    "---\n",
    "\n---\n",
    "...\n",
    "\n--- a\n",
    "[",
    "{",
    "]",
    "}",
    "- ",
    ": ",
    "a: 1\n",
    "id: again\n",
    "\t",
    "'",
    '"',
    "? ",
    "? [a]\n: b\n",
    "#",
    "\x00",
    "\x85",
    "\u202e",
    "\ufeff",
    "=======\n",
    "<<<<<<< HEAD\n",
    "|",
    ">",
    "\n  - x\n",
    "a: " + "[" * 34 + "x" + "]" * 34 + "\n",
    "2026-02-30",
    "=",
    "~",
    "yes",
    "\\",
    "\r\n",
    "\n\n",
    " ",
    "é",
]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A label text with one to three hazards put in at random places (or bits cut out)."""
    text = draw(label_texts())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        if draw(st.integers(0, 4)) == 0:
            text = text[:at] + text[at + draw(st.integers(1, 5)) :]
        else:
            text = text[:at] + draw(st.sampled_from(HAZARDS)) + text[at:]
    return text


def _same(a: Any, b: Any) -> bool:
    """Equal, with equal types all the way down (``True`` is not ``1``; nan is nan)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def two_pass(raw: bytes, **bounds: int) -> tuple[str, Any]:
    """The guard as it was (the reference guard), then PyYAML's C safe loader."""
    findings = guard_with_escapes(WHERE, raw, **bounds)
    if findings:
        return "error", str(findings[0])
    try:
        return "data", fast.pyyaml_loads(raw.decode("utf-8"), WHERE)
    except yamlfile.YamlError as exc:
        return "error", str(exc)


def one_pass(raw: bytes, **bounds: int) -> tuple[str, Any]:
    try:
        return "data", yamlfile.loads_checked(raw, WHERE, **bounds)
    except yamlfile.YamlError as exc:
        return "error", str(exc)


_AMBIGUOUS = re.compile(r"LP021 .*: plain (.*) is read as a non-string by YAML 1.1 or 1.2")


def _agree(text: str) -> None:
    """The one reading refuses what the guard refused, with its first finding; else reads
    exactly what PyYAML and ruamel both read, or refuses an ambiguous scalar (LP021) or a
    collection as a key (LP039)."""
    raw = text.encode("utf-8")
    assert yamlfile.guard(WHERE, raw) == guard_with_escapes(WHERE, raw)
    before, after = two_pass(raw), one_pass(raw)
    if guard_with_escapes(WHERE, raw):
        assert before == after
        return
    if after[0] == "error":
        error = after[1]
        match = _AMBIGUOUS.search(error)
        if match is not None:
            assert yamlfile.is_ambiguous(match.group(1), " (key): " in error), error
        else:
            assert " LP039 a mapping key must be a scalar" in error, error
        return
    assert before[0] == "data", (before, after)
    assert _same(after[1], before[1]), (before, after)
    try:  # ruamel's scanner refuses a few things libyaml reads (a tab after a scalar): the
        # editor then refuses the file; it never reads other data
        tree = yamlfile.loads_roundtrip(text, repair=True)
    except yamlfile.YamlError as exc:
        assert exc.rule == "LP015", exc
        return
    assert _same(after[1], yamlfile.to_plain(tree)), text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(label_texts())
def test_one_pass_reads_generated_label_files_as_the_two_passes_did(text: str) -> None:
    _agree(text)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_one_pass_refuses_bad_files_with_the_guards_findings(text: str) -> None:
    _agree(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(HAZARDS + TRICKY + ["\n", "a", ":", "- ", "  "]), max_size=12))
def test_one_pass_agrees_on_yaml_made_of_hazards_alone(parts: list[str]) -> None:
    _agree("".join(parts))


@st.composite
def canonical_labels(draw: st.DrawFn) -> str:
    """Label files as labelpool writes them (``yamlfile.scalar`` quotes what could be misread)."""
    judged = sorted(set(draw(st.lists(st.one_of(word, st.sampled_from(TRICKY)), max_size=6))))
    data = yamlfile.loads_roundtrip("id: q\n")
    data["id"] = yamlfile.scalar(draw(st.one_of(word, st.sampled_from(TRICKY))))
    data["question"] = yamlfile.scalar(draw(writable_value.filter(str.strip)))
    labelfile.set_sorted_list(data, "relevant_doc_ids", judged[: draw(st.integers(0, 3))])
    labelfile.set_sorted_list(data, "judged_ids", judged)
    for doc in judged[:2]:
        labelfile.set_mapping_item(data, "grades", doc, draw(st.integers(2, 4)))
    if judged:
        entry = yamlfile.loads_roundtrip("{system: x, k: 1, date: '2026-06-02'}")
        entry["system"] = yamlfile.scalar(draw(word))
        entry["k"] = draw(st.one_of(st.none(), st.integers(1, 1000)))
        data["pool"] = yamlfile.loads_roundtrip("- {}\n")
        data["pool"][0] = entry
    return yamlfile.dumps(data)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    return value


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(canonical_labels())
def test_one_pass_equals_fast_and_round_trip_loaders_on_canonical_files(text: str) -> None:
    got = yamlfile.loads_checked(text.encode("utf-8"), WHERE)
    assert _same(got, fast.pyyaml_loads(text))
    assert _same(got, _plain(yamlfile.loads_roundtrip(text)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: 1\nb: -3\nc: 0\nd: '0123'\n", {"a": 1, "b": -3, "c": 0, "d": "0123"}),
        (
            "a: 'on'\nb: \"no\"\nc: yesterday\nd: nope\n",
            {"a": "on", "b": "no", "c": "yesterday", "d": "nope"},
        ),
        ("a:\nb: ~\nc: ''\nd: null\n", {"a": None, "b": None, "c": "", "d": None}),
        ("'1': a\n'2': b\n-x: c\n", {"1": "a", "2": "b", "-x": "c"}),
        ("- [a, 2]\n- {b: [c]}\n", [["a", 2], {"b": ["c"]}]),
        ("text", "text"),
    ],
)
def test_one_pass_reads_what_every_reader_reads_alike(text: str, expected: Any) -> None:
    got = yamlfile.loads_checked(text.encode(), WHERE)
    assert _same(got, expected)
    assert _same(got, fast.pyyaml_loads(text))
    assert _same(got, _plain(yamlfile.loads_roundtrip(text)))


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a: 1\nb: 0123\n", "2:4: LP021 b: plain 0123 "),
        ("a: 0x1F\n", "1:4: LP021 a: plain 0x1F "),
        ("a: 12:30\n", "1:4: LP021 a: plain 12:30 "),
        ("a: on\n", "1:4: LP021 a: plain on "),
        ("c: [x, no]\n", "1:8: LP021 c[1]: plain no "),
        ("d: y\n", "1:4: LP021 d: plain y "),
        ("a: 1e3\n", "1:4: LP021 a: plain 1e3 "),
        ("c: .5\n", "1:4: LP021 c: plain .5 "),
        ("a: true\n", "1:4: LP021 a: plain true "),
        ("1: a\n", "1:1: LP021 1 (key): plain 1 "),
        ("x: a\nnull: c\n", "2:1: LP021 null (key): plain null "),
        ("a: 2026-06-02\n", "1:4: LP021 a: plain 2026-06-02 "),
        ("a: 2026-02-30\n", "1:4: LP021 a: plain 2026-02-30 "),
        ("a: =\n", "1:4: LP021 a: plain = "),
        ("? [a]\n: b\n", "1:3: LP039 a mapping key must be a scalar"),
    ],
)
def test_one_pass_refuses_what_readers_read_differently(text: str, where: str) -> None:
    with pytest.raises(yamlfile.YamlError) as err:
        yamlfile.loads_checked(text.encode(), WHERE)
    assert str(err.value).startswith(f"{WHERE}:{where}")


def test_one_pass_refuses_a_billion_laughs_at_once() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    raw = ("\n".join(lines) + "\n").encode()
    start = time.perf_counter()
    with pytest.raises(yamlfile.YamlError, match="LP009 anchor &a0"):
        yamlfile.loads_checked(raw, WHERE)
    assert time.perf_counter() - start < 5  # catches a hang only


def test_one_pass_keeps_the_byte_checks_and_bounds() -> None:
    cases = [
        (b"id: q\n" + b"x" * 200, {"max_bytes": 100}, "LP001"),
        (b"id: q\xff\n", {}, "LP002"),
        (b"id: q\x00\n", {}, "LP003"),
        ("id: q\u202e\n".encode(), {}, "LP004"),
        (b"id: q\n=======\n", {}, "LP005"),
        (b"a: [[[x]]]\n", {"max_depth": 3}, "LP013"),
    ]
    for raw, bounds, rule in cases:
        with pytest.raises(yamlfile.YamlError) as err:
            yamlfile.loads_checked(raw, WHERE, **bounds)
        assert err.value.rule == rule
        assert one_pass(raw, **bounds) == two_pass(raw, **bounds)


def test_labelset_reads_each_file_once_with_the_one_pass_reader() -> None:
    raw = b"id: q\nquestion: x\njudged_ids: [a]\nk: 20\n"
    assert labelset.read_guarded(WHERE, raw) == yamlfile.loads_fast(raw.decode())
    assert labelset.read_guarded(WHERE, raw) == fast.pyyaml_loads(raw.decode())
    with pytest.raises(yamlfile.YamlError, match="LP014"):
        labelset.read_guarded(WHERE, b"id: q\nid: r\n")


# --------------------------------------------------------------------------- validate's view


def _keypaths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _keypaths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _keypaths(v, (*prefix, i))
    return out


def _views_agree(text: str) -> None:
    """``view.scan`` (one pass) against the guard then ``view.compose`` (two passes)."""
    from labelpool.rules import view

    raw = text.encode("utf-8")
    old_findings = guard_with_escapes(Path(""), raw)
    try:
        new_findings, new = view.scan(
            raw, max_bytes=yamlfile.MAX_BYTES, max_depth=yamlfile.MAX_DEPTH
        )
    except view.ViewError as exc:
        assert not old_findings
        with pytest.raises(view.ViewError) as err:
            view.compose(raw)
        assert (err.value.line, err.value.col, err.value.message) == (
            exc.line,
            exc.col,
            exc.message,
        )
        return
    assert new_findings == old_findings
    if old_findings:
        assert new is None
        return
    assert new is not None
    old = view.compose(raw)
    assert _same(new.data, old.data)
    assert [(k, n.value, n.start_mark.line, n.start_mark.column) for k, n in new.plain] == [
        (k, n.value, n.start_mark.line, n.start_mark.column) for k, n in old.plain
    ]
    from labelpool.rules.check import check_bytes
    from labelpool.schemas import LABEL, schema_path

    bounds = {"max_bytes": yamlfile.MAX_BYTES, "max_depth": yamlfile.MAX_DEPTH}
    assert check_bytes(raw, schema_path(LABEL), **bounds).to_json() == (
        _check_two_pass(raw, schema_path(LABEL)).to_json()
    )
    probes = [*_keypaths(old.data), ("missing",), ("id", "deeper"), (0,)]
    for keypath in probes:
        assert new.pos(keypath) == old.pos(keypath), keypath
        assert new.pos(keypath, key=True) == old.pos(keypath, key=True), keypath
        assert new.is_plain(keypath) == old.is_plain(keypath), keypath


def _check_two_pass(raw: bytes, schema_file: Path) -> Any:
    """``rules.check.check_bytes`` as it was: the guard, then ``view.compose``."""
    from labelpool.findings import Finding
    from labelpool.rules import check, view

    safety = guard_with_escapes(Path(""), raw)
    if safety:
        return check.FileResult(findings=safety)
    try:
        composed = view.compose(raw)
    except view.ViewError as exc:
        return check.FileResult(findings=[Finding("", exc.line, exc.col, "LP039", exc.message)])
    original = check.scan
    check.scan = lambda raw, **_: ([], composed)
    try:
        return check.check_bytes(
            raw, schema_file, max_bytes=yamlfile.MAX_BYTES, max_depth=yamlfile.MAX_DEPTH
        )
    finally:
        check.scan = original


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(label_texts())
def test_validate_view_in_one_pass_equals_guard_then_compose(text: str) -> None:
    _views_agree(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_validate_view_in_one_pass_on_bad_files(text: str) -> None:
    _views_agree(text)


def test_validate_view_top_level_positions_need_no_second_parse() -> None:
    from labelpool.rules import view

    bounds = {"max_bytes": yamlfile.MAX_BYTES, "max_depth": yamlfile.MAX_DEPTH}
    raw = b"# c\nid: q\nquestion:   'x'\npool:\n  - {system: a}\n"  # labelpool's style
    _, v = view.scan(raw, **bounds)
    assert v is not None
    assert v.pos(("id",)) == (2, 5)
    assert v.composed is None  # the id's position comes with the line-by-line read
    assert v.pos(("question",), key=True) == (3, 1)
    assert v.pos(("pool", 0, "system")) == (5, 14)
    assert v.composed is not None  # others compose the tree, once

    raw = b"id: q\nquestion: two\n  lines\n"  # a multi-line scalar: the event pass
    _, v = view.scan(raw, **bounds)
    assert v is not None and v.data["question"] == "two lines"
    assert v.pos(("id",)) == (1, 5) and v.pos(("question",), key=True) == (2, 1)
    assert v.composed is None  # top-level positions come from the events


# --------------------------------------------------------------------------- canonical reader


def _canonical_agrees(text: str) -> bool:
    """``_canonical`` reads ``text`` (True) exactly as the event pass, or leaves it (False).

    It runs after the byte checks (controls, conflict markers...), so only on text they pass.
    """
    if yamlfile.text_findings(WHERE, text.encode("utf-8"), yamlfile.MAX_BYTES)[0]:
        return False
    got = yamlfile.read_canonical(text, yamlfile.MAX_DEPTH)
    if got is yamlfile.ODD:
        return False
    assert guard_with_escapes(WHERE, text.encode("utf-8")) == [], text
    assert _same(got, fast.pyyaml_loads(text)), text
    # the one reading's resolution, line by line and through the events alike
    strict = yamlfile.read_text(str(WHERE), text)
    events = reading.read_events(str(WHERE), text)
    if strict.top is None:  # read line by line
        assert not events.findings and not events.ambiguous, text
        assert _same(strict.data, events.data), text
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(label_texts(), canonical_labels()))
def test_canonical_reader_reads_label_files_as_libyaml(text: str) -> None:
    _canonical_agrees(text)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        mutated(),
        st.lists(
            st.sampled_from(
                [*HAZARDS, *TRICKY, "\n", "a", ":", "- ", "  ", "  - ", "- - ", "k: v\n", "# c\n"]
            ),
            max_size=16,
        ).map("".join),
    )
)
def test_canonical_reader_never_accepts_what_the_event_pass_reads_otherwise(text: str) -> None:
    _canonical_agrees(text)


def test_canonical_reader_takes_labelpools_own_files_and_leaves_the_rest() -> None:
    seed = (
        "# c\nid: q\nquestion: 'no'\nrelevant_doc_ids:\n  - a\njudged_ids:\n  - '0123'\n"
        "  - a  # eol\n  # above\n  - b\ngrades:\n  '0123': 2\nrelevant_classes:\n  - - a\n"
        "    - b\npool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\npending:\n"
        "  - batch: b1\n    systems: [bm25]\n    depth: 5\n    date: '2026-12-02'\n    docs:\n"
        "      - {doc: c, verdict: null}\nx-extra: kept\n"
    )
    assert _canonical_agrees(seed)
    for other in [
        "id: q\nquestion: two\n  lines\n",  # a multi-line plain scalar
        "id: q\nnotes: |\n  block\n",
        "id: &a q\n",
        "id: !!str q\n",
        "id: q\nid: r\n",
        "<<: {a: 1}\n",
        "id: q\n---\nid: r\n",
        "id: q\n  x: 1\n",
        "id: q\nk: 2026-02-30\n",
        "- a\n",
        "id: q\r\n",
        "a:\n\t- b\n",
        "grades:\n  a: 2\n  a: 3\n",
        "grades:\n  1: 2\n  01: 3\n",
    ]:
        assert not _canonical_agrees(other), other
    assert _canonical_agrees("grades:\n  no: 2\n  d1: 3\n  12: 4\n")
    assert yamlfile.read_canonical("grades:\n  no: 2\n  12: 4\n", 32) == {
        "grades": {False: 2, 12: 4}
    }


def test_the_byte_checks_prefilter_misses_no_character() -> None:
    for code in range(0x10000):
        if 0xD800 <= code < 0xE000:
            continue
        ch = chr(code)
        fast = bool(textcheck.CONTROL_OR_BIDI_RE.search(ch))
        assert fast == bool(textcheck.CONTROL_RE.search(ch) or textcheck.BIDI_RE.search(ch)), code
    for marker in ("<" * 7, "=" * 7, ">" * 7, "|" * 7):
        raw = f"id: q\n{marker} x\n".encode()
        assert yamlfile.guard(WHERE, raw) == guard_with_escapes(WHERE, raw) != []


@pytest.mark.parametrize(
    "text",
    [
        'x: [&a "\\x1f"]\n',
        'x: &a !!str "\\x1f"\n',
        'x: !!str\n  "\\x1f"\n',
        'x: &a # a comment\n  "\\x1f"\n',
    ],
)
def test_an_escape_after_an_anchor_or_tag_is_cited_at_its_backslash(text: str) -> None:
    """libyaml's scalar event starts at the node's properties: the finding still names the
    escape and its column, as the reference guard does (hypothesis found `[&a "\\u001f"]`)."""
    raw = text.encode("utf-8")
    found = yamlfile.guard(WHERE, raw)
    assert found == guard_with_escapes(WHERE, raw)
    assert any(f.rule == "LP003" and "written as \\x1f" in f.message for f in found)
    _agree(text)
