"""A YAML document as a node tree with positions (libyaml's composer), read as YAML 1.2 core.

For code that must point at a node's line and column and know each scalar's style (plain or
quoted) without a round-trip load: the rules' view of a label file. The tree is composed by
PyYAML's C composer with no tag resolution; plain scalars are resolved here as the one
reading resolves them (:mod:`.reading`), an ambiguous one as YAML 1.2 core would.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml._yaml import CParser

from labelpool.errors import InputError
from labelpool.yamlfile.errors import mark_position
from labelpool.yamlfile.reading import CANONICAL, SUSPECT, core_value, is_ambiguous, value_of

__all__ = [
    "CANONICAL",
    "SUSPECT",
    "KeyPath",
    "Node",
    "ViewError",
    "build",
    "compose_root",
    "is_plain_scalar",
    "node_at",
    "plain_value",
    "reaches",
]

Node = yaml.Node
KeyPath = tuple[str | int, ...]


class ViewError(InputError):
    """A document that cannot be composed or viewed; ``line``, ``col`` (``column``) say where."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message, line=line, column=col)
        self.line: int = line
        self.col = col


plain_value = core_value  # a plain scalar as YAML 1.2 core reads it


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
    """The plain data of a tree as the one reading gives it (:mod:`.reading`); each ambiguous
    plain scalar (keys end in ``"<key>"``) goes to ``plain`` with its node and holds what
    YAML 1.2 core makes of it."""
    kind = type(node)
    if kind is _Scalar:
        value = node.value
        if not node.style and SUSPECT.match(value):
            if is_ambiguous(value):
                plain.append((path, node))
                return core_value(value)
            return value_of(value)
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
            if not knode.style and is_ambiguous(key, True):
                plain.append(((*path, key, "<key>"), knode))
            out[key] = build(vnode, (*path, key), plain)
        return out
    raise ViewError(1, 1, f"unexpected node {node!r}")  # pragma: no cover
