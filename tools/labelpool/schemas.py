"""Find and read the JSON Schemas: the repository's ``schema/`` folder, else the packaged copy."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

PACKAGE_DATA = Path(__file__).resolve().parent / "data"
LABEL = "label.schema.json"
VERSIONS = "versions.schema.json"
MACHINE_JUDGE = "machine-judge.schema.json"  # judges/NAME.yaml (labelpool.machine.definition)


def schema_path(name: str, root: Path | None = None) -> Path:
    """``<root>/schema/<name>`` when the repository has one, else the packaged copy."""
    if root is not None:
        local = root / "schema" / name
        if local.is_file():
            return local
    return PACKAGE_DATA / name


@lru_cache(maxsize=8)
def _read(path: Path) -> tuple[str, str]:
    text = path.read_text(encoding="utf-8")
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(name: str, root: Path | None = None) -> dict[str, Any]:
    """The parsed schema ``name`` (see :func:`schema_path`)."""
    schema: dict[str, Any] = json.loads(_read(schema_path(name, root))[0])
    return schema


def digest(name: str, root: Path | None = None) -> str:
    """sha256 of the schema's text (a cache key)."""
    return _read(schema_path(name, root))[1]
