"""PyYAML's C safe loader (YAML 1.1) and how it resolves a plain scalar: the reference the
line reader is held to (``read_canonical``'s default resolution), never a command's reading
(every command reads through :mod:`labelpool.yamlfile.reading`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from labelpool.yamlfile.errors import YamlError, mark_position

KeyPath = tuple[Any, ...]
# on_plain(event, keypath, is_key) -> the value of a plain scalar that ``suspect`` matched
PlainHook = Callable[[Any, KeyPath, bool], Any]
# plain(text, is_key) -> the value of a plain scalar for ``read_canonical`` (raise
# ``NotCanonical`` to leave the file to the event pass)
PlainText = Callable[[str, bool], Any]


class _Marker:
    """A sentinel: a mapping key that is a collection, or a scalar left to a full loader."""


ODD: Any = _Marker()  # what an ``on_plain`` hook returns for a scalar it cannot resolve

# First characters of the plain scalars PyYAML's resolver may read as a non-string (its
# implicit resolvers are keyed by first character; the empty scalar is null).
suspect_11 = re.compile(r"[-+.0-9yYnNtTfFoO~<=]|\Z").match
STR_TAG = "tag:yaml.org,2002:str"
_SIMPLE_TAGS = frozenset(
    "tag:yaml.org,2002:" + t for t in ("int", "float", "bool", "null", "timestamp")
)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _timestamp_or_error(loader: yaml.CSafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError as exc:
        raise yaml.constructor.ConstructorError(
            None, None, f"invalid date {node.value!r}: {exc}", node.start_mark
        ) from None


class _FastLoader(yaml.CSafeLoader):
    """PyYAML's C safe loader whose impossible dates (``2026-02-30``) carry a position."""


_FastLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_error)


@lru_cache(maxsize=8192)
def resolve_11(value: str) -> Any:
    """What PyYAML's safe loader makes of the plain scalar ``value`` (:data:`ODD`: ask it)."""
    tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    if tag == STR_TAG:
        return value
    if tag not in _SIMPLE_TAGS:
        return ODD  # a merge key or `=`: pyyaml_loads gives the error
    node = yaml.ScalarNode(tag, value)
    try:
        return _FastLoader.yaml_constructors[tag](_CONSTRUCTOR, node)
    except (yaml.YAMLError, ValueError):  # an impossible date: pyyaml_loads says where
        return ODD


def plain_11(event: Any, keypath: KeyPath, is_key: bool) -> Any:
    """An ``on_plain`` hook reading a plain scalar event as PyYAML's safe loader does."""
    return resolve_11(event.value)


def pyyaml_resolves_to_str(text: str) -> bool:
    """Whether PyYAML's (YAML 1.1) resolver reads the plain scalar ``text`` as a string."""
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return bool(tag == STR_TAG)


def pyyaml_loads(text: str, path: Path | str = "<string>") -> Any:
    """PyYAML's C safe loader (YAML 1.1) on already guarded text; raises :class:`YamlError`.

    The reference the property tests hold the readers to; no command reads with it."""
    try:
        return yaml.load(text, Loader=_FastLoader)
    except yaml.MarkedYAMLError as exc:
        line, col = mark_position(exc)
        raise YamlError(str(path), line, col, "LP015", str(exc.problem or exc)) from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise YamlError(str(path), 1, 1, "LP015", f"invalid YAML: {exc}") from None
