"""LP021: plain scalars that some YAML reader would take as a non-string must be quoted."""

from __future__ import annotations

from functools import lru_cache

import yaml

from labelpool.findings import Finding
from labelpool.rules.schema import dotted
from labelpool.rules.view import CANONICAL, View

_STR = "tag:yaml.org,2002:str"


@lru_cache(maxsize=65536)
def misread(text: str) -> bool:
    """True when a YAML 1.1 or 1.2 resolver reads the plain scalar ``text`` as a non-string.

    ``yamlio.needs_quotes`` also flags strings that cannot be written plain in every context
    (``a, b`` in a flow list); a plain scalar that was read from a file is only misread when
    a resolver gives it another type.
    """
    from labelpool.yamlio import needs_quotes

    if not needs_quotes(text):
        return False
    from ruamel.yaml.nodes import ScalarNode as RuamelScalarNode
    from ruamel.yaml.resolver import VersionedResolver

    if yaml.resolver.Resolver().resolve(yaml.ScalarNode, text, (True, False)) != _STR:
        return True
    return any(
        str(VersionedResolver(version=v).resolve(RuamelScalarNode, text, (True, False))) != _STR
        for v in ((1, 1), (1, 2))
    )


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    for keypath, node in view.plain:
        text = node.value
        is_key = keypath[-1:] == ("<key>",)
        if not misread(text) or (not is_key and CANONICAL.match(text)):
            continue
        where = dotted(keypath[:-1]) + " (key)" if is_key else dotted(keypath)
        out.append(Finding("", node.start_mark.line + 1, node.start_mark.column + 1, "LP021",
                           f"{where}: plain {text} is read as a non-string by YAML 1.1 or 1.2 "
                           f"readers; quote it ('{text}') or run `labelpool fmt`"))
    return out
