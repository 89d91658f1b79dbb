"""Small HTML helpers: every text passes :func:`labelpool.render.sanitize.html`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from labelpool.render import sanitize


def h(s: object) -> str:
    """Text (from a file, a name, a number) as HTML text or an attribute value."""
    return sanitize.html(s)


def table(head: Sequence[str], rows: Iterable[Sequence[str]], cls: str = "") -> str:
    """A table; ``head`` is plain text (escaped here), ``rows`` hold HTML already escaped."""
    attr = f' class="{cls}"' if cls else ""
    out = [f"<table{attr}><thead><tr>"]
    out += [f"<th>{h(c)}</th>" for c in head]
    out.append("</tr></thead><tbody>\n")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>\n")
    out.append("</tbody></table>\n")
    return "".join(out)


def num(x: float, digits: int = 3) -> str:
    return f"{x:.{digits}f}"


def signed(x: float, digits: int = 3) -> str:
    return f"{x:+.{digits}f}"


def pct(x: float) -> str:
    return f"{x:.0%}"


def figure(svg: str, caption: str, per_question: bool = False) -> str:
    """A plot and its explanation in words (``caption``: HTML already escaped);
    ``per_question``: one mark per question, each with ``data-q`` (class ``per-question``)."""
    cls = ' class="per-question"' if per_question else ""
    return f"<figure{cls}>{svg}\n<figcaption>{caption}</figcaption></figure>\n"


def details(summary: str, body: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<details{attr}><summary>{summary}</summary>{body}</details>\n"
