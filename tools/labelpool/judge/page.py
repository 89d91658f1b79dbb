"""The page's files, shipped in the package (``judge/assets``): read once, the token put in.

The HTML, the CSS and the script are the whole page: nothing is loaded from the network,
nothing inline (the ``Content-Security-Policy`` is ``default-src 'self'``). This run's token is
written into the HTML (a ``<meta>`` the script reads), HTML-escaped.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from labelpool.render import sanitize

TOKEN_MARK = "{{TOKEN}}"


@dataclass(frozen=True)
class Asset:
    body: bytes
    ctype: str


def _read(name: str) -> str:
    return resources.files("labelpool.judge").joinpath("assets", name).read_text(encoding="utf-8")


def assets(token: str) -> dict[str, Asset]:
    """URL path -> asset, the HTML holding ``token``."""
    html = _read("judge.html").replace(TOKEN_MARK, sanitize.html(token))
    return {
        "/": Asset(html.encode("utf-8"), "text/html; charset=utf-8"),
        "/judge.css": Asset(_read("judge.css").encode("utf-8"), "text/css; charset=utf-8"),
        "/judge.js": Asset(_read("judge.js").encode("utf-8"), "text/javascript; charset=utf-8"),
    }
