"""All per-file rules on one file's bytes: its findings and the facts the cross-file rules need.

The result is plain JSON-able data (the validate cache stores it), independent of the file's
name: rules that depend on the name or on other files run on the facts afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labelpool.findings import Finding
from labelpool.rules import (
    bounds,
    classes,
    identity,
    judges,
    keys,
    linebreaks,
    lists,
    pending,
    pool,
    scalars,
    schema,
    seats,
)
from labelpool.rules.view import ViewError, scan

JUDGED_LISTS = ("judged_ids", "relevant_doc_ids")


@dataclass
class FileResult:
    """Per-file findings (path left empty) and facts for the cross-file rules.

    ``lists`` and ``classes`` are only filled for a schema-valid file; positions of the
    facts are found again (``rules.view.locate``) only when a cross-file rule reports one.
    """

    findings: list[Finding] = field(default_factory=list)
    qid: str | None = None
    qid_pos: tuple[int, int] = (1, 1)
    lists: dict[str, list[str]] = field(default_factory=dict)  # judged ids (corpus check)
    classes: list[Any] = field(default_factory=list)  # as written: supersession, LP038

    def to_json(self) -> dict[str, Any]:
        return {
            "f": [[f.line, f.col, f.rule, f.message, f.severity] for f in self.findings],
            "id": self.qid,
            "ip": list(self.qid_pos),
            "l": self.lists,
            "c": self.classes,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileResult:
        return cls(
            findings=[Finding("", ln, co, r, m, s) for ln, co, r, m, s in data["f"]],
            qid=data["id"],
            qid_pos=(data["ip"][0], data["ip"][1]),
            lists=data["l"],
            classes=data["c"],
        )


def check_bytes(raw: bytes, schema_file: Path, *, max_bytes: int, max_depth: int) -> FileResult:
    """Every per-file rule on the bytes of one label file."""
    breaks = linebreaks.check(raw) if len(raw) <= max_bytes else []
    try:  # the safety guard and the view in one pass over the YAML events
        safety, view = scan(raw, max_bytes=max_bytes, max_depth=max_depth)
    except ViewError as exc:
        found = [*breaks, Finding("", exc.line, exc.col, "LP039", exc.message)]
        return FileResult(findings=sorted(found))
    safety = sorted(safety + breaks) if breaks else safety
    if view is None:
        return FileResult(findings=safety)
    if not isinstance(view.data, dict):
        return FileResult(
            findings=[
                *safety,
                Finding("", 1, 1, "LP039", "a label is a mapping with an `id` at the top level"),
            ]
        )
    result = FileResult(findings=list(safety))
    qid = view.data.get("id")
    if isinstance(qid, str):
        result.qid = qid
        result.qid_pos = view.pos(("id",))
    found = scalars.check(view) + keys.check(view)
    quoted = {(f.line, f.col) for f in found if f.rule == "LP021"}
    found += [f for f in bounds.check(view) if (f.line, f.col) not in quoted]
    schema_findings = schema.check(view, schema_file)
    # LP021 (quote it) and LP042 (out of bounds) explain the schema's error at their place
    explained = {(f.line, f.col) for f in found if f.rule in ("LP021", bounds.RULE)}
    found += [f for f in schema_findings if (f.line, f.col) not in explained]
    if not schema_findings:
        found += identity.non_nfc(view) + lists.check(view) + classes.check(view)
        found += pool.check(view) + pending.check(view) + seats.check(view)
        if judges.has_record(view.data):
            found += judges.check(view)
        result.lists = {k: view.data[k] for k in JUDGED_LISTS if view.data.get(k)}
        result.classes = view.data.get("relevant_classes") or []
    result.findings.extend(found)
    result.findings.sort()
    return result
