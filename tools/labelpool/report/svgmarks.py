"""matplotlib's SVG made fit to sit inline in one HTML page, with a ``data-q`` per question.

A per-question mark is drawn as one or more artists whose gid is ``<prefix>-<index>-<part>``
(``index`` into the plot's question list); matplotlib writes each artist as ``<g id="gid">``.
:func:`tag` wraps each question's consecutive artists into one ``<g data-q="<question id>">``
and drops their ids, so a plot holds exactly one ``data-q`` mark per question. It refuses an
SVG in which a question's parts are not adjacent, or a question has no mark (a bug).
:func:`inline` drops the XML prolog, the doctype, the metadata and matplotlib's generic
element ids (``patch_3``, ``text_12``: the same in every plot, so duplicated in the page)
and the indentation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labelpool.render import sanitize

_OPEN = re.compile(r"<g[\s>]")
_CLOSE = "</g>"
_GENERIC_ID = re.compile(
    r' id="(?:figure|axes|patch|line2d|text|xtick|ytick|matplotlib\.axis|legend|'
    r"PathCollection|LineCollection|PolyCollection|QuadMesh|image|"
    r'[a-zA-Z]+Collection)_\d+"'
)
_PROLOG = re.compile(r"\A.*?(?=<svg)", re.DOTALL)
_INDENT = re.compile(r"\n[ \t]+")
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)


def gid(prefix: str, index: int, part: int = 0) -> str:
    return f"{prefix}-{index}-{part}"


def _group_end(svg: str, start: int) -> int:
    """The index just past the ``</g>`` closing the ``<g`` that starts at ``start``."""
    depth, pos = 0, start
    while True:
        opening = _OPEN.search(svg, pos)
        closing = svg.find(_CLOSE, pos)
        if closing < 0:
            raise ValueError("unbalanced <g> in matplotlib's SVG")
        if opening is not None and opening.start() < closing:
            depth += 1
            pos = opening.end()
            continue
        depth -= 1
        pos = closing + len(_CLOSE)
        if depth == 0:
            return pos


def tag(svg: str, prefix: str, qids: Sequence[str]) -> str:
    """Each question's marks (gids ``prefix-i-*``) as one ``<g data-q="qids[i]">``."""
    found = list(re.finditer(r'<g id="' + re.escape(prefix) + r'-(\d+)-(\d+)">', svg))
    out: list[str] = []
    pos = 0
    seen: set[int] = set()
    i = 0
    while i < len(found):
        q = int(found[i].group(1))
        if q in seen:
            raise ValueError(f"the marks of question {qids[q]!r} are not adjacent")
        seen.add(q)
        start = found[i].start()
        end = _group_end(svg, start)
        while i + 1 < len(found) and int(found[i + 1].group(1)) == q:
            i += 1
            if svg[end : found[i].start()].strip():
                raise ValueError(f"the marks of question {qids[q]!r} are not adjacent")
            end = _group_end(svg, found[i].start())
        body = re.sub(r'<g id="' + re.escape(prefix) + r'-\d+-\d+">', "<g>", svg[start:end])
        out += [svg[pos:start], f'<g data-q="{sanitize.html(qids[q])}">', body, "</g>"]
        pos = end
        i += 1
    if len(seen) != len(qids):
        raise ValueError(f"{len(qids) - len(seen)} question(s) have no mark in {prefix}")
    out.append(svg[pos:])
    return "".join(out)


def inline(svg: str) -> str:
    """The ``<svg>`` element alone, without matplotlib's generic ids and metadata."""
    svg = _PROLOG.sub("", svg, count=1)
    svg = _METADATA.sub("", svg, count=1)
    return _INDENT.sub("\n", _GENERIC_ID.sub("", svg)).strip()
