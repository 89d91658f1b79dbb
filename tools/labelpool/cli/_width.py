"""How wide the text output may be: ``$COLUMNS``, else the terminal's width, else 80."""

from __future__ import annotations

import os
import shutil

DEFAULT = 80


def output_width(wide: bool = False) -> int | None:
    """The width text output fits in; None (no bound) with ``--wide``.

    ``$COLUMNS`` when it is a positive integer, else the width of the terminal on stdout, else
    :data:`DEFAULT` (output to a file or a pipe).
    """
    if wide:
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return shutil.get_terminal_size((DEFAULT, 24)).columns or DEFAULT
