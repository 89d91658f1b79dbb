"""LP021: plain scalars that some YAML reader would take as a non-string must be quoted.

The findings are the one reading's own (``yamlfile.ambiguous_finding``): each scalar every
command refuses a file for is listed here, with the same position and message."""

from __future__ import annotations

from labelpool.findings import Finding
from labelpool.rules.view import View
from labelpool.yamlfile import ambiguous_finding


def check(view: View) -> list[Finding]:
    return [
        ambiguous_finding(keypath, node.value, node.start_mark.line + 1, node.start_mark.column + 1)
        for keypath, node in view.plain
    ]
