"""A label file seen by the rules: its plain data, every node's position, its plain scalars.

Built from libyaml because the rules need, per file and fast, what the round-trip loader
gives only slowly: the source position of every node (schema errors are mapped back to them)
and each scalar's style (plain or quoted). :func:`scan` reads the events once for the
safety guard and the view together (``yamlfile.scan``): data, plain scalars and the positions
of the top-level keys; the node tree behind :meth:`View.pos` is composed (PyYAML's C
composer) only when a rule asks for a deeper position, i.e. only for a file with a problem.
:func:`compose` builds the same view from bytes the guard has already accepted.
Plain scalars are resolved by the one reading of every command (``yamlfile.read_text``);
the ambiguous ones, which every command refuses, are listed for LP021 (``plain``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from labelpool.findings import Finding
from labelpool.yamlfile import read_text, text_findings
from labelpool.yamlfile.nodes import (
    CANONICAL,
    KeyPath,
    Node,
    ViewError,
    build,
    compose_root,
    is_plain_scalar,
    node_at,
    reaches,
)

__all__ = ["CANONICAL", "KeyPath", "View", "ViewError", "compose", "locate", "scan"]


@dataclass
class View:
    """``plain``: (keypath, node or event) of each ambiguous plain scalar (keys end in
    ``"<key>"``): the ones YAML readers read differently and every command refuses (LP021);
    both carry ``value`` and ``start_mark``.
    ``top``: top-level key -> [start mark of the key, of its value] (from :func:`scan`;
    other positions come from the node tree, composed on first use)."""

    data: Any
    plain: list[tuple[KeyPath, Any]] = field(default_factory=list)
    raw: bytes | None = None
    top: dict[str, list[Any]] = field(default_factory=dict)
    composed: Node | None = None

    @property
    def root(self) -> Node:
        """The node tree (composed on first use when the view came from :func:`scan`)."""
        if self.composed is None:
            if self.raw is None:
                raise ViewError(1, 1, "no YAML to compose")
            self.composed = compose_root(self.raw)
        return self.composed

    def node(self, keypath: KeyPath, *, key: bool = False) -> Node:
        """The deepest node on ``keypath`` (the key's node itself when ``key``)."""
        return node_at(self.root, keypath, key=key)

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
        return is_plain_scalar(self.node(keypath)) and reaches(self.root, keypath)

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


def scan(raw: bytes, *, max_bytes: int, max_depth: int) -> tuple[list[Finding], View | None]:
    """The safety guard's findings on ``raw`` (path left empty) and, when none of them is an
    error, its view: the one reading of every command (``yamlfile.read_text``), whose
    ambiguous plain scalars become ``plain`` (LP021). ``ViewError`` when a mapping key is not
    a scalar."""
    found, text = text_findings(Path(""), raw, max_bytes)
    if any(f.severity == "error" for f in found) or text is None:
        return found, None
    reading = read_text(str(Path("")), text, max_depth)
    found = sorted(found + reading.findings) if found else reading.findings
    if any(f.severity == "error" for f in found):
        return found, None
    if reading.complex_key is not None:
        mark = reading.complex_key
        raise ViewError(mark.line + 1, mark.column + 1, "a mapping key must be a scalar")
    top = reading.top if reading.top is not None else _top_marks(text)
    return found, View(data=reading.data, plain=reading.ambiguous, raw=raw, top=top)


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
    root = compose_root(raw)
    plain: list[tuple[KeyPath, Any]] = []
    data = build(root, (), plain)
    return View(data=data, plain=plain, raw=raw, composed=root)


def locate(raw: bytes, keypath: KeyPath) -> tuple[int, int]:
    """Position of ``keypath`` in the YAML bytes ``raw`` (1, 1 when they cannot be read)."""
    try:
        return compose(raw).pos(keypath)
    except ViewError:
        return 1, 1
