"""yamlio: the safety guard, fast vs round-trip reads, byte-identical saves, editing helpers."""

from __future__ import annotations

import difflib
import io
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from labelpool import atomic, labelfile, yamlfile
from labelpool.cli import main
from reference.escape_reference import REFUSED, rule_of

SEED = """\
# Comments are kept by every rewrite.
id: returns-damaged
question: My parcel arrived damaged. Can I send it back?
relevant_doc_ids:
  - faq-shipping#damaged
  - policy-returns-v3#sec-2
judged_ids:
  - faq-shipping#damaged
  - handbook#returns
  - policy-returns-v2#sec-2
  - policy-returns-v3#sec-2
grades:
  policy-returns-v3#sec-2: 2
relevant_classes:
  - - faq-shipping#damaged
    - policy-returns-v3#sec-2
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
    run: 5f1c0e   # optional: git blob id of the pooled run file
pending:            # optional; written by `labelpool pool`, removed by `labelpool merge`
  - batch: '2026-12-02-bm25+dense@20'
    systems:
      - bm25
      - dense
    depth: 20
    date: '2026-12-02'
    docs:
      # question: My parcel arrived damaged. Can I send it back?
      # text: Items damaged in transit may be returned within 30 days ...
      - {doc: tenant-acme#returns, verdict: null}
      # text: Refunds are paid to the original payment method.
      - {doc: tenant-bolt#returns, verdict: relevant}
      - {doc: tenant-cove#returns, verdict: {duplicate-of: tenant-acme#returns}}
      - {doc: '0123', verdict: 2}
"""

GOLDEN = {
    "seed": SEED,
    "unjudged": "id: new-question\nquestion: Where is my order?\nrelevant_doc_ids: []\n"
    "judged_ids: []\n",
    "quotes": (
        "id: '0123'\n"
        'question: "Is \\"no\\" an answer?"\n'
        "relevant_doc_ids:\n  - '1239'\n  - 'no'\n"
        "judged_ids:\n  - '1239'\n  - '1e3'\n  - 'no'\n  - \"on\"\n"
        "pooled_unjudged_ids:\n  - 'null'\n"
        "pool:\n  - system: unknown\n    k: null\n    date: null\n"
    ),
    "long-unicode": (
        "id: long\n"
        "question: "
        + ("Warum kommt mein Paket nicht an, obwohl ich bezahlt habe? " * 30).strip()
        + "\n"
        "relevant_doc_ids:\n  - faq-versand#verspätung\n  - 配送#遅延\n"
        "judged_ids:\n  - faq-versand#verspätung\n  - 配送#遅延\n"
        "pool:\n  - system: dense\n    k: 10\n    date: '2026-01-05'\n"
    ),
    "unknown-keys": (
        "id: with-extras\n"
        "question: What does the warranty cover?\n"
        "relevant_doc_ids:\n  - warranty#scope   # the main answer\n"
        "judged_ids:\n  - handbook#warranty\n  - warranty#scope\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
        "x-reviewer: alice\n"
        "notes:\n  - first pass\n  - {checked: done}\n"
        "nested:\n  - - a\n    - b\n  - - c\n"
    ),
    "empty-flow-list-comment": (
        "id: q\nquestion: Q?\nrelevant_doc_ids: []  # none yet\njudged_ids: []\n"
    ),
    "blank-lines-and-trailing-comment": (
        "id: q\n\nquestion: Q?\n\n# section\nrelevant_doc_ids:\n  - a\n\njudged_ids:\n  - a\n"
        "# trailing comment\n"
    ),
    "folded-and-double-quoted": (
        'id: q  # the id\nquestion: >-\n  folded\n  text\njudged_ids:\n  - "0123"\n'
        'grades:\n  "0123": 2\n  b: 3\n'
    ),
    "escapes-and-flow-verdicts": (
        'id: q\nquestion: "with \\"escapes\\" and \\t tab"\njudged_ids:\n  - a\n'
        "pending:\n  - batch: b\n    docs:\n      - {doc: a, verdict: {duplicate-of: b}}\n"
        '      - {doc: "c", verdict: 2}   # eol\n'
    ),
    "classes-with-comments": (
        "id: q\nquestion: x\nrelevant_classes:\n  - - a\n    - b\n  # between\n  - - c\n"
        "    - d  # eol d\n"
    ),
    "nested-unknown": (
        "id: q\nquestion: x\nextra:\n  nested:\n    - x: 1\n      yy: [1, 2]\n    - z\n"
    ),
    "block-scalar": (
        "id: block\n"
        "question: |\n  A question\n  over two lines\n"
        "relevant_doc_ids: []\n"
        "judged_ids: []\n"
    ),
}


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_unedited_file_comes_back_byte_identical(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, f"{name}.yaml", GOLDEN[name])
    before = path.stat().st_mtime_ns
    doc = yamlfile.load_roundtrip(path)
    assert yamlfile.dumps(doc.data) == GOLDEN[name]
    assert yamlfile.save(doc) is False
    assert path.read_text(encoding="utf-8") == GOLDEN[name]
    assert path.stat().st_mtime_ns == before


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_format_label_leaves_canonical_files_alone(name: str) -> None:
    data = yamlfile.loads_roundtrip(GOLDEN[name])
    labelfile.format_label(data, GOLDEN[name])
    assert yamlfile.dumps(data) == GOLDEN[name]


