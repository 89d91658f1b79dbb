"""One error root: every exception class that can leave its module is a ``LabelpoolError``.

The test imports every module of the package and walks the classes each one defines. A public
exception class (a name without a leading underscore) must descend from ``LabelpoolError``, so
that the CLI's one handler prints it with its exit code; a private one (``_Name``), used for
control flow inside its module, must not be named by any other module of the package.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import labelpool
from labelpool.errors import LabelpoolError

PACKAGE = Path(labelpool.__file__).resolve().parent


def _modules() -> list[str]:
    names = ["labelpool"]
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="labelpool."):
        if not info.name.endswith(".__main__"):  # importing it runs the command line
            names.append(info.name)
    return sorted(names)


def _exceptions() -> list[tuple[str, type[BaseException]]]:
    found = []
    for name in _modules():
        module = importlib.import_module(name)
        for _attr, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__ == module.__name__
            ):
                found.append((name, obj))
    return found


def test_the_walk_sees_the_whole_package() -> None:
    modules = _modules()
    assert "labelpool.workflows.merge.commits" in modules
    assert "labelpool.report.build" in modules  # the optional [report] extra is installed here
    classes = {cls.__name__ for _m, cls in _exceptions()}
    assert {"ConfigError", "GitError", "YamlError", "RunError", "MergeError"} <= classes


def test_every_public_exception_is_a_labelpool_error() -> None:
    outside = [
        f"{module}.{cls.__name__}"
        for module, cls in _exceptions()
        if not cls.__name__.startswith("_") and not issubclass(cls, LabelpoolError)
    ]
    assert outside == [], f"public exceptions outside LabelpoolError: {outside}"


def test_private_exceptions_stay_in_their_module() -> None:
    sources = {p: p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")}
    leaks = []
    for module, cls in _exceptions():
        if not cls.__name__.startswith("_"):
            continue
        home = Path(inspect.getfile(cls)).resolve()
        word = re.compile(rf"\b{re.escape(cls.__name__)}\b")
        leaks += [
            f"{cls.__name__} ({module}) in {p}"
            for p, t in sources.items()
            if p != home and word.search(t)
        ]
    assert leaks == []
