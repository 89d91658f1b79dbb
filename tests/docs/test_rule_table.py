"""docs/formats.md's rule table is the registry: one row per rule, its id and its doc, in order.

A warning's id cell says ``(warning)``; the cells escape ``|`` as ``\\|`` (markdown); everything
else is the registry's text.
"""

from __future__ import annotations

import re
from pathlib import Path

from labelpool.rules.registry import RULES
from labelpool.yamlfile import SAFETY_RULES

FORMATS = Path(__file__).resolve().parents[2] / "docs" / "formats.md"


def test_the_rule_table_lists_every_rule_as_the_registry_words_it() -> None:
    text = FORMATS.read_text("utf-8")
    rows = re.findall(r"^\| `(LP\d{3})`( \(warning\))? \| (.*) \|$", text, re.M)
    shown = [(rid, bool(warn), doc.replace("\\|", "|")) for rid, warn, doc in rows]
    registry = [(rid, False, doc) for rid, doc in SAFETY_RULES.items()]
    registry += [(r.id, r.severity == "warning", r.doc) for r in RULES.values()]
    assert shown == registry
