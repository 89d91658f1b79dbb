"""Issue 29, finding 5: ``validate`` refused a raw control character in a question (LP003) but
accepted the same character written as a YAML escape in a double-quoted scalar (``"\\e[31m"``,
``"\\x1b"``, ``"\\u202e"``, ``"\\0"``...), which every command then read and passed on.

An escape is the character it stands for: LP003 and LP004 apply to what a double-quoted
scalar parses to (keys and values), at the escape's backslash, under the rule the raw
character gets; every command refuses the file as it refuses the raw character. Escapes of
characters no rule refuses (``\\t``, ``\\n``, ``\\L``, ``\\ufeff``...) are text as before.
Every CLI call goes through ``labels_scenario.cli``, which checks the cited positions.
Before issue 29 every file here passed ``validate`` (exit 0), unless a docstring says else.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hostile.labels_scenario import LABEL, cli, make_repo

from labelpool import schemas
from labelpool.rules.check import check_bytes
from labelpool.yamlfile import MAX_BYTES, MAX_DEPTH

# (escape as written, the character's name, the rule)
ESCAPES = [
    ("\\e", "U+001B", "LP003"),
    ("\\x1b", "U+001B", "LP003"),
    ("\\u001B", "U+001B", "LP003"),
    ("\\0", "U+0000 (NUL)", "LP003"),
    ("\\a", "U+0007", "LP003"),
    ("\\b", "U+0008", "LP003"),
    ("\\v", "U+000B", "LP003"),
    ("\\f", "U+000C", "LP003"),
    ("\\x7f", "U+007F (DEL)", "LP003"),
    ("\\N", "U+0085 (NEL)", "LP003"),
    ("\\x85", "U+0085 (NEL)", "LP003"),
    ("\\x9b", "U+009B", "LP003"),
    ("\\u202e", "U+202E", "LP004"),
    ("\\U0000202E", "U+202E", "LP004"),
    ("\\u200F", "U+200F", "LP004"),
    ("\\u2066", "U+2066", "LP004"),
    ("\\u061c", "U+061C", "LP004"),
]
WHAT = {"LP003": "control character", "LP004": "bidirectional control character"}


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def with_label(tmp_path: Path, text: str) -> Path:
    return make_repo(tmp_path / "r", {"q1.yaml": text})


def finding(line: int, col: int, written: str, char: str, rule: str) -> str:
    return f"labels/q1.yaml:{line}:{col}: {rule} {WHAT[rule]} {char}, written as {written}"


@pytest.mark.parametrize(("written", "char", "rule"), ESCAPES)
def test_an_escape_in_a_question_is_the_character_it_stands_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, char: str, rule: str
) -> None:
    """``question: "Where[ESCAPE]is it?"``: the finding at the backslash (line 2, column 18),
    the raw character's rule; the same character raw gets the same rule."""
    escaped = LABEL.replace("question: Where is my parcel?", f'question: "Where {written}is it?"')
    root = with_label(tmp_path, escaped)
    code, out, _ = cli(capsys, root, "validate")
    assert (code, out) == (1, finding(2, 18, written, char, rule) + "\n")
    raw_char = chr(int(char[2:6], 16))
    (root / "labels" / "q1.yaml").write_text(escaped.replace(written, raw_char), encoding="utf-8")
    code, out, _ = cli(capsys, root, "validate")
    assert code == 1 and re.fullmatch(rf"labels/q1\.yaml:2:18: {rule} [^\n]*\n", out)


