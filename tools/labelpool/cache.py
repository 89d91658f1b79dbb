"""Where labelpool's caches live, outside the tracked tree: :func:`cache_dir`.

``$LABELPOOL_CACHE_DIR``, else ``$XDG_CACHE_HOME/labelpool``, else ``~/.cache/labelpool``.
What is kept there: the label index (:mod:`labelpool.labelindex`: the parsed label files
keyed by git blob id), the run cache (``runs/``, :mod:`labelpool.runs.cached`: parsed runs
keyed by the run file's SHA-256, the least recently used past 32 entries or 2 GiB removed),
the scorer's judgment arrays (``scoring.qrels``), validate's results, the machine judge's
responses. Deleting any of it is always safe: a missing, unreadable or corrupt cache is a
cold read.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Where caches live: ``$LABELPOOL_CACHE_DIR``, ``$XDG_CACHE_HOME/labelpool``, ``~/.cache``."""
    explicit = os.environ.get("LABELPOOL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "labelpool"
    return Path.home() / ".cache" / "labelpool"
