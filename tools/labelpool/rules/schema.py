"""LP020 (schema), with LP021 (quote it) and LP035 (bad verdict) for the errors they explain.

jsonschema's ``Draft202012Validator`` with the format checker is the source of every message;
jsonschema-rs, when installed, is only a fast yes/no pre-check (tests prove they agree).

jsonschema is imported by :func:`full_validator` on its first call, not at the top: only a
file that fails the yes/no check needs its messages, and importing jsonschema (with
referencing, attrs, rpds and its format checkers) took 0.06-0.1 s of CPU, a third of
pytrec_eval's whole process, on every cold ``score`` of good labels (ARCHITECTURE.md, Lazy
imports).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs

from labelpool.findings import Finding
from labelpool.rules.view import CANONICAL, KeyPath, View
from labelpool.yamlfile.reading import dotted as dotted

MAX_MESSAGE = 160


@lru_cache(maxsize=4)
def fast_check(path: Path) -> Callable[[Any], bool]:
    """jsonschema-rs's ``is_valid`` for the schema at ``path`` (a yes/no pre-check)."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    validator = jsonschema_rs.validator_for(schema, validate_formats=True)
    is_valid: Callable[[Any], bool] = validator.is_valid
    return is_valid


@lru_cache(maxsize=4)
def full_validator(path: Path) -> Any:
    """jsonschema's validator for the schema at ``path``: the source of every message."""
    import jsonschema  # messages only: see the module doc

    schema = json.loads(path.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check(view: View, schema_file: Path) -> list[Finding]:
    fast = fast_check(schema_file)
    if fast(view.data):
        return []
    findings: list[Finding] = []
    for err in full_validator(schema_file).iter_errors(view.data):
        keypath: KeyPath = tuple(err.absolute_path)
        line, col = view.pos(keypath)
        where = dotted(keypath)
        if "verdict" in keypath[-1:] and keypath[:1] == ("pending",):
            findings.append(
                Finding(
                    "",
                    line,
                    col,
                    "LP035",
                    f"{where}: {_short(err.instance)} is not a verdict: use "
                    "relevant, irrelevant, an integer grade >= 0 or "
                    "{duplicate-of: ID}",
                )
            )
            continue
        if (
            err.validator == "type"
            and "string" in _types(err.validator_value)
            and view.is_plain(keypath)
        ):
            text = view.node(keypath).value
            if CANONICAL.match(text):
                findings.append(
                    Finding(
                        "",
                        line,
                        col,
                        "LP021",
                        f"{where}: plain {text} is read as a non-string; quote "
                        f"it ('{text}') or run `labelpool fmt`",
                    )
                )
                continue
        message = f"{where}: {err.message}"
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        findings.append(Finding("", line, col, "LP020", message))
    return findings


def _types(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)
