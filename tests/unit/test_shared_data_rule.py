"""The rule of ``tests/conftest.py`` for ../shared/data, held over the test suite's sources.

A clone with no ``../shared`` beside it (every user's clone) must collect and run the suite:
a test reads the real data only through the conftest fixtures that skip when it is absent
(``SHARED_FIXTURES``), so none reads it at import or collection time, calls ``need`` itself or
skips for data on its own (any of which would leave it unmarked ``shared_data``, outside what
``.ci/run`` runs in a copy with no ``../shared``). The one exception is
``test_trec_eval_golden.py``'s parametrisation, which lists the golden files at collection
time and names one case ``absent`` when they are not there.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
# conftest's names for ../shared/data; a module importing one reads it on its own
SHARED_NAMES = {"SHARED_DATA", "CAST", "PEPS", "VASWANI", "TREC_EVAL_GOLDEN", "need"}
ALLOWED = {("cli/test_trec_eval_golden.py", "TREC_EVAL_GOLDEN")}


def _own_reads(path: Path) -> list[str]:
    """What ``path`` does with ../shared/data outside the fixtures: conftest names it imports,
    ``skip_unless(..., "data")`` calls."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module in ("conftest", "tests.conftest"):
            found += [a.name for a in node.names if a.name in SHARED_NAMES]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "skip_unless":
            kinds = [*node.args[2:], *(k.value for k in node.keywords if k.arg == "kind")]
            found += [
                "skip_unless(kind='data')"
                for k in kinds
                if not (isinstance(k, ast.Constant) and k.value == "os")
            ]
    return found


def test_no_test_module_reads_shared_data_on_its_own() -> None:
    found = [
        (path.relative_to(TESTS).as_posix(), what)
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "conftest.py"
        for what in _own_reads(path)
    ]
    assert [f for f in found if f not in ALLOWED] == []
