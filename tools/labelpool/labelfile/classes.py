"""Proposed classes written into a label file as a text edit: :func:`add_proposals`.

A proposal is a class entry in the mapping form, under its comment line::

    relevant_classes:
      - - a-doc#1
        - b-doc#2
      # proposed: tenant-acme#returns, tenant-initech#returns differ in: "Acme" / "Initech"
      - members: [tenant-acme#returns, tenant-initech#returns]
        proposed: {method: shingle-jaccard, score: 0.86}
      # proposed: tenant-globex#returns joins the class of a-doc#1; differ in: "Globex" / "A"
      - members: [tenant-globex#returns]
        extends: a-doc#1
        proposed: {method: shingle-jaccard, score: 0.9}

The second is an extension: once accepted, its members join the accepted class that holds
the member ``extends`` names (``merge`` then writes them into that class).

The entries are appended at the end of the ``relevant_classes`` block (the key is made at its
place among the known keys when absent); every other byte of the file stays as it was, so the
pull request shows only the proposals. The caller checks the new text with validate's rules
before writing it (``rules.written``): this module knows the form, not the rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labelpool.errors import InputError
from labelpool.model import KNOWN_KEYS
from labelpool.words import one_line
from labelpool.yamlfile import id_text

KEY = "relevant_classes"
# a proposal: (members, method, score, comment[, extends]); an empty comment writes no comment
# line; ``extends`` (a member of an accepted class) makes it an extension of that class
Proposal = tuple[Sequence[str], str, float, str] | tuple[Sequence[str], str, float, str, str]

_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):(?: |$)")
_ITEM = re.compile(r"^( *)- ")
MAX_COMMENT = 400  # characters of one comment line, beyond which it is cut


class ClassesEditError(InputError):
    """The file's ``relevant_classes`` is not in a form the text edit can extend (exit 1)."""


def quote(value: str) -> str:
    """``value`` as a scalar that reads back as itself in a flow list (YAML 1.1 and 1.2)."""
    return id_text(value)


def score_text(score: float) -> str:
    """A score in 0..1 as a short YAML float: ``0.86``, ``1.0`` (three decimals at most)."""
    text = f"{min(max(score, 0.0), 1.0):.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def comment_text(comment: str) -> str:
    """``comment`` fit for one comment line: controls, bidi and format characters become
    spaces, runs of spaces one, at most :data:`MAX_COMMENT` characters."""
    out = one_line(comment)
    return out if len(out) <= MAX_COMMENT else out[: MAX_COMMENT - 3] + "..."


def entry_lines(proposal: Proposal, indent: int) -> list[str]:
    """The lines of one proposal, its dash at ``indent``."""
    members, method, score, comment = proposal[:4]
    pad = " " * indent
    out = [f"{pad}# {comment_text(comment)}\n"] if comment_text(comment) else []
    out.append(f"{pad}- members: [{', '.join(quote(m) for m in members)}]\n")
    if len(proposal) > 4:
        out.append(f"{pad}  extends: {quote(proposal[4])}\n")
    out.append(f"{pad}  proposed: {{method: {quote(method)}, score: {score_text(score)}}}\n")
    return out


def add_proposals(text: str, proposals: Sequence[Proposal]) -> str:
    """``text`` with ``proposals`` appended to its ``relevant_classes`` block, every other
    byte unchanged. A file without the key gets it after the known keys that come before it
    (``model.KNOWN_KEYS``); ``relevant_classes: []`` becomes a block. A class list in flow
    form (``relevant_classes: [[a, b]]``) is refused: ``labelpool fmt`` writes it as a block."""
    if not proposals:
        return text
    if text and not text.endswith("\n"):
        text += "\n"
    lines = text.splitlines(keepends=True)
    tops = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _TOP_KEY.match(line))]
    if not tops:
        raise ClassesEditError("the file is not a block mapping: run `labelpool fmt` first")
    at = next((i for i, key in tops if key == KEY), None)
    if at is None:
        where = _insertion_line(lines, tops)
        block = [f"{KEY}:\n", *(ln for p in proposals for ln in entry_lines(p, 2))]
        return "".join(lines[:where] + block + lines[where:])
    rest = re.split(r"(?:^|\s)#", lines[at][len(KEY) + 1 :], maxsplit=1)[0].strip()
    if rest not in ("", "[]"):
        raise ClassesEditError(
            f"{KEY} is written in flow form: run `labelpool fmt` first", line=at + 1
        )
    end = _block_end(lines, at)
    indent = _item_indent(lines[at + 1 : end])
    new = [ln for p in proposals for ln in entry_lines(p, indent)]
    head = [f"{KEY}:{_after_empty(lines[at])}"] if rest == "[]" else [lines[at]]
    return "".join(lines[:at] + head + lines[at + 1 : end] + new + lines[end:])


def _after_empty(line: str) -> str:
    """What follows ``[]`` on ``relevant_classes: []`` (a comment, the line break)."""
    tail = line.split("[]", 1)[1]
    return tail if tail.strip() else "\n"


def _block_end(lines: list[str], at: int) -> int:
    """The line after the last indented line of the block whose key is on line ``at``
    (comments and blank lines before the next key belong to that key)."""
    end = at + 1
    for i in range(at + 1, len(lines)):
        line = lines[i]
        if line.startswith((" ", "-")) and line.strip() and not line.lstrip().startswith("#"):
            end = i + 1
        elif line.strip() and not line.lstrip().startswith("#"):
            break
    return end


def _item_indent(block: list[str]) -> int:
    """The indent of the block's first item (2, labelpool's, when it has none)."""
    for line in block:
        m = _ITEM.match(line)
        if m is not None:
            return len(m.group(1))
    return 2


def _insertion_line(lines: list[str], tops: list[tuple[int, str]]) -> int:
    """Where a new ``relevant_classes`` block starts: after the block of the last known key
    that comes before it, else before the first key."""
    rank = KNOWN_KEYS.index(KEY)
    before = [i for i, key in tops if key in KNOWN_KEYS and KNOWN_KEYS.index(key) < rank]
    if not before:
        return tops[0][0] if tops else len(lines)
    return _block_end(lines, before[-1])
