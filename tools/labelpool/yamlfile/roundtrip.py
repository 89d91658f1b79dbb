"""ruamel round-trip reading and writing: comments, quotes and layout kept.

An unedited canonical file comes back byte-identical (``width`` 4096, quotes preserved,
``indent(mapping=2, sequence=4, offset=2)``), a save that changes nothing writes nothing, and
every write is atomic. Every load uses a fresh ruamel instance (a ``%YAML`` directive would
stick to a shared one). :func:`node_position` gives a node's line and column for messages.

The editor is held to the one reading (:mod:`labelpool.yamlfile.reading`): a loaded tree
must hold exactly the plain data the one reading gives for the same text (else the file is
refused, as every command refuses it), and :func:`dumps` checks that the text it writes
reads back, through the one reading, as exactly the tree it wrote. Only ``labelpool fmt``,
which repairs ambiguous scalars, loads a file the one reading refuses (``repair=True``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.emitter import Emitter
from ruamel.yaml.error import MarkedYAMLError as RuamelMarkedError
from ruamel.yaml.error import YAMLError as RuamelYAMLError
from ruamel.yaml.scalarbool import ScalarBoolean

from labelpool import atomic
from labelpool.yamlfile import reading
from labelpool.yamlfile.errors import UnwritableError, YamlError, mark_position
from labelpool.yamlfile.guard import read_guarded
from labelpool.yamlfile.textcheck import BIDI_RE, MAX_BYTES, MAX_DEPTH


class _BlockEmitter(Emitter):
    """ruamel's emitter, writing a sequence nested in a sequence as ``- - a`` / ``  - b``.

    With ``indent(mapping=2, sequence=4, offset=2)`` stock ruamel writes ``-   - a``; the label
    format (``relevant_classes``) puts the inner dash right after the outer one.
    """

    def increase_indent(
        self, flow: bool = False, sequence: bool | None = None, indentless: bool = False
    ) -> None:
        values = self.indents.values
        nested = sequence and not flow and not indentless and bool(values) and values[-1][1]
        if nested and self.indent is not None:
            self.indents.append(self.indent, sequence)
            self.indent += 2
            return
        super().increase_indent(flow, sequence, indentless)

    def expect_block_sequence_item(self, first: bool = False) -> None:
        comment = self.event.comment
        if first and self.indents.seq_seq() and self.column != 0 and not (comment and comment[1]):
            self.write_indicator("-", True, indention=True)
            self.states.append(self.expect_block_sequence_item)
            self.expect_node(sequence=True)
            return
        super().expect_block_sequence_item(first)

    def write_double_quoted(self, text: Any, split: Any = True) -> None:
        if BIDI_RE.search(text):  # escape them (and all non-ASCII): never write them raw
            saved, self.allow_unicode = self.allow_unicode, False
            try:
                super().write_double_quoted(text, split)
            finally:
                self.allow_unicode = saved
            return
        super().write_double_quoted(text, split)


def _yaml() -> YAML:
    """A fresh round-trip instance (never shared: a ``%YAML`` directive would stick)."""
    y = YAML(typ="rt")
    y.Emitter = _BlockEmitter
    y.width = 4096
    y.preserve_quotes = True
    y.indent(mapping=2, sequence=4, offset=2)
    y.representer.add_representer(type(None), _represent_null)
    return y


def _represent_null(representer: Any, _data: None) -> Any:
    """``null`` written out (ruamel's round trip writes an empty value, ``k:``)."""
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


@dataclass(frozen=True)
class Document:
    """A label file read for editing: ``data`` is ruamel's round-trip tree of ``text``."""

    path: Path
    data: CommentedMap
    text: str


def loads_roundtrip(
    text: str, path: Path | str = "<string>", *, repair: bool = False, max_depth: int = MAX_DEPTH
) -> Any:
    """ruamel round-trip tree of already guarded ``text``; raises :class:`YamlError`.

    The tree holds exactly what the one reading gives for ``text``, else the error the one
    reading refuses the file with (LP021 at an ambiguous scalar); ``repair`` (``fmt`` only)
    skips the check."""
    expected = None if repair else reading.loads_text(text, path, max_depth=max_depth)
    try:
        tree = _yaml().load(text)
    except RuamelMarkedError as exc:
        line, col = mark_position(exc)
        raise YamlError(str(path), line, col, "LP015", str(exc.problem or exc)) from None
    except (RuamelYAMLError, ValueError, RecursionError) as exc:
        _raise_huge_integer(text, str(path))
        raise YamlError(str(path), 1, 1, "LP015", f"invalid YAML: {exc}") from None
    if not repair:
        _check_agrees(tree, expected, str(path))
    return tree


def _raise_huge_integer(text: str, path: str) -> None:
    """Raise the LP042 error of the first plain integer too long to convert, if any (ruamel
    gives ``fmt`` a ValueError without a position)."""
    found = reading.read_text(path, text)
    for keypath, event in found.ambiguous:
        if reading.is_huge_integer(event.value, keypath[-1:] == ("<key>",)):
            mark = event.start_mark
            f = reading.ambiguous_finding(
                keypath, event.value, mark.line + 1, mark.column + 1, path
            )
            raise YamlError.from_finding(f)


def to_plain(tree: Any) -> Any:
    """Plain Python data of a round-trip tree (ruamel's string, int, float and bool types
    turned into ``str``, ``int``, ``float``, ``bool``; mappings into dicts)."""
    if isinstance(tree, dict):
        return {to_plain(k): to_plain(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [to_plain(v) for v in tree]
    if isinstance(tree, str):
        return str(tree)
    if isinstance(tree, (ScalarBoolean, bool)):
        return bool(tree)
    if isinstance(tree, int):
        return int(tree)
    if isinstance(tree, float):
        return float(tree)
    return tree


def _check_agrees(tree: Any, expected: Any, path: str, written: str | None = None) -> None:
    """Refuse a tree whose plain data is not exactly ``expected`` (the one reading's)."""
    keypath = reading.first_difference(to_plain(tree), expected)
    if keypath is None:
        return
    if written is not None:  # the text is not on disk: no position in a file
        raise UnwritableError(
            path,
            reading.LP021,
            f"{reading.dotted(keypath)}: the round-trip editor writes this differently from "
            "every labelpool command",
        )
    line, col = node_position(tree, keypath)
    raise YamlError(
        path,
        line,
        col,
        reading.LP021,
        f"{reading.dotted(keypath)}: the round-trip editor reads this differently from "
        "every labelpool command; quote the scalar or run `labelpool fmt`",
    )


def load_roundtrip(
    path: Path, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH, repair: bool = False
) -> Document:
    """Guarded ruamel round-trip load of ``path``, held to the one reading (see
    :func:`loads_roundtrip`); raises :class:`YamlError`."""
    text = read_guarded(path, max_bytes, max_depth)
    data = loads_roundtrip(text, path, repair=repair, max_depth=max_depth)
    if not isinstance(data, CommentedMap):
        raise YamlError(str(path), 1, 1, "LP015", "the file is not a YAML mapping")
    return Document(path=path, data=data, text=text)


def dumps(data: Any, *, check: bool = True, path: Path | str = "<output>") -> str:
    """YAML text of a round-trip tree, in the label files' layout.

    With ``check`` (the default) the text must read back through the one reading as exactly
    ``data``: an editor that would write what some command reads otherwise, or refuses (an
    escaped control character), raises :class:`UnwritableError` instead (``path`` names the
    file it would become)."""
    out = io.StringIO()
    _yaml().dump(data, out)
    text = out.getvalue()
    if check:
        check_written(data, text, path)
    return text


def check_written(data: Any, text: str, path: Path | str = "<output>") -> None:
    """Raise :class:`UnwritableError` unless ``text`` reads back, through the one reading, as
    exactly the tree ``data`` it was written from."""
    _check_agrees(data, reading.loads_written(text, path), str(path), written=text)


def save(doc: Document, data: Any = None) -> bool:
    """Write ``data`` (default ``doc.data``) to ``doc.path``; False (and no write) if unchanged."""
    tree = doc.data if data is None else data
    text = dumps(tree, check=False)
    if text == doc.text:
        return False
    if doc.path.is_symlink():
        raise YamlError(str(doc.path), 1, 1, "LP037", "symlink; not replaced by a file")
    check_written(tree, text, doc.path)
    try:
        if doc.path.read_bytes() == text.encode("utf-8"):
            return False
    except OSError:
        pass
    atomic.write_text(doc.path, text)
    return True


def node_position(data: Any, keypath: tuple[str | int, ...]) -> tuple[int, int]:
    """1-based (line, col) of the node at ``keypath``, else of its nearest existing ancestor.

    A scalar value is located at the value; a mapping or sequence value at its key.
    """
    lc = getattr(data, "lc", None)
    best = (lc.line + 1, lc.col + 1) if lc is not None and lc.line is not None else (1, 1)
    node = data
    for step in keypath:
        try:
            if isinstance(node, CommentedMap) and step in node:
                value = node[step]
                if isinstance(value, (CommentedMap, CommentedSeq)):
                    line, col = node.lc.key(step)
                else:
                    line, col = node.lc.value(step)
            elif isinstance(node, CommentedSeq) and isinstance(step, int):
                if not -len(node) <= step < len(node):
                    break
                step = step % len(node)
                value = node[step]
                line, col = node.lc.item(step)
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
        best = (line + 1, col + 1)
        node = value
    return best
