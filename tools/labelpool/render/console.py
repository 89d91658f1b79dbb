"""Names through rich without markup interpretation (rich reads ``[red]`` in any string).

* :func:`plain`: a :class:`rich.text.Text` of :func:`labelpool.render.sanitize.text` -- a cell
  or a line rich prints as it is (a ``Text`` is never parsed for markup);
* :func:`markup`: a name to put inside a markup string (``f"[bold]{markup(name)}[/bold]"``):
  sanitised, then ``rich.markup.escape``.

A string printed with ``console.print(s, markup=False)`` is not parsed either; it still needs
:func:`~labelpool.render.sanitize.text` first.
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text

from labelpool.render import sanitize


def plain(s: object) -> Text:
    """``s`` sanitised, as a rich ``Text`` (printed verbatim, never parsed as markup)."""
    return Text(sanitize.text(s))


def markup(s: object) -> str:
    """``s`` sanitised and escaped for use inside a rich markup string."""
    return escape(sanitize.text(s))
