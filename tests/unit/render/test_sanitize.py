"""render/sanitize.py and render/console.py: one sanitiser per output channel."""

from __future__ import annotations

import io
import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from labelpool.render import console, sanitize

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")

# text strategies biased towards the characters that matter
SPECIALS = st.sampled_from(
    [
        *"\x00\t\n\r\x1b\x7f\x85\x9b\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029",
        ":",
        "::",
        " ",
        "\u00a0",
        "\u3000",
        "[",
        "]",
        "`",
        "|",
        "@",
        "&",
        "<",
        ">",
        "\\",
        "#",
        "##[",
    ]
)
HOSTILE = st.lists(st.one_of(SPECIALS, st.text(max_size=4)), max_size=12).map("".join)


def test_text_escapes_controls_and_bidi() -> None:
    assert sanitize.text("a\x1b[31mb") == "a\\x1b[31mb"
    assert sanitize.text("x\ny\tz\r") == "x\\x0ay\\x09z\\x0d"
    assert sanitize.text("\x7f\x85\x9f") == "\\x7f\\x85\\x9f"
    assert sanitize.text("evil\u202etxt.trec") == "evil\\u202etxt.trec"
    assert sanitize.text("\u061c\u200e\u200f\u2066\u2067\u2068\u2069") == (
        "\\u061c\\u200e\\u200f\\u2066\\u2067\\u2068\\u2069"
    )
    assert sanitize.text("\u202a\u202b\u202c\u202d") == "\\u202a\\u202b\\u202c\\u202d"
    assert sanitize.text("a\u2028b\u2029c") == "a\\u2028b\\u2029c"


def test_text_keeps_ordinary_text() -> None:
    for s in ("bm25", "R@10", "run-2026.trec", "qid 12: what is x?", "Zoë 🙂", "a\u00a0b", "é"):
        assert sanitize.text(s) == s


def test_text_breaks_a_leading_workflow_command() -> None:
    assert sanitize.text("::error::forged") == "\\x3a:error::forged"
    assert sanitize.text("  ::add-mask::x") == "  \\x3a:add-mask::x"
    assert sanitize.text("\u3000::warning::x") == "\u3000\\x3a:warning::x"
    assert sanitize.text("x::error::y") == "x::error::y"  # not at the start: no command
    # the newline is escaped, so nothing after it starts a line
    assert sanitize.text("x\n::error::forged.trec") == "x\\x0a::error::forged.trec"
    assert sanitize.text("\n::error::f") == "\\x0a::error::f"


def test_text_breaks_every_legacy_workflow_command() -> None:
    # the runner reads ##[name]data anywhere in a line (its legacy command form)
    assert sanitize.text("x ##[error]forged") == "x #\\x23[error]forged"
    assert sanitize.text("###[add-mask]a ##[x") == "##\\x23[add-mask]a #\\x23[x"
    assert sanitize.text("# heading [1]") == "# heading [1]"
    assert sanitize.lines("a ##[error]b\n") == "a #\\x23[error]b\n"
    assert "##[" not in sanitize.markdown("##[error]x")
    assert sanitize.json_dumps(["##[error]x"]) == '["#\\u0023[error]x"]'
    assert json.loads(sanitize.json_dumps(["##[error]x"])) == ["##[error]x"]


def test_text_takes_any_object() -> None:
    assert sanitize.text(12) == "12"


def test_lines_guards_every_line() -> None:
    assert sanitize.lines("a\n  ::error::x\n::b\n") == "a\n  \\x3a:error::x\n\\x3a:b\n"
    assert sanitize.lines("a\r\n::x\r\n") == "a\r\n\\x3a:x\r\n"
    assert sanitize.lines("plain\n") == "plain\n"


def test_markdown_escapes_every_special() -> None:
    assert sanitize.markdown("\\`*_[]|~#!<>&") == ("\\\\\\`\\*\\_\\[\\]\\|\\~\\#\\!&lt;&gt;&amp;")
    assert sanitize.markdown("@someone, (@x) and a@b") == "&#64;someone, (&#64;x) and a@b"
    assert sanitize.markdown("_@x é@y") == "\\_&#64;x é&#64;y"
    assert sanitize.markdown("<img src=x onerror=alert(1)>") == (
        "&lt;img src=x onerror=alert(1)&gt;"
    )
    assert sanitize.markdown("x\x1b\n::y") == "x\\\\x1b\\\\x0a::y"
    assert sanitize.markdown("::error::x") == "\\\\x3a:error::x"
    assert sanitize.markdown("bm25 -> 0.5") == "bm25 -&gt; 0.5"


