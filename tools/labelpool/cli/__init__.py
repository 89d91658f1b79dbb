"""The ``labelpool`` command line: parsing and printing only.

Each command lives in its own module of this package and registers itself on :data:`app`;
the logic it calls lives in modules a test can import (``labelpool.workflows`` and friends).
Errors are printed by the one handler (:mod:`labelpool.cli._handler`); heavy modules (numpy,
pyarrow, jsonschema, rich) are reached through :mod:`labelpool.cli._lazy` only, so that
``labelpool --help`` and small jobs start fast.
"""

from __future__ import annotations

import atexit
import gc
import sys

# One module per command; importing it registers its command(s) on ``app``.
from labelpool.cli import (  # noqa: F401
    add,
    agreement,
    bias,
    check,
    classes,
    compare,
    diff,
    export,
    fmt,
    history,
    importing,
    init,
    initmachine,
    judge,
    merge,
    pool,
    poolinfo,
    report,
    score,
    todo,
    validate,
    version,
)
from labelpool.cli._common import app


class _NoPandas:
    """A finder that refuses to import pandas, as if it were not installed (pyarrow then
    takes no argument for a DataFrame, as it does without pandas)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: run the app and return its exit code.

    Run as the program (``argv`` from the command line), the process ends right after: what
    is left (a label set is a million objects) is frozen out of the interpreter's final
    garbage collection, which took about 0.2 s of a cold ``score`` of 10,000 questions.
    pandas is kept out of the process: labelpool never uses it, but ``pyarrow.array()`` and
    ``pyarrow.table()`` import it (to ask whether their argument is a DataFrame) when it is
    installed, 0.15 s of every command that reads labels through the index.
    """
    if argv is None:
        atexit.register(gc.freeze)
        sys.meta_path.insert(0, _NoPandas())
    try:
        app(args=argv, prog_name="labelpool", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
