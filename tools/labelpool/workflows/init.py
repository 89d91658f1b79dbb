"""``labelpool init DIR``: scaffold a label repository; never overwrites a file."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from labelpool import atomic
from labelpool.errors import UsageError


class InitRefused(UsageError):
    """The target cannot be scaffolded (not empty without ``force``, not a folder, or a file
    cannot be written there): exit 2."""


@dataclass(frozen=True)
class InitResult:
    created: tuple[Path, ...]
    skipped: tuple[Path, ...]  # existed already: left as they were
    missing_templates: tuple[str, ...]  # templates this installation does not ship


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


def scaffold(target: Path, *, force: bool = False) -> InitResult:
    """Create the files of a new label repository in ``target``; a file that cannot be
    written is :class:`InitRefused` naming it."""
    try:
        return _scaffold(target, force)
    except OSError as exc:
        raise InitRefused(str(exc.strerror or exc), path=exc.filename or target) from None


def _scaffold(target: Path, force: bool) -> InitResult:
    if target.exists() and not target.is_dir():
        raise InitRefused("exists and is not a folder", path=target)
    if target.is_dir() and any(target.iterdir()) and not force:
        raise InitRefused(
            "folder is not empty; use --force to add the missing files "
            "(existing files are never overwritten)",
            path=target,
        )
    target.mkdir(parents=True, exist_ok=True)
    created: list[Path] = []
    skipped: list[Path] = []
    missing: list[str] = []
    files: list[tuple[str, str]] = []
    for rel, name in TEMPLATES:
        text = _template(name)
        if text is None:
            missing.append(name)
            continue
        files.append((rel, text))
    files.extend((rel, "") for rel in KEEP)
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
    return InitResult(
        tuple(created), tuple(skipped), tuple(m for m in missing if m not in OPTIONAL)
    )
