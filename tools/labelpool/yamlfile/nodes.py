"""A YAML document as a node tree with positions (libyaml's composer), read as YAML 1.2 core.

For code that must point at a node's line and column and know each scalar's style (plain or
quoted) without a round-trip load: the rules' view of a label file. The tree is composed by
PyYAML's C composer with no tag resolution; plain scalars are resolved here as YAML 1.2 core
would (:func:`plain_value`).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml._yaml import CParser

from labelpool.errors import InputError
from labelpool.yamlfile.errors import mark_position

Node = yaml.Node
KeyPath = tuple[str | int, ...]

_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
# Plain scalars that mean the same in YAML 1.1 and 1.2 and are the only non-strings a label
# needs (`k: 20`, `verdict: 2`, `k: null`): a schema type error on one of them says "quote it".
CANONICAL = re.compile(r"(-?(0|[1-9][0-9]*)|null|~|)\Z")
# Plain scalars any YAML 1.1 or 1.2 resolver might read as a non-string start like this
# (numbers, dates, sexagesimals, .inf/.nan, ~, =, <<, !, &, *, y/n, yes/no, on/off, true/false,
# null); every other plain scalar is a string and skips the resolver checks.
SUSPECT = re.compile(
    r"[-+.0-9~=<!&*]|(?:[yYnN]|[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|[tT]rue"
    r"|TRUE|[fF]alse|FALSE|[nN]ull|NULL)\Z|\Z"
)


class ViewError(InputError):
    """A document that cannot be composed or viewed; ``line``, ``col`` (``column``) say where."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message, line=line, column=col)
        self.line: int = line
        self.col = col


def plain_value(text: str) -> Any:
    """The value of a plain scalar as YAML 1.2 core reads it (null, bool, int, float, str)."""
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


class _Composer(CParser):
    """libyaml's composer without PyYAML's tag resolver (plain scalars are resolved later)."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        return ""

    def descend_resolver(self, parent: Any, index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


def compose_root(raw: bytes) -> Node:
    """The node tree of one YAML document; :class:`ViewError` (with a position) when it
    cannot be read or is empty."""
    parser = _Composer(raw)
    try:
        root = parser.get_single_node()
    except yaml.MarkedYAMLError as exc:
        line, col = mark_position(exc)
        raise ViewError(line, col, f"cannot read YAML: {exc.problem or exc}") from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise ViewError(1, 1, f"cannot read YAML: {exc}") from None
    finally:
        parser.dispose()
    if root is None:
        raise ViewError(1, 1, "empty file: a label is a mapping with an `id`")
    return root


def _child(node: Node, step: str | int, *, key: bool = False) -> Node | None:
    """The node under ``node`` at ``step`` (a mapping key's node itself with ``key``)."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == str(step):
                return k if key else v
        return None
    if (
        isinstance(node, yaml.SequenceNode)
        and isinstance(step, int)
        and 0 <= step < len(node.value)
    ):
        return node.value[step]  # type: ignore[no-any-return]
    return None


def node_at(root: Node, keypath: KeyPath, *, key: bool = False) -> Node:
    """The deepest node on ``keypath`` (the last key's node itself when ``key``)."""
    node = root
    for i, step in enumerate(keypath):
        child = _child(node, step, key=key and i == len(keypath) - 1)
        if child is None:
            return node
        node = child
    return node


def reaches(root: Node, keypath: KeyPath) -> bool:
    """Whether every step of ``keypath`` exists in the tree."""
    node: Node | None = root
    for step in keypath:
        assert node is not None
        node = _child(node, step)
        if node is None:
            return False
    return True


def is_plain_scalar(node: Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and not node.style


_Scalar, _Sequence, _Mapping = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode


def build(node: Any, path: KeyPath, plain: list[tuple[KeyPath, Any]]) -> Any:
    """The plain data of a tree, plain scalars read as YAML 1.2 core; each plain scalar
    :data:`SUSPECT` matches (keys end in ``"<key>"``) goes to ``plain`` with its node, except
    values :data:`CANONICAL` matches (they read the same in YAML 1.1 and 1.2)."""
    kind = type(node)
    if kind is _Scalar:
        value = node.value
        if not node.style and SUSPECT.match(value):
            if not CANONICAL.match(value):  # `20`, `null`: the same in YAML 1.1 and 1.2
                plain.append((path, node))
            return plain_value(value)
        return value
    if kind is _Sequence:
        items = node.value
        out_list: list[Any] = []
        for i, sub in enumerate(items):
            if type(sub) is _Scalar and (sub.style or not SUSPECT.match(sub.value)):
                out_list.append(sub.value)  # the common case: a quoted or plain string
            else:
                out_list.append(build(sub, (*path, i), plain))
        return out_list
    if kind is _Mapping:
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            if type(knode) is not _Scalar:
                mark = knode.start_mark
                raise ViewError(mark.line + 1, mark.column + 1, "a mapping key must be a scalar")
            key = knode.value
            if not knode.style and SUSPECT.match(key):
                plain.append(((*path, key, "<key>"), knode))
            out[key] = build(vnode, (*path, key), plain)
        return out
    raise ViewError(1, 1, f"unexpected node {node!r}")  # pragma: no cover
