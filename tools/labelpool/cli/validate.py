"""``labelpool validate`` and ``labelpool rules``."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, app, load_config, say, usage_error
from labelpool.cli._progress import progress
from labelpool.errors import EXIT_FINDINGS
from labelpool.render import sanitize

if TYPE_CHECKING:
    from labelpool.workflows.validate.warm import ValidateResult


class Format(str, Enum):
    text = "text"
    json = "json"


@app.command("validate")
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Label files or folders (default: every file in labels/)."),
    ] = None,
    allow_pending: Annotated[
        bool,
        typer.Option(
            "--allow-pending",
            help="Accept unresolved pending verdicts (LP034) and proposed classes (LP062).",
        ),
    ] = False,
    fmt: Annotated[Format, typer.Option("--format", help="text or json.")] = Format.text,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Ignore and do not write the result cache.")
    ] = False,
    list_rules: Annotated[
        bool, typer.Option("--list-rules", help="Print every rule and exit.")
    ] = False,
    provenance: Annotated[
        bool, typer.Option("--provenance", help="Also check pool entries against runs/ (LP060).")
    ] = False,
    repo: RepoOption = None,
) -> None:
    """Check label files: schema, safety and every rule; exit 1 on any error."""
    if list_rules:
        _print_rules()
        return
    cfg = load_config(repo)
    for path in paths or ():
        if not path.exists() and not path.is_symlink():
            usage_error(f"{path}: no such file or folder")
    judges = _lazy.validate_judges
    if paths:  # label files and machine judges' files (pre-commit passes both)
        labels, judge_files = judges.split(cfg, paths)
    else:
        labels, judge_files = [], judges.every_file(cfg)
    result: ValidateResult | None
    if paths and not labels:
        result = _lazy.validate_warm.ValidateResult(findings=(), files=0, checked=0)
    else:
        # Nothing changed since the last run: its findings, without importing the rules.
        result = (
            None
            if no_cache
            else _lazy.validate_warm.cached(cfg, labels or None, allow_pending=allow_pending)
        )
    if result is None:
        with progress("validating"):
            result = _lazy.validate_workflow.validate(
                cfg, labels or None, allow_pending=allow_pending, use_cache=not no_cache
            )
    # Further checks plug in here (e.g. provenance): extend `findings` before printing.
    findings = [*result.findings, *judges.check(judge_files)]
    if provenance and (labels or not paths):
        with progress("checking provenance"):
            checked = _lazy.provenance_workflow.check_files(cfg, labels or None)
        say(checked.note(), err=True)
        findings = sorted([*findings, *checked.findings])
    if fmt is Format.json:
        rows = [
            {
                "path": f.path,
                "line": f.line,
                "col": f.col,
                "rule": f.rule,
                "severity": f.severity,
                "message": f.message,
            }
            for f in findings
        ]
        print(sanitize.json_dumps(rows, indent=2))
    else:
        for finding in findings:
            say(finding)
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = len(findings) - errors
    print(
        f"labelpool validate: {result.files + len(judge_files)} file(s), {errors} error(s), "
        f"{warnings} warning(s)",
        file=sys.stderr,
    )
    if errors:
        raise typer.Exit(EXIT_FINDINGS)


def _print_rules() -> None:
    for rule in _lazy.rule_registry.all_rules().values():
        tag = "" if rule.severity == "error" else " (warning)"
        print(f"{rule.id}{tag}  {rule.doc}")


@app.command("rules")
def rules() -> None:
    """Print every validation rule: id, severity, one-line doc."""
    _print_rules()