def test_every_command_refuses_the_escape_as_validate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one reading of every command (score, pool, pool-info), validate cold and warm (its
    cache), all the same line. Before: exit 0 (pool wrote the batch)."""
    text = LABEL.replace("question: Where is my parcel?", 'question: "Where \\e[31m is it?"')
    root = with_label(tmp_path, text)
    line = f"{root}/labels/q1.yaml:2:18: LP003 control character U+001B, written as \\e"
    commands = (
        ["score", "runs/bm25.trec"],
        ["pool-info"],
        ["pool", "runs/bm25.trec", "--depth", "5", "--no-commit"],
    )
    for args in commands:
        code, out, err = cli(capsys, root, *args)
        assert (code, out, err) == (1, "", f"error: {line}\n"), args
    for _ in range(2):  # cold, then from the validate cache
        code, out, _ = cli(capsys, root, "validate")
        assert (code, out) == (1, finding(2, 18, "\\e", "U+001B", "LP003") + "\n")
    assert (root / "labels" / "q1.yaml").read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a key
        ('id: q1\n"\\e[31m": x\n', [(2, 2, "\\e", "U+001B", "LP003")]),
        # items of a flow list and of a block list, a flow mapping's value
        (
            'id: q1\njudged_ids: ["a", "b\\x9bc"]\nx-notes:\n  - "\\u202e"\nx-m: {k: "\\0"}\n',
            [
                (2, 21, "\\x9b", "U+009B", "LP003"),
                (4, 6, "\\u202e", "U+202E", "LP004"),
                (5, 11, "\\0", "U+0000 (NUL)", "LP003"),
            ],
        ),
        # a scalar over three lines: an escaped line break, then the escape on the next line
        (
            'id: q1\nquestion: "Where is\\\n  my \\N parcel, \\\\e\n  \\a?"\n',
            [(3, 6, "\\N", "U+0085 (NEL)", "LP003"), (4, 3, "\\a", "U+0007", "LP003")],
        ),
        # a byte-order mark first: columns count it, as for the raw characters
        ('\ufeffid: q1\nquestion: "\\e"\n', [(2, 12, "\\e", "U+001B", "LP003")]),
    ],
)
def test_escapes_anywhere_are_found_where_they_are_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    expected: list[tuple[int, int, str, str, str]],
) -> None:
    root = with_label(tmp_path, text)
    code, out, _ = cli(capsys, root, "validate")
    assert code == 1
    assert [line for line in out.split("\n") if " LP003 " in line or " LP004 " in line] == [
        finding(*e) for e in expected
    ]


def test_twenty_findings_per_rule_at_most(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As for raw characters: enough to fix a file, never a flood."""
    root = with_label(tmp_path, 'id: q1\nquestion: "' + "\\e" * 30 + "\\u202e" * 30 + '"\n')
    code, out, _ = cli(capsys, root, "validate")
    assert code == 1
    assert out.count(" LP003 ") == 20 and out.count(" LP004 ") == 20


@pytest.mark.parametrize(
    "written", ["\\t", "\\n", "\\r", "\\L", "\\P", "\\_", "\\ufeff", "\\\\e", '\\"', "\\/", "\\ "]
)
def test_escapes_no_rule_refuses_are_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str
) -> None:
    """Tab, line breaks (written as escapes a file's lines stay what git counts), no-break
    space, the BOM, an escaped backslash before an ``e``, quotes: unchanged, exit 0."""
    text = LABEL.replace("question: Where is my parcel?", f'question: "Where {written}is it?"')
    root = with_label(tmp_path, text)
    code, out, err = cli(capsys, root, "validate")
    assert (code, out) == (0, ""), err


# Characters of the property: any but the line breaks (written raw they break the line: the
# raw and escaped files differ by design, LP041) and surrogates.
CHARS = st.characters(exclude_categories=["Cs"], exclude_characters="\n\r\x85\u2028\u2029")
SHORT = {"\x00": "\\0", "\x07": "\\a", "\x08": "\\b", "\x0b": "\\v", "\x0c": "\\f", "\x1b": "\\e"}


def _escaped(s: str, style: int) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        elif style == 0 and ch in SHORT:
            out.append(SHORT[ch])
        elif style == 1 and ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        elif style == 2 or ord(ch) > 0xFFFF:
            out.append(f"\\U{ord(ch):08X}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return '"' + "".join(out) + '"'


def _rules(text: str) -> list[str]:
    schema = schemas.schema_path(schemas.LABEL)
    result = check_bytes(text.encode("utf-8"), schema, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
    return sorted(f.rule for f in result.findings if f.rule in ("LP003", "LP004"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(CHARS, max_size=30), st.integers(0, 3), st.booleans())
def test_a_string_raw_or_escaped_gets_the_same_rules(s: str, style: int, key: bool) -> None:
    """For any string, a label holding it raw (single-quoted) and one holding it escaped
    (double-quoted, in one of four escape styles), as a question or as a key, get the same
    LP003 and LP004 findings, as many of each."""
    raw = "'" + s.replace("'", "''") + "'"
    escaped = _escaped(s, style)
    if key:
        texts = [f"id: q1\nx-notes:\n  {value}: 1\n" for value in (raw, escaped)]
    else:
        texts = [f"id: q1\nquestion: {value}\n" for value in (raw, escaped)]
    assert _rules(texts[0]) == _rules(texts[1])
