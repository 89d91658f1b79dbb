"""``labelpool.cli._lazy``: every name it exports is a module it can import."""

from __future__ import annotations

import types

from labelpool.cli import _lazy


def test_every_exported_name_has_a_module() -> None:
    assert sorted(_lazy.__all__) == sorted(_lazy._MODULES)


def test_every_exported_name_imports() -> None:
    for name in _lazy.__all__:
        module = getattr(_lazy, name)
        assert isinstance(module, types.ModuleType), name
        assert module.__name__ == _lazy._MODULES[name], name
