"""What every report shows alike: the named fields of a frozen dataclass, in the order given
(result objects into JSON), and the note after the labels' commit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def pick(obj: object, names: Iterable[str]) -> dict[str, Any]:
    """``{name: obj.name}`` for each of ``names`` (the JSON key is the field's name)."""
    return {name: getattr(obj, name) for name in names}


def dirty_note(labels_dirty: bool | None) -> str:
    """`` (dirty)`` after the labels' commit when the work tree differs from it (``score``'s
    and ``compare``'s headers)."""
    return " (dirty)" if labels_dirty else ""