def test_measure_name_keeps_the_at_of_a_cutoff() -> None:
    assert sanitize.measure_name("R@10") == "R@10"
    assert sanitize.measure_name("nDCG@10") == "nDCG@10"
    assert sanitize.measure_name("@10") == "&#64;10"
    assert sanitize.markdown("regression: -0.7 R@10, dense@HEAD~1") == (
        "regression: -0.7 R@10, dense@HEAD\\~1"
    )


def test_code_span() -> None:
    assert sanitize.code_span("a`b") == "a'b"
    assert sanitize.code_span("a|b") == "a|b"
    assert sanitize.code_span("a|b", table=True) == "a\\|b"
    assert sanitize.code_span("q\x1b") == "q\\x1b"


def test_csv_cell() -> None:
    for lead in "=+-@":
        assert sanitize.csv_cell(f"{lead}cmd|' /C calc'!A0") == f"'{lead}cmd|' /C calc'!A0"
    assert sanitize.csv_cell("bm25") == "bm25"
    assert sanitize.csv_cell("\t=1") == "\\x09=1"
    assert sanitize.csv_cell("") == ""


def test_html() -> None:
    assert sanitize.html("<a href='x'>\"&\x1b\u202e") == (
        "&lt;a href=&#x27;x&#x27;&gt;&quot;&amp;\\x1b\\u202e"
    )


def test_json_dumps_is_ascii() -> None:
    out = sanitize.json_dumps({"s": "a\u202e\u2028\x1b"}, indent=2, ensure_ascii=False)
    assert out == '{\n  "s": "a\\u202e\\u2028\\u001b"\n}'
    assert json.loads(out) == {"s": "a\u202e\u2028\x1b"}


def _printed(*cells: object) -> str:
    buffer = io.StringIO()
    con = Console(file=buffer, width=200, color_system=None)
    table = Table()
    table.add_column("x")
    for cell in cells:
        table.add_row(cell)  # type: ignore[arg-type]
    con.print(table)
    return buffer.getvalue()


def test_rich_plain_and_markup_never_interpret_a_name() -> None:
    assert "[red]alert" in _printed(console.plain("[red]alert"))
    assert "[red]alert" not in _printed("[red]alert")  # what rich does to a plain str
    buffer = io.StringIO()
    con = Console(file=buffer, width=200, color_system=None)
    tail = console.markup("a\\")
    con.print(f"[bold]{console.markup('[red]x[/red]')}[/bold] [bold]{tail}[/bold]")
    assert buffer.getvalue() == "[red]x[/red] a\\\n"
    assert str(console.plain("a\x1bb")) == "a\\x1bb"


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_text_output_is_never_a_control_or_a_command(s: str) -> None:
    out = sanitize.text(s)
    assert not UNSAFE.search(out)
    assert not out.lstrip().startswith("::")
    assert "##[" not in out
    assert len(out.splitlines() or [""]) == 1


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_text_output_is_safe_for_any_text(s: str) -> None:
    out = sanitize.text(s)
    assert not UNSAFE.search(out)
    assert not out.lstrip().startswith("::")


@settings(max_examples=200, deadline=None)
@given(HOSTILE)
def test_every_channel_is_clean(s: str) -> None:
    for out in (
        sanitize.markdown(s),
        sanitize.measure_name(s),
        sanitize.csv_cell(s),
        sanitize.html(s),
        sanitize.code_span(s, table=True),
    ):
        assert not UNSAFE.search(out)
        assert not out.lstrip().startswith("::")
        assert "##[" not in out
    assert "##[" not in sanitize.json_dumps(s)
    md = sanitize.markdown(s)
    assert not re.search(r"(?<!\\)[`*_\[\]|~#!<>]", md.replace("\\\\", "").replace("&#64;", ""))
    assert not re.search(r"(?<![A-Za-z0-9])@", md)
    assert not re.search(r"&(?!amp;|lt;|gt;|#64;)", md)
    assert sanitize.csv_cell(s)[:1] not in ("=", "+", "-", "@")
    assert json.loads(sanitize.json_dumps(s)) == s
    assert sanitize.json_dumps(s).isascii()


@settings(max_examples=200, deadline=None)
@given(HOSTILE)
def test_lines_leaves_no_command_line(s: str) -> None:
    out = sanitize.lines(s)
    assert all(not line.lstrip().startswith("::") for line in out.splitlines())
    assert "##[" not in out
