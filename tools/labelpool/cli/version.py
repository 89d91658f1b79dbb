"""``labelpool version``."""

from __future__ import annotations

from labelpool import __version__
from labelpool.cli._common import app


@app.command("version")
def version() -> None:
    """Print labelpool's version."""
    print(__version__)
