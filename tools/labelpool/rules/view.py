"""A label file seen by the rules: its plain data, every node's position, its plain scalars.

Built from libyaml because the rules need, per file and fast, what the round-trip loader
gives only slowly: the source position of every node (schema errors are mapped back to them)
and each scalar's style (plain or quoted). :func:`scan` reads the events once for the
safety guard and the view together (``yamlio.scan``): data, plain scalars and the positions
of the top-level keys; the node tree behind :meth:`View.pos` is composed (PyYAML's C
composer) only when a rule asks for a deeper position, i.e. only for a file with a problem.
:func:`compose` builds the same view from bytes the guard has already accepted.
Plain scalars are resolved as YAML 1.2 core would; the ambiguous ones are reported by LP021
anyway, so a valid file reads the same here as through ``yamlio``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from labelpool import yamlio
from labelpool.findings import Finding

try:
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    CParser = None

KeyPath = tuple[str | int, ...]

_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
         "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
# Plain scalars that mean the same in YAML 1.1 and 1.2 and are the only non-strings a label
# needs (`k: 20`, `verdict: 2`, `k: null`): a schema type error on one of them says "quote it".
CANONICAL = re.compile(r"(-?(0|[1-9][0-9]*)|null|~|)\Z")


# Plain scalars any YAML 1.1 or 1.2 resolver might read as a non-string start like this
# (numbers, dates, sexagesimals, .inf/.nan, ~, =, <<, !, &, *, y/n, yes/no, on/off, true/false,
# null);
# every other plain scalar is a string and skips the resolver checks.
_SUSPECT = re.compile(r"[-+.0-9~=<!&*]|(?:[yYnN]|[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|[tT]rue"
                      r"|TRUE|[fF]alse|FALSE|[nN]ull|NULL)\Z|\Z")


class ViewError(Exception):
    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message)
        self.line, self.col, self.message = line, col, message


def _plain_value(text: str) -> Any:
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


@dataclass
class View:
    """``plain``: (keypath, node or event) of each plain scalar ``_SUSPECT`` matched (keys
    end in ``"<key>"``), except values such as ``20`` and ``null`` that read the same in
    YAML 1.1 and 1.2 (no rule reports them); both carry ``value`` and ``start_mark``.
    ``top``: top-level key -> [start mark of the key, of its value] (from :func:`scan`;
    other positions come from the node tree, composed on first use)."""

    data: Any
    plain: list[tuple[KeyPath, Any]] = field(default_factory=list)
    raw: bytes | None = None
    top: dict[str, list[Any]] = field(default_factory=dict)
    composed: yaml.Node | None = None

    @property
    def root(self) -> yaml.Node:
        """The node tree (composed on first use when the view came from :func:`scan`)."""
        if self.composed is None:
            if self.raw is None:
                raise ViewError(1, 1, "no YAML to compose")
            self.composed = _compose_root(self.raw)
        return self.composed

    def node(self, keypath: KeyPath, *, key: bool = False) -> yaml.Node:
        """The deepest node on ``keypath`` (the key's node itself when ``key``)."""
        node = self.root
        for i, step in enumerate(keypath):
            last = i == len(keypath) - 1
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(step):
                        node = k if (key and last) else v
                        break
                else:
                    return node
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
                if 0 <= step < len(node.value):
                    node = node.value[step]
                else:
                    return node
            else:
                return node
        return node

    def pos(self, keypath: KeyPath, *, key: bool = False) -> tuple[int, int]:
        """1-based (line, col) of the node on ``keypath`` (or of its deepest existing parent)."""
        if len(keypath) == 1 and self.top:
            entry = self.top.get(str(keypath[0]))
            mark = entry[0 if key else 1] if entry is not None else None
            if mark is not None:
                return mark.line + 1, mark.column + 1
        mark = self.node(keypath, key=key).start_mark
        return mark.line + 1, mark.column + 1

    def is_plain(self, keypath: KeyPath) -> bool:
        node = self.node(keypath)
        return isinstance(node, yaml.ScalarNode) and not node.style and _reaches(
            self.root, keypath
        )

    def items(self, keypath: KeyPath) -> Iterator[tuple[int, Any]]:
        """(index, value) of each item of the list at ``keypath`` (nothing if not a list)."""
        value = self.get(keypath)
        if isinstance(value, list):
            yield from enumerate(value)

    def get(self, keypath: KeyPath) -> Any:
        value = self.data
        for step in keypath:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                return None
        return value


def _reaches(root: yaml.Node, keypath: KeyPath) -> bool:
    node = root
    for step in keypath:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(step):
                    node = v
                    break
            else:
                return False
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            if not 0 <= step < len(node.value):
                return False
            node = node.value[step]
        else:
            return False
    return True


class _Composer(CParser or object):  # type: ignore[misc]
    """libyaml's composer without PyYAML's tag resolver (``_build`` resolves plain scalars)."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        return ""

    def descend_resolver(self, parent: Any, index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


def scan(raw: bytes, *, max_bytes: int, max_depth: int) -> tuple[list[Finding], View | None]:
    """The safety guard's findings on ``raw`` (path left empty) and, when none of them is an
    error, its view, from one pass: the block style labelpool writes is read line by line
    (``yamlio.read_canonical``), anything else in one pass over the libyaml events.
    ``ViewError`` when a mapping key is not a scalar."""
    found, text = yamlio.text_findings(Path(""), raw, max_bytes)
    if any(f.severity == "error" for f in found) or text is None:
        return found, None
    data = yamlio.read_canonical(text, max_depth, suspect=_SUSPECT.match, plain=_canonical_plain)
    if data is not yamlio.ODD:
        return found, View(data=data, raw=raw, top=_top_marks(text))
    plain: list[tuple[KeyPath, Any]] = []

    def on_plain(event: Any, keypath: KeyPath, is_key: bool) -> Any:
        value = event.value
        if is_key:
            plain.append((keypath, event))
            return value
        if not CANONICAL.match(value):  # `20`, `null`: the same in YAML 1.1 and 1.2
            plain.append((keypath, event))
        return _plain_value(value)

    result = yamlio.scan_events(
        str(Path("")), text, max_depth, suspect=_SUSPECT.match, on_plain=on_plain, paths=True
    )
    found = sorted(found + result.findings) if found else result.findings
    if any(f.severity == "error" for f in found):
        return found, None
    if result.complex_key is not None:
        mark = result.complex_key
        raise ViewError(mark.line + 1, mark.column + 1, "a mapping key must be a scalar")
    return found, View(data=result.data, plain=plain, raw=raw, top=result.top)


def _canonical_plain(text: str, is_key: bool) -> Any:
    """Plain scalars of a file read line by line: strings, and the values that read the same
    in YAML 1.1 and 1.2 and that no rule reports (``k: 20``, ``k: null``); any other is left
    to the event pass, which records it for LP021."""
    if not _SUSPECT.match(text):
        return text
    if is_key or not CANONICAL.match(text):
        raise yamlio.NotCanonical
    return _plain_value(text)


class _Mark(NamedTuple):
    line: int  # 0-based, as libyaml's marks
    column: int


def _top_marks(text: str) -> dict[str, list[Any]]:
    """[key mark, value mark] of the top-level ``id: value`` line of a file in labelpool's
    block style (every file's finding needs it; other positions are found by composing the
    tree, only when a rule reports one)."""
    at = 0 if text.startswith("id:") else text.find("\nid:") + 1
    if at == 0 and not text.startswith("id:"):
        return {}
    value = at + 3
    while text.startswith(" ", value):
        value += 1
    if value == at + 3 or text[value : value + 1] in ("", "\n", "#"):
        return {}  # not `id: value` on one line: left to the tree
    line = text.count("\n", 0, at)
    return {"id": [_Mark(line, 0), _Mark(line, value - at)]}


def compose(raw: bytes) -> View:
    """The view of one YAML document; ``ViewError`` (with a position) when it cannot be read."""
    root = _compose_root(raw)
    plain: list[tuple[KeyPath, Any]] = []
    data = _build(root, (), plain)
    return View(data=data, plain=plain, raw=raw, composed=root)


def _compose_root(raw: bytes) -> yaml.Node:
    if CParser is None:  # pragma: no cover - pure-Python fallback
        return _compose_slow(raw)
    parser = _Composer(raw)
    try:
        root = parser.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ViewError(line, col, f"cannot read YAML: {exc.problem or exc}") from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise ViewError(1, 1, f"cannot read YAML: {exc}") from None
    finally:
        parser.dispose()
    if root is None:
        raise ViewError(1, 1, "empty file: a label is a mapping with an `id`")
    return root


_Scalar, _Sequence, _Mapping = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode


def _build(node: yaml.Node, path: KeyPath, plain: list[tuple[KeyPath, Any]]) -> Any:
    kind = type(node)
    if kind is _Scalar:
        value = node.value
        if not node.style and _SUSPECT.match(value):
            if not CANONICAL.match(value):  # `20`, `null`: the same in YAML 1.1 and 1.2
                plain.append((path, node))
            return _plain_value(value)
        return value
    if kind is _Sequence:
        items = node.value
        out_list: list[Any] = []
        for i, sub in enumerate(items):
            if type(sub) is _Scalar and (sub.style or not _SUSPECT.match(sub.value)):
                out_list.append(sub.value)  # the common case: a quoted or plain string
            else:
                out_list.append(_build(sub, (*path, i), plain))
        return out_list
    if kind is _Mapping:
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            if type(knode) is not _Scalar:
                mark = knode.start_mark
                raise ViewError(mark.line + 1, mark.column + 1, "a mapping key must be a scalar")
            key = knode.value
            if not knode.style and _SUSPECT.match(key):
                plain.append(((*path, key, "<key>"), knode))
            out[key] = _build(vnode, (*path, key), plain)
        return out
    raise ViewError(1, 1, f"unexpected node {node!r}")  # pragma: no cover


def _compose_slow(raw: bytes) -> yaml.Node:  # pragma: no cover - PyYAML without libyaml
    try:
        root = yaml.compose(raw, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ViewError(line, col, f"cannot read YAML: {exc.problem or exc}") from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise ViewError(1, 1, f"cannot read YAML: {exc}") from None
    if root is None:
        raise ViewError(1, 1, "empty file: a label is a mapping with an `id`")
    return root


def locate(raw: bytes, keypath: KeyPath) -> tuple[int, int]:
    """Position of ``keypath`` in the YAML bytes ``raw`` (1, 1 when they cannot be read)."""
    try:
        return compose(raw).pos(keypath)
    except ViewError:
        return 1, 1