def test_adding_one_judged_id_is_a_one_line_diff(tmp_path: Path) -> None:
    path = write(tmp_path, "returns-damaged.yaml", SEED)
    doc = yamlfile.load_roundtrip(path)
    assert labelfile.add_to_sorted_list(doc.data, "judged_ids", "handbook#refunds") is True
    assert yamlfile.save(doc) is True
    after = path.read_text(encoding="utf-8")
    diff = [
        line
        for line in difflib.unified_diff(SEED.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert diff == ["+  - handbook#refunds"]
    assert "# Comments are kept by every rewrite." in after
    assert "# text: Items damaged in transit may be returned within 30 days ..." in after
    # saving again changes nothing
    again = yamlfile.load_roundtrip(path)
    assert labelfile.add_to_sorted_list(again.data, "judged_ids", "handbook#refunds") is False
    assert yamlfile.save(again) is False
    assert path.read_text(encoding="utf-8") == after


def test_comment_lines_stay_above_the_item_they_were_written_above(tmp_path: Path) -> None:
    text = "judged_ids:\n  - a   # eol a\n  # about c\n  - c\n  # about x\nx: 1\n"
    path = write(tmp_path, "q.yaml", text)
    doc = yamlfile.load_roundtrip(path)
    for item in ("b", "d"):
        labelfile.add_to_sorted_list(doc.data, "judged_ids", item)
    yamlfile.save(doc)
    assert path.read_text(encoding="utf-8") == (
        "judged_ids:\n  - a   # eol a\n  - b\n  # about c\n  - c\n  - d\n  # about x\nx: 1\n"
    )


def test_an_ambiguous_id_is_inserted_quoted(tmp_path: Path) -> None:
    path = write(tmp_path, "seed.yaml", SEED)
    doc = yamlfile.load_roundtrip(path)
    labelfile.add_to_sorted_list(doc.data, "judged_ids", "1e3")
    yamlfile.save(doc)
    assert "  - '1e3'\n  - faq-shipping#damaged\n" in path.read_text(encoding="utf-8")
    assert "1e3" in yamlfile.load_fast(path)["judged_ids"]


def test_missing_list_is_created_at_its_canonical_place(tmp_path: Path) -> None:
    text = "id: q\nquestion: Where?\njudged_ids: []\nx-note: keep me\n"
    path = write(tmp_path, "q.yaml", text)
    doc = yamlfile.load_roundtrip(path)
    labelfile.set_sorted_list(doc.data, "relevant_doc_ids", ["b", "a"])
    labelfile.add_to_sorted_list(doc.data, "pooled_unjudged_ids", "z")
    labelfile.set_mapping_item(doc.data, "grades", "b", 3)
    yamlfile.save(doc)
    assert path.read_text(encoding="utf-8") == (
        "id: q\nquestion: Where?\nrelevant_doc_ids:\n  - a\n  - b\njudged_ids: []\n"
        "grades:\n  b: 3\npooled_unjudged_ids:\n  - z\nx-note: keep me\n"
    )


def test_set_sorted_list_edits_in_place_keeping_comments(tmp_path: Path) -> None:
    text = "id: q\njudged_ids:\n  - a   # first\n  - c\n  - e   # last\nx-note: kept\n"
    path = write(tmp_path, "q.yaml", text)
    doc = yamlfile.load_roundtrip(path)
    labelfile.set_sorted_list(doc.data, "judged_ids", ["e", "b", "a", "no"])
    yamlfile.save(doc)
    assert path.read_text(encoding="utf-8") == (
        "id: q\njudged_ids:\n  - a   # first\n  - b\n  - e   # last\n  - 'no'\nx-note: kept\n"
    )
    doc = yamlfile.load_roundtrip(path)
    labelfile.set_sorted_list(doc.data, "judged_ids", [])
    yamlfile.save(doc)
    assert yamlfile.load_fast(path) == {"id": "q", "judged_ids": [], "x-note": "kept"}


def test_mapping_item_and_removals(tmp_path: Path) -> None:
    path = write(tmp_path, "seed.yaml", SEED)
    doc = yamlfile.load_roundtrip(path)
    assert labelfile.set_mapping_item(doc.data, "grades", "faq-shipping#damaged", 3) is True
    assert labelfile.set_mapping_item(doc.data, "grades", "faq-shipping#damaged", 3) is False
    yamlfile.save(doc)
    text = path.read_text(encoding="utf-8")
    assert "grades:\n  faq-shipping#damaged: 3\n  policy-returns-v3#sec-2: 2\n" in text
    doc = yamlfile.load_roundtrip(path)
    assert labelfile.remove_from_list(doc.data, "judged_ids", "handbook#returns") is True
    assert labelfile.remove_from_list(doc.data, "judged_ids", "absent") is False
    assert labelfile.remove_mapping_item(doc.data, "grades", "faq-shipping#damaged") is True
    yamlfile.save(doc)
    assert path.read_text(encoding="utf-8") == SEED.replace("  - handbook#returns\n", "")


def test_save_keeps_the_file_mode_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = write(tmp_path, "seed.yaml", SEED)
    os.chmod(path, 0o640)
    doc = yamlfile.load_roundtrip(path)
    labelfile.add_to_sorted_list(doc.data, "judged_ids", "zzz")
    assert yamlfile.save(doc) is True
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seed.yaml"]


def test_atomic_write_text_creates_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "new.txt"
    atomic.write_text(path, "one\n")
    atomic.write_text(path, "two\n")
    assert path.read_bytes() == b"two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.txt"]


def test_node_position(tmp_path: Path) -> None:
    doc = yamlfile.load_roundtrip(write(tmp_path, "seed.yaml", SEED))
    assert yamlfile.node_position(doc.data, ()) == (2, 1)
    assert yamlfile.node_position(doc.data, ("id",)) == (2, 5)
    assert yamlfile.node_position(doc.data, ("judged_ids", 2)) == (10, 5)
    assert yamlfile.node_position(doc.data, ("judged_ids",)) == (7, 1)
    assert yamlfile.node_position(doc.data, ("pool", 0, "k")) == (19, 8)
    assert yamlfile.node_position(doc.data, ("relevant_classes", 0, 1)) == (16, 7)
    assert yamlfile.node_position(doc.data, ("pending", 0, "docs", 1, "verdict")) == (34, 45)
    # a missing node falls back to its nearest existing ancestor
    assert yamlfile.node_position(doc.data, ("pool", 0, "nope")) == (18, 5)
    assert yamlfile.node_position(doc.data, ("judged_ids", 99)) == (7, 1)


# --------------------------------------------------------------------------- the guard

SAFETY_CASES: list[tuple[str, bytes, int, int, str]] = [
    ("LP001", b"id: q\nquestion: " + b"x" * 200 + b"\n", 1, 1, "bytes; the bound"),
    ("LP002", b"id: q\nquestion: caf\xc3\xa9 \xff\n", 2, 16, "invalid UTF-8 byte 0xFF"),
    ("LP003", b"id: q\nquestion: a\x00b\n", 2, 12, "U+0000 (NUL)"),
    ("LP003", "id: q\nquestion: ab\x85c\n".encode(), 2, 13, "U+0085 (NEL)"),
    ("LP003", b"id: q\nquestion: ab\x1bc\n", 2, 13, "U+001B"),
    ("LP004", "id: q\nquestion: é\u202eb\n".encode(), 2, 12, "U+202E"),
    ("LP004", "id: q\nquestion: x\u2066y\n".encode(), 2, 12, "U+2066"),
    (
        "LP005",
        b"id: q\nquestion: |\n  one\n<<<<<<< HEAD\n  two\n=======\n  three\n>>>>>>> b\n",
        4,
        1,
        "'<<<<<<<'",
    ),
    ("LP006", b"%YAML 1.1\n---\nid: q\nquestion: no\n", 1, 1, "directive"),
    ("LP006", b"# c\n%TAG !e! tag:example.com,2000:\n---\nid: q\n", 2, 1, "%TAG directive"),
    ("LP006", b"%YAML 2.0\n---\nid: q\n", 1, 1, "%YAML directive"),
    ("LP007", b"id: q\nquestion: a\n---\nid: r\n", 3, 1, "second YAML document"),
    ("LP008", b"# only a comment\n\n", 1, 1, "empty file"),
    ("LP008", b"", 1, 1, "empty file"),
    ("LP009", b"id: q\nquestion: &a x\n", 2, 11, "anchor &a"),
    ("LP010", b"id: q\nquestion: *a\n", 2, 11, "alias *a"),
    ("LP011", b"id: q\nextra:\n  <<: {a: 1}\n", 3, 3, "merge key"),
    ("LP012", b"id: q\nquestion: !!python/object/apply:os.system [ls]\n", 2, 11, "explicit tag"),
    ("LP012", b"id: !!str 0123\n", 1, 5, "explicit tag"),
    ("LP013", b"id: q\nx: " + b"[" * 40 + b"]" * 40 + b"\n", 2, 35, "deeper than 32"),
    ("LP014", b"id: q\nquestion: a\nid: r\n", 3, 1, "duplicate key 'id' (lines 1 and 3)"),
    ("LP015", b"id: q\nquestion: [a\njudged_ids: []\n", 3, 11, ""),
    ("LP015", b"id: q\n  question: a\n", 2, 11, ""),
]


@pytest.mark.parametrize(("rule", "raw", "line", "col", "text"), SAFETY_CASES)
def test_guard_rule(tmp_path: Path, rule: str, raw: bytes, line: int, col: int, text: str) -> None:
    path = write(tmp_path, "q.yaml", raw)
    findings = (
        yamlfile.guard(path, raw, max_bytes=100) if rule == "LP001" else yamlfile.guard(path, raw)
    )
    assert findings, f"{rule} not detected"
    first = findings[0]
    assert (first.path, first.line, first.col, first.rule) == (str(path), line, col, rule)
    assert text in first.message
    assert rule in yamlfile.SAFETY_RULES
    # the readers refuse the file with the same first finding
    if rule != "LP001":
        with pytest.raises(yamlfile.YamlError) as exc:
            yamlfile.load_fast(path)
        assert str(exc.value) == str(first)
        assert exc.value.finding == first
        with pytest.raises(yamlfile.YamlError):
            yamlfile.load_roundtrip(path)


def test_every_safety_rule_has_a_failing_input() -> None:
    assert {case[0] for case in SAFETY_CASES} == set(yamlfile.SAFETY_RULES)


def test_duplicate_keys_name_both_lines_also_inside_flow_mappings(tmp_path: Path) -> None:
    raw = b"id: q\npending:\n  - docs:\n      - {doc: a, verdict: null, doc: b}\n"
    findings = yamlfile.guard(tmp_path / "q.yaml", raw)
    assert [(f.rule, f.line, f.col) for f in findings] == [("LP014", 4, 33)]
    assert "lines 4 and 4" in findings[0].message


def test_same_key_in_sibling_mappings_is_fine(tmp_path: Path) -> None:
    raw = b"id: q\npool:\n  - {system: a, k: 1}\n  - {system: b, k: 2}\n"
    assert yamlfile.guard(tmp_path / "q.yaml", raw) == []


def test_bounds_leave_room_for_a_pending_batch_with_chunk_text(tmp_path: Path) -> None:
    chunk = "# text: " + "Items damaged in transit may be returned within 30 days. " * 30 + "\n"
    docs = "".join(
        f"      {chunk}      - {{doc: tenant-{i:05d}#returns, verdict: null}}\n"
        for i in range(1500)
    )
    text = (
        "id: q\nquestion: Where?\nrelevant_doc_ids: []\njudged_ids: []\npending:\n"
        "  - batch: b1\n    systems:\n      - bm25\n    depth: 20\n    date: '2026-12-02'\n"
        "    docs:\n" + docs
    )
    raw = text.encode()
    assert len(raw) > 2 * 1024 * 1024
    assert yamlfile.guard(tmp_path / "q.yaml", raw) == []


BILLION_LAUGHS = b"""\
id: lol
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_is_refused_fast(tmp_path: Path) -> None:
    path = write(tmp_path, "lol.yaml", BILLION_LAUGHS)
    start = time.perf_counter()
    findings = yamlfile.guard(path, BILLION_LAUGHS)
    with pytest.raises(yamlfile.YamlError) as exc:
        yamlfile.load_fast(path)
    elapsed = time.perf_counter() - start
    assert elapsed < 5.0  # generous: only catches a hang
    assert findings[0].rule == "LP009"
    assert (exc.value.line, exc.value.col, exc.value.rule) == (2, 4, "LP009")


def test_a_fresh_parser_per_file_a_directive_does_not_leak(tmp_path: Path) -> None:
    one = write(tmp_path, "one.yaml", "%YAML 1.1\n---\nid: 'no'\n")
    two = write(tmp_path, "two.yaml", "id: q\nquestion: 'no'\nextra: no\n")
    with pytest.raises(yamlfile.YamlError):
        yamlfile.load_roundtrip(one)
    assert yamlfile.loads_roundtrip("%YAML 1.1\n---\nx: no\n", repair=True)["x"] is False
    # YAML 1.2: still a string (fmt's repairing load) ...
    assert yamlfile.load_roundtrip(two, repair=True).data["extra"] == "no"
    with pytest.raises(yamlfile.YamlError, match="LP021 extra: plain no"):
        yamlfile.load_roundtrip(two)  # ... and refused by the editor, as by every command


def test_impossible_date_is_a_positioned_error_not_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, "q.yaml", "id: q\nquestion: x\npool:\n  - date: 2026-02-30\n")
    with pytest.raises(yamlfile.YamlError) as exc:
        yamlfile.load_fast(path)
    assert (exc.value.line, exc.value.col, exc.value.rule) == (4, 11, "LP021")
    assert "2026-02-30" in exc.value.message


def test_validate_reports_guard_findings_without_traceback(repo: Path) -> None:
    path = write(repo / "labels", "lol.yaml", BILLION_LAUGHS)
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from labelpool.cli import main; sys.exit(main(sys.argv[1:]))",
            "validate",
            str(path),
            "--repo",
            str(repo),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert f"{path}:2:4: LP009" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_validate_cli_in_process_reports_each_safety_rule(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [c for c in SAFETY_CASES if c[0] != "LP001"]
    seen = 0
    for n, (rule, raw, line, col, _text) in enumerate(cases):
        path = write(repo / "labels", f"q{n}.yaml", raw)
        code = main(["validate", str(path), "--repo", str(repo)])
        out = capsys.readouterr()
        assert code == 1, rule
        assert f"{path}:{line}:{col}: {rule}" in out.out + out.err, (rule, out)
        path.unlink()
        seen += 1
    assert seen == len(cases)


# --------------------------------------------------------------------------- quoting

AMBIGUOUS = [
    "0123",
    "1239",
    "0x1F",
    "1_000",
    "1:20",
    "1e3",
    "1.5",
    ".inf",
    "-.inf",
    ".nan",
    "+1",
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "n",
    "true",
    "False",
    "null",
    "~",
    "",
    "Null",
    "2026-06-02",
    "2026-06-02 10:00:00",
    "<<",
    "=",
    "- a",
    "a: b",
    "#x",
    "x #y",
    "[x]",
    "{x}",
    "&a",
    "*a",
    "!x",
    "|",
    ">",
    "@x",
    "`x",
    "%x",
    "'x",
    '"x',
    " a",
    "a ",
    "a\nb",
]


@pytest.mark.parametrize("text", AMBIGUOUS)
def test_needs_quotes_on_known_ambiguous_scalars(text: str) -> None:
    assert yamlfile.needs_quotes(text)


@pytest.mark.parametrize(
    "text", ["abc", "faq-shipping#damaged", "policy-v3#sec-2", "KILT_105219", "x:y", "é", "a b"]
)
def test_plain_ids_need_no_quotes(text: str) -> None:
    assert not yamlfile.needs_quotes(text)


def _ruamel_load(text: str, version: tuple[int, int]) -> Any:
    y = YAML(typ="safe", pure=True)
    y.version = version
    return y.load(text)


scalar_text = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"[-+.0-9a-fA-FxXoOeE:_ ~#]{1,10}", fullmatch=True),
    st.sampled_from(AMBIGUOUS),
)


@settings(max_examples=400, deadline=None)
@given(scalar_text)
def test_needs_quotes_agrees_with_both_resolvers(text: str) -> None:
    if not yamlfile.needs_quotes(text):
        source = f"k: {text}\n"
        assert yaml.safe_load(source) == {"k": text}
        assert _ruamel_load(source, (1, 1)) == {"k": text}
        assert _ruamel_load(source, (1, 2)) == {"k": text}
    if not yamlfile.needs_quotes(text, flow=True):
        source = f"k: {{a: {text}, b: [{text}]}}\n"
        expected = {"k": {"a": text, "b": [text]}}
        assert yaml.safe_load(source) == expected
        assert _ruamel_load(source, (1, 2)) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=15))
def test_scalar_written_by_dumps_reads_back_as_the_same_string(text: str) -> None:
    """Never a raw control character; one written as an escape is refused as the raw one is
    (issue 29), so ``dumps`` refuses to write it: a writer never writes what validate refuses."""
    data = yamlfile.loads_roundtrip("id: x\n")
    data["id"] = yamlfile.scalar(text)
    refused = [found[0] for found in map(rule_of, text) if found is not None]
    if refused:
        with pytest.raises(yamlfile.UnwritableError) as err:
            yamlfile.dumps(data)
        assert err.value.rule == refused[0]
        out = yamlfile.dumps(data, check=False)
        found = yamlfile.guard(Path("x.yaml"), out.encode())
        assert [f.rule for f in found] == refused  # one per escape, in order
        lines = out.split("\n")
        assert all(lines[f.line - 1][f.col - 1] == "\\" for f in found)  # at its backslash
        assert yaml.safe_load(out) == {"id": text}
        return
    out = yamlfile.dumps(data)
    assert yamlfile.guard(Path("x.yaml"), out.encode()) == []  # never a raw control character
    assert yaml.safe_load(out) == {"id": text}
    assert yamlfile.loads_roundtrip(out)["id"] == text


# --------------------------------------------------------------------------- fast == round trip

doc_id = st.one_of(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9#._-]{0,12}", fullmatch=True),
    st.sampled_from(["0123", "1239", "no", "on", "1e3", "null", "2026-06-02", "0x1F", "1:20"]),
)


@st.composite
def label_files(draw: st.DrawFn) -> str:
    judged = sorted(set(draw(st.lists(doc_id, max_size=6))))
    relevant = sorted(set(draw(st.lists(st.sampled_from(judged), max_size=3)))) if judged else []
    data = yamlfile.loads_roundtrip("id: x\n")
    qid = draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,10}", fullmatch=True))
    data["id"] = yamlfile.scalar(qid)
    question = st.text(
        st.characters(exclude_characters=REFUSED, exclude_categories=("Cs",)),
        min_size=1,
        max_size=30,
    )
    data["question"] = yamlfile.scalar(draw(question))  # a writer refuses LP003/LP004's
    labelfile.set_sorted_list(data, "relevant_doc_ids", relevant)
    labelfile.set_sorted_list(data, "judged_ids", judged)
    for doc in relevant:
        grade = draw(st.integers(1, 4))
        if grade != 1:
            labelfile.set_mapping_item(data, "grades", doc, grade)
    if judged:
        entry = yamlfile.loads_roundtrip("{system: x, k: 1, date: '2026-06-02'}")
        entry["system"] = yamlfile.scalar(draw(doc_id))
        entry["k"] = draw(st.one_of(st.none(), st.integers(1, 1000)))
        data["pool"] = yamlfile.loads_roundtrip("- {}\n")
        data["pool"][0] = entry
    if draw(st.booleans()):
        data["x-extra"] = yamlfile.scalar(draw(doc_id))
    return yamlfile.dumps(data)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    return value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(label_files())
def test_fast_and_roundtrip_paths_read_every_label_file_alike(text: str) -> None:
    fast = yamlfile.loads_fast(text)
    slow = _plain(yamlfile.loads_roundtrip(text))
    assert fast == slow
    assert yamlfile.dumps(yamlfile.loads_roundtrip(text)) == text  # canonical output is stable


def test_fast_and_roundtrip_refuse_plain_ambiguous_scalars_alike() -> None:
    """Why quoting matters: PyYAML and ruamel read a plain `no` and `0123` differently, so
    the one reading and the editor held to it refuse the file, with the same error."""
    text = "id: q\nquestion: no\njudged_ids:\n  - 0123\n"
    assert _plain(yamlfile.loads_roundtrip(text, repair=True)) != yaml.safe_load(text)
    message = "<string>:2:11: LP021 question: plain no is read as a non-string"
    with pytest.raises(yamlfile.YamlError) as fast:
        yamlfile.loads_fast(text)
    with pytest.raises(yamlfile.YamlError) as slow:
        yamlfile.loads_roundtrip(text)
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith(message)


# --------------------------------------------------------------------------- format_label


def test_format_label_sorts_quotes_and_keeps_comments() -> None:
    text = (
        "# head comment\n"
        "id: q\n"
        "question: no\n"
        "relevant_doc_ids: [b, 0123]\n"
        "judged_ids:\n  - c   # third\n  - b\n  - 0123\n  - a\n"
        "grades:\n  b: 2\n  0123: 3\n"
        "relevant_classes:\n  - - z\n    - b\n  - - c\n    - a\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: 2026-06-02\n"
        "pending:\n  - batch: b1\n    systems: [bm25]\n    depth: 5\n    date: 2026-12-02\n"
        "    docs:\n      - {doc: 1e3, verdict: null}\n"
        "      - {doc: x, verdict: {duplicate-of: 0x1F}}\n"
        "x-extra: kept\n"
    )
    data = yamlfile.loads_roundtrip(text, repair=True)
    labelfile.format_label(data, text)
    out = yamlfile.dumps(data)
    assert out == (
        "# head comment\n"
        "id: q\n"
        "question: 'no'\n"
        "relevant_doc_ids:\n  - '0123'\n  - b\n"
        "judged_ids:\n  - '0123'\n  - a\n  - b\n  - c   # third\n"
        "grades:\n  '0123': 3\n  b: 2\n"
        "relevant_classes:\n  - - a\n    - c\n  - - b\n    - z\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
        "pending:\n  - batch: b1\n    systems: [bm25]\n    depth: 5\n    date: '2026-12-02'\n"
        "    docs:\n      - {doc: '1e3', verdict: null}\n"
        "      - {doc: x, verdict: {duplicate-of: '0x1F'}}\n"
        "x-extra: kept\n"
    )
    again = yamlfile.loads_roundtrip(out)
    labelfile.format_label(again, out)
    assert yamlfile.dumps(again) == out


@st.composite
def messy_label_files(draw: st.DrawFn) -> str:
    ids = st.lists(doc_id, max_size=6, unique=True)
    judged = draw(ids)
    lines = ["# a comment", "id: q", f"question: {draw(st.sampled_from(['x', 'no', '1e3']))}"]
    lines.append("judged_ids:" + ("" if judged else " []"))
    marks = draw(st.lists(st.booleans(), min_size=len(judged), max_size=len(judged)))
    for i, (d, mark) in enumerate(zip(judged, marks, strict=True)):
        if mark and i % 2:
            lines.append(f"  # above {i}")
        lines.append(f"  - {d}" + (f"  # eol {i}" if mark else ""))
    classes = draw(st.lists(ids.filter(bool), max_size=3))
    if classes:
        lines.append("relevant_classes:")
        for cls in classes:
            lines.append(f"  - - {cls[0]}")
            lines += [f"    - {d}" for d in cls[1:]]
    plain_id = st.from_regex(r"[A-Za-z][A-Za-z0-9#._-]{0,8}", fullmatch=True)
    grades = draw(st.dictionaries(plain_id, st.integers(2, 4), max_size=3))
    if grades:
        lines.append("grades:")
        lines += [f"  {d}: {g}" for d, g in grades.items()]
    lines.append("x-extra: 1")
    return "\n".join(lines) + "\n"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messy_label_files())
def test_format_label_is_idempotent_and_keeps_the_content(text: str) -> None:
    data = yamlfile.loads_roundtrip(text, repair=True)
    labelfile.format_label(data, text)
    once = yamlfile.dumps(data)
    again = yamlfile.loads_roundtrip(once)
    labelfile.format_label(again, once)
    assert yamlfile.dumps(again) == once
    before, after = yaml.load(io.StringIO(text), Loader=yaml.BaseLoader), yaml.safe_load(once)
    assert sorted(before.get("judged_ids") or []) == after["judged_ids"]
    assert after["judged_ids"] == sorted(after["judged_ids"])
    for cls in after.get("relevant_classes") or []:
        assert cls == sorted(cls)
    firsts = [c[0] for c in after.get("relevant_classes") or []]
    assert firsts == sorted(firsts)
    assert after["x-extra"] == 1
    assert once.startswith("# a comment\n")
    for comment in re.findall(r"# (?:eol|above) \d+", text):
        assert once.count(comment + "\n") == 1, comment  # every comment kept, once
    for match in re.finditer(r"- (\S+)  # eol (\d+)", text):  # ... on its item's line
        line = next(ln for ln in once.splitlines() if ln.endswith(f" # eol {match.group(2)}"))
        assert yaml.safe_load(line.split(" #")[0].strip()[2:]) == match.group(1)
    assert yamlfile.loads_fast(once) == _plain(yamlfile.loads_roundtrip(once))


# --------------------------------------------------------------------------- labelset + cache


def _label(qid: str, judged: list[str]) -> str:
    items = "".join(f"  - {d}\n" for d in judged)
    return (
        f"id: {qid}\nquestion: Where is {qid}?\nrelevant_doc_ids:\n{items}judged_ids:\n{items}"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
    )


def test_labelset_cache_is_warm_correct_and_safe_to_break(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labelpool import cache, config, labelset

    cache_home = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(cache_home))
    assert cache.cache_dir() == cache_home
    for i in range(5):
        write(repo / "labels", f"q{i}.yaml", _label(f"q{i}", [f"d{i}", "shared"]))
    cfg = config.load(repo)
    cold = labelset.load(cfg)
    assert sorted(cold) == [f"q{i}" for i in range(5)]
    files = list(cache_home.glob("index-*.arrow"))
    assert len(files) == 1
    assert not list(repo.rglob("*.json"))  # nothing inside the label repository
    warm = labelset.load(cfg)
    assert dict(warm.labels) == dict(cold.labels) and warm.digest == cold.digest
    assert warm.digest == labelset.load(cfg, use_cache=False).digest
    # an edit is seen (new content hash) even when size and mtime are kept
    path = repo / "labels" / "q1.yaml"
    before = path.stat()
    path.write_text(_label("q1", ["d9", "shared"]), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    edited = labelset.load(cfg)
    assert edited["q1"].judged_ids == ("d9", "shared")
    assert edited.digest != cold.digest
    # a corrupt cache is a cold read
    files[0].write_text("{not json", encoding="utf-8")
    assert labelset.load(cfg)["q1"].judged_ids == ("d9", "shared")
    # and so is a deleted one
    for f in cache_home.iterdir():
        f.unlink()
    assert labelset.load(cfg)["q1"].judged_ids == ("d9", "shared")


def test_labelset_refuses_an_unsafe_file_with_its_position(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from labelpool import config, labelset

    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    path = write(repo / "labels", "lol.yaml", BILLION_LAUGHS)
    with pytest.raises(labelset.LabelSetError) as exc:
        labelset.load(config.load(repo))
    assert str(exc.value).startswith(f"{path}:2:4: LP009")
