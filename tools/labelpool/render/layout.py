"""Text that fits a width: tables whose columns that do not fit go to a table below, and prose
wrapped at word boundaries. No line ends in whitespace.

* :func:`table` ``(header, rows, width, keep=1, right=...) -> list[str]``: rich tables without
  borders (cells are :func:`labelpool.render.console.plain`, never markup); the first ``keep``
  columns start every table, the other columns fill each table in order, in groups that never
  split (``groups``: e.g. a measure's raw, judged-only and optimistic columns).
* :func:`wrap` ``(text, width, indent="  ") -> list[str]``: one paragraph, lines after the first
  indented; a word longer than the width stays whole (a name or a command is never cut).
* :func:`width_of`: the display width of a string (wide characters count two).

``width`` None means no bound (``--wide``): every column in one table.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from labelpool.render import sanitize
from labelpool.render.console import plain

GAP = 2  # blanks between two columns


def width_of(s: str) -> int:
    return cell_len(s)


def _column_widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    widths = []
    for i, head in enumerate(header):
        cells = [max((width_of(part) for part in head.split("\n")), default=0)]
        cells += [width_of(sanitize.text(row[i])) for row in rows]
        widths.append(max(cells))
    return widths


def _groups(n: int, keep: int, groups: Sequence[int] | None) -> list[list[int]]:
    """The column indexes after the kept ones, in their groups (default: one column each)."""
    sizes = list(groups) if groups else [1] * (n - keep)
    out, start = [], keep
    for size in sizes:
        out.append(list(range(start, start + size)))
        start += size
    return out


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int | None,
    *,
    keep: int = 1,
    right: Sequence[int] = (),
    groups: Sequence[int] | None = None,
) -> list[str]:
    """``rows`` under ``header`` as lines no wider than ``width`` where the columns allow it.

    Columns in ``right`` are right-aligned. Every table starts with the first ``keep``
    columns; the other column groups follow in order, each in the first table it fits in (a
    group wider than the width alone gets a table of its own). Tables are separated by a blank
    line. A header cell may hold ``\\n`` (a two-line header).
    """
    widths = _column_widths(header, rows)
    kept = list(range(keep))
    tables: list[list[int]] = []
    current: list[int] = []
    used = sum(widths[i] for i in kept) + GAP * max(len(kept) - 1, 0)
    for group in _groups(len(header), keep, groups):
        extra = sum(widths[i] + GAP for i in group)
        if current and width is not None and used + extra > width:
            tables.append(current)
            current = []
            used = sum(widths[i] for i in kept) + GAP * max(len(kept) - 1, 0)
        current += group
        used += extra
    if current or not tables:
        tables.append(current)
    lines: list[str] = []
    for n, columns in enumerate(tables):
        if n:
            lines.append("")
        lines += _render([*kept, *columns], header, rows, right)
    return lines


def _render(
    columns: Sequence[int],
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: Sequence[int],
) -> list[str]:
    grid = Table(box=None, pad_edge=False, padding=(0, GAP, 0, 0), show_edge=False)
    for i in columns:
        head = Text("\n".join(sanitize.text(part) for part in header[i].split("\n")))
        grid.add_column(head, justify="right" if i in right else "left", no_wrap=True)
    for row in rows:
        grid.add_row(*(plain(row[i]) for i in columns))
    console = Console(file=io.StringIO(), width=100_000, color_system=None, highlight=False)
    console.print(grid)
    out = console.file
    assert isinstance(out, io.StringIO)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def wrap(text: str, width: int | None, indent: str = "  ") -> list[str]:
    """One paragraph as lines of at most ``width`` (None: one line); words are never cut."""
    text = sanitize.text(text)
    if width is None:
        return [text.rstrip()]
    return textwrap.wrap(
        text,
        width=width,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [""]
