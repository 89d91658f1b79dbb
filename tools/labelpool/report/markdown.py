"""Markdown escapers for untrusted text (system names, question text, ids).

Four escapers with four behaviours, moved here unchanged from the renderers that used them;
each is named for what it escapes. Unifying them changes output, so it is left to the
judging-record issue's sanitiser.
"""

from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def escape_pipes_angles_mentions(text: str) -> str:
    """Untrusted text (system names come from file names) safe in markdown: one line, no
    ``|`` opening a table cell, no HTML, no @mention."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"(?<![A-Za-z0-9])@", "&#64;", text)  # `R@10` stays, `@someone` does not


def escape_table_cell(text: str) -> str:
    """Untrusted text (system names come from file names) safe in a markdown table cell: one
    line, no ``|`` opening a cell, no HTML, no @mention."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"(?<![A-Za-z0-9])@", "&#64;", text)  # `R@10` stays, `@someone` does not


def escape_pipes_lt_mentions(text: str) -> str:
    """Untrusted text (system names come from file names) safe in markdown: one line, no
    ``|`` opening a table cell, no HTML, no @mention."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    text = text.replace("<", "&lt;")  # no tag can open; `1 -> 2` stays readable
    return re.sub(r"(?<![A-Za-z0-9])@", "&#64;", text)  # `R@10` stays, `@someone` does not


def escape_inline(text: str) -> str:
    """Inline-safe markdown for untrusted text (ids, question text): no tables broken, no HTML,
    no mentions, one line (markdown specials, angle brackets and every ``@`` escaped)."""
    text = " ".join(str(text).split())
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("<", "&lt;").replace(">", "&gt;").replace("@", "&#64;")
