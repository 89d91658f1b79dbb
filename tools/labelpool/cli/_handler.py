"""The one error handler: how an exception leaving a command becomes stderr and an exit code.

Every message passes :func:`labelpool.render.sanitize.text` first: an error quotes file names,
ids and lines of the files it read (controls and bidi characters shown escaped, a line break
as ``\\x0a``, no ``::`` starting a workflow command).

* :class:`~labelpool.errors.LabelpoolError`: ``error: <str(exc)>`` and ``exc.exit_code``
  (every command; 0.1.0's ``score`` printed its input and state errors without the prefix);
* :class:`OSError` (output that cannot be written: a full disk, a closed pipe): ``error: ...``
  and exit 1, with stdout pointed at /dev/null so that the last flush cannot fail again;
* anything else is a bug: one line and exit 70 (``LABELPOOL_DEBUG=1`` shows the traceback).

``typer.Exit`` (a ``RuntimeError``) and click's own exceptions never reach this module: the
app catches them first (standalone mode), and :func:`guard` re-raises them untouched.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import typer

from labelpool.errors import EXIT_FINDINGS, EXIT_INTERNAL, LabelpoolError
from labelpool.render.sanitize import text as safe

F = TypeVar("F", bound=Callable[..., Any])


def exit_with(exc: LabelpoolError) -> NoReturn:
    """Print ``error: <exc>`` on stderr and leave with its exit code."""
    print(f"error: {safe(exc)}", file=sys.stderr)
    raise typer.Exit(exc.exit_code)


def guard(command: F) -> F:
    """``command`` with every :class:`LabelpoolError` it raises printed and turned into its
    exit code (inside the click context, so that the app's cleanup runs as for typer.Exit)."""

    @functools.wraps(command)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except LabelpoolError as exc:
            exit_with(exc)

    return guarded  # type: ignore[return-value]


def exit_on_os_error(exc: OSError) -> NoReturn:
    """Output that cannot be written: ``error: [file: ]reason`` and exit 1."""
    _quiet_stdout()
    where = f"{safe(exc.filename)}: " if exc.filename else ""
    print(f"error: {where}{safe(exc.strerror or exc)}", file=sys.stderr)
    raise SystemExit(EXIT_FINDINGS) from None


def exit_on_bug(exc: Exception) -> NoReturn:
    """A bug: one line, not a traceback (unless ``LABELPOOL_DEBUG`` is set), and exit 70."""
    if os.environ.get("LABELPOOL_DEBUG"):
        raise exc
    print(
        f"error: internal error: {type(exc).__name__}: {safe(exc)} (a labelpool bug; "
        "set LABELPOOL_DEBUG=1 to see where)",
        file=sys.stderr,
    )
    raise SystemExit(EXIT_INTERNAL) from None


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError):
        sys.stdout.flush()
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no real stdout in tests
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
