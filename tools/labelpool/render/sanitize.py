"""The one sanitiser: text a file or a name supplies, made safe for each output channel.

Everything labelpool prints that comes from files or names (system names from file names and
run tags, question text, doc ids, batch names, judge names, error context) passes one of these
functions before it reaches a terminal, a renderer or the CI runner:

* :func:`text` (terminal text, tables, error messages): C0 controls (TAB, LF and CR too), DEL,
  C1, U+061C, U+200E-F, U+202A-E, U+2066-9 and U+2028-9 are shown escaped (``\\x1b``,
  ``\\u202e``), so nothing can move the cursor, recolour the terminal, reorder a line or start
  a new one; a string whose first non-blank characters are ``::`` prints its first colon as
  ``\\x3a``, so no line of output starts a GitHub workflow command (the runner trims leading
  blanks before it looks for ``::``); and ``##[`` anywhere prints as ``#\\x23[``: the runner
  still reads the legacy form ``##[error]...`` (and ``##[add-mask]``, ``##[stop-commands]``)
  anywhere in a line. :func:`lines` applies both rules to every line of a finished rendering
  (a last guard against names joined into ``::``).
* :func:`markdown`: :func:`text`, then ``\\ ` * _ [ ] | ~ # !`` backslash-escaped and
  ``< > &`` as entities; an ``@`` that could start a mention becomes ``&#64;``; the one
  exception is an ``@`` after a letter or digit, as in the measure names ``R@10`` and
  ``nDCG@10`` (:func:`measure_name`) or a run at a revision (``dense@HEAD~1``): GitHub never
  reads it as a mention.
* :func:`code_span`: :func:`text` for the inside of a markdown code span (no escapes work
  there): backticks become ``'``; in a table cell ``|`` becomes ``\\|``.
* :func:`csv_cell`: :func:`text`, and a leading ``'`` before a cell starting with
  ``= + - @`` (no spreadsheet formula).
* :func:`html`: :func:`text`, then ``html.escape(s, quote=True)``.
* :func:`json_dumps`: ``json.dumps`` with ``ensure_ascii=True`` (every control and bidi
  character as a ``\\uXXXX`` escape), and the ``#`` of ``##[`` as ``\\u0023`` (the same
  value, no legacy workflow command in a log).
* rich: :mod:`labelpool.render.console` prints names without markup interpretation.

Pure Python, no third-party import: the error handler uses it on every error.
"""

from __future__ import annotations

import html as _html
import json
import re
from typing import Any

# C0 (including TAB, LF, CR), DEL, C1, the Arabic letter mark, LRM/RLM, the embeddings and
# overrides, the isolates, and the two Unicode line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_MD_BACKSLASHED = re.compile(r"([\\`*_\[\]|~#!])")
# the legacy workflow-command prefix, which the runner finds anywhere in a line
_LEGACY, _LEGACY_SHOWN = "##[", "#\\x23["
# an @ that could start a GitHub mention: not after an ASCII letter or digit
_MENTION = re.compile(r"(?<![A-Za-z0-9])@")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _no_command(s: str) -> str:
    """``s`` with the first colon of a leading ``::`` (after blanks) as ``\\x3a``."""
    body = s.lstrip()
    if body.startswith("::"):
        return s[: len(s) - len(body)] + "\\x3a" + body[1:]
    return s


def text(s: object) -> str:
    """``s`` (``str()`` of it) safe for a terminal, a log and a CI runner: controls and bidi
    characters shown escaped, a leading ``::`` and every ``##[`` broken."""
    return _no_command(_UNSAFE.sub(_escape_char, str(s)).replace(_LEGACY, _LEGACY_SHOWN))


def joined(lines: list[str]) -> str:
    """Each of ``lines`` through :func:`text`, joined by line breaks: in one pass over the
    whole when no line holds a character :func:`text` changes, ``##[`` or ``::`` (most
    renderings of many lines: ``diff`` of 10,000 changed files prints 200,000)."""
    flat = "".join(lines)
    if _UNSAFE.search(flat) is None and _LEGACY not in flat and "::" not in flat:
        return "\n".join(lines)
    return "\n".join(text(line) for line in lines)


def lines(rendered: str) -> str:
    """Every line of a finished rendering with a leading ``::`` (after blanks) and every
    ``##[`` broken; the line breaks themselves are kept."""
    rendered = rendered.replace(_LEGACY, _LEGACY_SHOWN)
    if "::" not in rendered:
        return rendered
    return "".join(_no_command(line) for line in rendered.splitlines(keepends=True))


def _markdown_escape(s: str) -> str:
    s = s.replace("&", "&amp;")
    s = _MD_BACKSLASHED.sub(r"\\\1", s)
    s = s.replace("<", "&lt;").replace(">", "&gt;")
    return _MENTION.sub("&#64;", s)


def markdown(s: object) -> str:
    """``s`` as inline markdown text: :func:`text`, markdown specials escaped, no HTML, no
    @mention (an ``@`` after a letter or digit stays: ``R@10``, ``dense@HEAD~1``), no table
    cell broken."""
    return _markdown_escape(text(s))


def measure_name(s: object) -> str:
    """A measure name (``R@10``, ``nDCG@10``) as inline markdown: :func:`markdown`, whose one
    exception is the ``@`` of a cut-off (after a letter or digit it cannot start a mention)."""
    return markdown(s)


def code_span(s: object, *, table: bool = False) -> str:
    """The inside of a markdown code span (written between single backticks): :func:`text`,
    backticks as ``'``; ``table``: ``|`` as ``\\|`` (GitHub splits cells before code spans)."""
    s = text(s).replace("`", "'")
    return s.replace("|", "\\|") if table else s


def csv_cell(s: object) -> str:
    """A CSV cell: :func:`text`, and ``'`` before a leading ``= + - @`` (no formula)."""
    s = text(s)
    return "'" + s if s[:1] in ("=", "+", "-", "@") else s


def html(s: object) -> str:
    """HTML text or attribute value: :func:`text`, then ``html.escape(quote=True)``."""
    return _html.escape(text(s), quote=True)


def json_dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps(obj, ensure_ascii=True, **kwargs)``: no raw control or bidi character."""
    kwargs.pop("ensure_ascii", None)
    # "#" occurs only inside JSON strings, where \u0023 is the same character
    return json.dumps(obj, ensure_ascii=True, **kwargs).replace(_LEGACY, "#\\u0023[")
