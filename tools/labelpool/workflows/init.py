"""``labelpool init DIR``: scaffold a label repository; never overwrites a file.

The CI workflow it writes installs labelpool with ``pip install "$LABELPOOL_SOURCE"``, the pip
requirement given as ``--labelpool-source`` written verbatim (a YAML double-quoted string) in
place of the template's ``"@LABELPOOL_SOURCE@"``; the default is ``labelpool==<this version>``,
which assumes the package is published under that name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from labelpool import __version__, atomic
from labelpool.errors import UsageError


class InitRefused(UsageError):
    """The target cannot be scaffolded (not empty without ``force``, not a folder, or a file
    cannot be written there): exit 2."""


class SourceRefused(UsageError):
    """``--labelpool-source`` is not one pip requirement the workflow can hold: exit 2."""


@dataclass(frozen=True)
class InitResult:
    created: tuple[Path, ...]
    skipped: tuple[Path, ...]  # existed already: left as they were
    missing_templates: tuple[str, ...]  # templates this installation does not ship
    labelpool_source: str  # the pip requirement the workflow installs
    default_source: bool  # labelpool_source is DEFAULT_SOURCE (not given)


DEFAULT_SOURCE = f"labelpool=={__version__}"
SOURCE_PLACEHOLDER = '"@LABELPOOL_SOURCE@"'  # in workflow.yml: a YAML string, replaced whole


# target path (relative) -> packaged template name under labelpool/data
TEMPLATES: tuple[tuple[str, str], ...] = (
    ("pyproject.toml", "init-pyproject.toml"),
    ("schema/label.schema.json", "label.schema.json"),
    (".pre-commit-config.yaml", "init-pre-commit-config.yaml"),
    (".gitattributes", "init-gitattributes"),
    (".github/workflows/labels.yml", "workflow.yml"),
)
OPTIONAL = frozenset({"workflow.yml"})
KEEP = ("labels/.gitkeep", "runs/.gitkeep")


def _template(name: str) -> str | None:
    ref = resources.files("labelpool") / "data" / name
    try:
        return ref.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def check_source(spec: str) -> str:
    """``spec`` if it can stand in the workflow as one pip requirement, else
    :class:`SourceRefused`: printable ASCII, not empty, not an option (``-...``), no GitHub
    expression (``${{``)."""
    problem = None
    if not spec.strip():
        problem = "is empty"
    elif not all(" " <= ch <= "~" for ch in spec):
        problem = "must be printable ASCII (no control character, no line break)"
    elif spec.lstrip().startswith("-"):
        problem = "must be a requirement, not a pip option"
    elif "${{" in spec:
        problem = "must not hold a GitHub expression (${{ ... }})"
    if problem is not None:
        raise SourceRefused(f"--labelpool-source {problem}: {spec!r}")
    return spec


def workflow_text(template: str, source: str) -> str:
    """The workflow template with its install step pointed at ``source`` (a pip requirement,
    written as a YAML double-quoted string: JSON's escapes are YAML's)."""
    return template.replace(SOURCE_PLACEHOLDER, json.dumps(check_source(source)))


def scaffold(
    target: Path, *, force: bool = False, labelpool_source: str | None = None
) -> InitResult:
    """Create the files of a new label repository in ``target``; a file that cannot be
    written is :class:`InitRefused` naming it; ``labelpool_source``: the pip requirement the
    CI workflow installs (default :data:`DEFAULT_SOURCE`)."""
    source = check_source(DEFAULT_SOURCE if labelpool_source is None else labelpool_source)
    try:
        created, skipped, missing = _scaffold(target, force, source)
    except OSError as exc:
        raise InitRefused(str(exc.strerror or exc), path=exc.filename or target) from None
    return InitResult(
        created,
        skipped,
        tuple(m for m in missing if m not in OPTIONAL),
        labelpool_source=source,
        default_source=labelpool_source is None,
    )


def _scaffold(
    target: Path, force: bool, source: str
) -> tuple[tuple[Path, ...], tuple[Path, ...], list[str]]:
    if target.exists() and not target.is_dir():
        raise InitRefused("exists and is not a folder", path=target)
    missing: list[str] = []
    files: list[tuple[str, str]] = []
    for rel, name in TEMPLATES:
        text = _template(name)
        if text is None:
            missing.append(name)
            continue
        files.append((rel, workflow_text(text, source) if name == "workflow.yml" else text))
    files.extend((rel, "") for rel in KEEP)
    # a folder holding only files init writes, as it writes them, is an interrupted init: go on
    if target.is_dir() and not force and not _only_ours(target, dict(files)):
        raise InitRefused(
            "folder is not empty; use --force to add the missing files "
            "(existing files are never overwritten)",
            path=target,
        )
    target.mkdir(parents=True, exist_ok=True)
    created: list[Path] = []
    skipped: list[Path] = []
    for rel, text in files:
        path = target / rel
        if path.exists() or path.is_symlink():
            skipped.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            atomic.write_new(path, text)  # never replaces a file that appeared meanwhile
        except FileExistsError:
            skipped.append(path)
            continue
        created.append(path)
    return tuple(created), tuple(skipped), missing


def _only_ours(target: Path, files: dict[str, str]) -> bool:
    """True when every file under ``target`` is one of ``files`` (relative path -> text)
    holding exactly that text, and every folder leads to one (an empty folder counts too)."""
    for path in target.rglob("*"):
        rel = path.relative_to(target).as_posix()
        if path.is_symlink():
            return False
        if path.is_dir():
            if not any(f.startswith(rel + "/") for f in files):
                return False
        elif not (path.is_file() and rel in files):  # a FIFO is never read
            return False
        if path.is_file() and path.read_bytes() != files[rel].encode("utf-8"):
            return False
    return True
