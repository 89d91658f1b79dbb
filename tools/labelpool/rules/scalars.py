"""LP021: plain scalars that some YAML reader would take as a non-string must be quoted."""

from __future__ import annotations

from labelpool.findings import Finding
from labelpool.rules.schema import dotted
from labelpool.rules.view import CANONICAL, View
from labelpool.yamlfile import misread


def check(view: View) -> list[Finding]:
    out: list[Finding] = []
    for keypath, node in view.plain:
        text = node.value
        is_key = keypath[-1:] == ("<key>",)
        if not misread(text) or (not is_key and CANONICAL.match(text)):
            continue
        where = dotted(keypath[:-1]) + " (key)" if is_key else dotted(keypath)
        out.append(
            Finding(
                "",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
                "LP021",
                f"{where}: plain {text} is read as a non-string by YAML 1.1 or 1.2 "
                f"readers; quote it ('{text}') or run `labelpool fmt`",
            )
        )
    return out
