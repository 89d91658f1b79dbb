"""Quoting: when a string cannot be written as a plain scalar that every reader (YAML 1.1 and
1.2, PyYAML and ruamel) takes as this string, and the ruamel scalar that writes it safely."""

from __future__ import annotations

import re
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, cast

from ruamel.yaml.emitter import Emitter
from ruamel.yaml.nodes import ScalarNode as RuamelScalarNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from labelpool.yamlfile.fast import STR_TAG, pyyaml_resolves_to_str
from labelpool.yamlfile.textcheck import ESCAPE_RE


class _Analyzer(Emitter):
    """Only ``analyze_scalar`` is used: no stream, no state."""

    def __init__(self, version: tuple[int, int]) -> None:
        self._version = SimpleNamespace(use_version=version)
        self.allow_unicode: Any = True
        self.unicode_supplementary: Any = True
        self.allow_space_break: Any = False

    @property
    def serializer(self) -> Any:
        return self._version


_ANALYZERS = (_Analyzer((1, 1)), _Analyzer((1, 2)))


_RUAMEL_RESOLVERS = (VersionedResolver(version=(1, 1)), VersionedResolver(version=(1, 2)))


def _ruamel_reads_as_str(s: str) -> bool:
    """Whether ruamel's YAML 1.1 and 1.2 resolvers both read the plain scalar ``s`` as a string."""
    return all(
        str(r.resolve(RuamelScalarNode, s, (True, False))) == STR_TAG for r in _RUAMEL_RESOLVERS
    )


# A letter, then letters, digits and ``_./#+@=~-``: no YAML 1.1 or 1.2 resolver reads such a
# plain scalar as anything but a string (numbers, timestamps and ``.inf`` start otherwise, ``=``
# and ``<<`` are whole values) unless it is one of the words below (any case: conservative), and
# it holds no indicator that would stop it being plain; held to the full check by a property
# test (tests/unit/yamlfile/test_quoting_fast.py).
_SURELY_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./#+@=~-]*\Z")
_WORDS = frozenset({"y", "yes", "n", "no", "true", "false", "on", "off", "null"})


def surely_plain(s: str) -> bool:
    """A quick yes for most ids: ``s`` is a plain string for every reader, in block and flow
    context (False: ask :func:`needs_quotes`)."""
    return _SURELY_PLAIN.match(s) is not None and s.lower() not in _WORDS


def needs_quotes(s: str, flow: bool = False) -> bool:
    """True when ``s`` cannot be written as a plain scalar that every reader takes as this string.

    That is: a YAML 1.1 or 1.2 resolver would read it as something else (int, float, bool,
    null, timestamp, merge or value key), or it is not a plain scalar at all (leading
    indicator, ``: ``, `` #``, surrounding spaces, line breaks, empty). With ``flow`` (a value
    inside ``{...}`` or ``[...]``) flow indicators (``,[]{}``, YAML 1.1's ``?``) count too.
    """
    if surely_plain(s):
        return False
    return _needs_quotes(s, flow)


@lru_cache(maxsize=65536)
def _needs_quotes(s: str, flow: bool) -> bool:
    """:func:`needs_quotes` in full (resolvers and the emitter's analysis)."""
    if s == "":
        return True
    if not pyyaml_resolves_to_str(s) or not _ruamel_reads_as_str(s):
        return True
    for analyzer in _ANALYZERS:
        analysis = analyzer.analyze_scalar(s)
        plain = analysis.allow_block_plain and (analysis.allow_flow_plain or not flow)
        if not plain or analysis.multiline:
            return True
    return False


_KEPT_STYLES = (
    SingleQuotedScalarString,
    DoubleQuotedScalarString,
    LiteralScalarString,
    FoldedScalarString,
)


_PLAIN_ID = re.compile(r"^[A-Za-z0-9_./][A-Za-z0-9_./#+@=~-]*$")


def id_text(value: str) -> str:
    """``value`` written as text: plain where that reads back as itself in block and flow
    context (YAML 1.1 and 1.2), else single-quoted (pool's batches, proposed classes)."""
    if _PLAIN_ID.match(value) and not needs_quotes(value):
        return value
    return "'" + value.replace("'", "''") + "'"


def scalar(s: str, flow: bool = False) -> str:
    """``s`` as a ruamel scalar for a label file: single-quoted when plain would be misread.

    Pass ``flow=True`` for a value inside a flow mapping (``- {doc: ID, verdict: null}``).
    """
    if isinstance(s, _KEPT_STYLES):  # quoted or block scalars are strings for every reader
        return cast(str, s)
    s = str(s)
    if ESCAPE_RE.search(s):
        # written with escapes: the guard refuses raw ones
        return cast(str, DoubleQuotedScalarString(s))
    return cast(str, SingleQuotedScalarString(s)) if needs_quotes(s, flow) else s


@lru_cache(maxsize=65536)
def misread(text: str) -> bool:
    """True when a YAML 1.1 or 1.2 resolver reads the plain scalar ``text`` as a non-string.

    :func:`needs_quotes` also flags strings that cannot be written plain in every context
    (``a, b`` in a flow list); a plain scalar that was read from a file is only misread when
    a resolver gives it another type.
    """
    if not needs_quotes(text):
        return False
    return not pyyaml_resolves_to_str(text) or not _ruamel_reads_as_str(text)
