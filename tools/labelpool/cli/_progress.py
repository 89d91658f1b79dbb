"""A progress bar on stderr for long work: shown when stderr is a terminal and the work has
taken about a second, nothing otherwise (a log, a pipe, a short command).

``with progress("pooling") as advance: ...`` -- ``advance()`` moves a bar of ``total`` steps;
with ``total`` None the bar pulses (work whose size is not known in advance). rich is imported
only when the bar can show (0.04-0.08 s of CPU otherwise spent for nothing).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from labelpool.cli import _lazy

AFTER = 1.0  # seconds: shorter work shows no progress bar


def may_be_terminal() -> bool:
    """Whether rich's console on stderr could be a terminal: stderr is a TTY, or the
    environment tells rich to act as one (``FORCE_COLOR``, ``TTY_COMPATIBLE``)."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr: rich says no too
        return False


def _nothing() -> None:
    """The progress callback when no bar can show."""


class progress:
    """A rich progress bar on stderr that appears only once the work has taken :data:`AFTER`
    seconds, and only on a terminal; it is gone (transient) when the work ends."""

    def __init__(self, description: str, total: int | None = None) -> None:
        self.description = description
        self.total = total
        self.bar: Any = None
        self.timer: Any = None
        self.task: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not may_be_terminal():
            return _nothing
        console = _lazy.rich_console.Console(stderr=True)
        if not console.is_terminal:
            return _nothing  # a log or a pipe gets no bar (and no stray blank line)
        rp = _lazy.rich_progress
        self.bar = rp.Progress(
            rp.SpinnerColumn(),
            rp.TextColumn("{task.description}"),
            rp.BarColumn(),
            rp.MofNCompleteColumn() if self.total is not None else rp.TextColumn(""),
            rp.TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self.task = self.bar.add_task(self.description, total=self.total)
        self.timer = threading.Timer(AFTER, self.bar.start)
        self.timer.daemon = True
        self.timer.start()
        return self.advance

    def advance(self) -> None:
        self.bar.advance(self.task)

    def describe(self, description: str) -> None:
        """Say ``description`` beside the bar from now on (a rate, a cost); nothing without a
        bar."""
        if self.bar is not None:
            self.bar.update(self.task, description=description)

    def __exit__(self, *exc: object) -> None:
        if self.bar is None:
            return
        self.timer.cancel()
        self.timer.join()
        self.bar.stop()
