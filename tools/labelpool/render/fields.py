"""Result objects into JSON: the named fields of a frozen dataclass, in the order given."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def pick(obj: object, names: Iterable[str]) -> dict[str, Any]:
    """``{name: obj.name}`` for each of ``names`` (the JSON key is the field's name)."""
    return {name: getattr(obj, name) for name in names}
