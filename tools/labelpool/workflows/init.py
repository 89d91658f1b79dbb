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

from labelpool import __version__, atomic, gitio
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
    git_initialised: bool = False  # `git init -b main` ran (the folder was in no work tree)
    git_problem: str | None = None  # why `git init` could not run (git missing...)
    # the work tree of another repository holding the folder: the labels are committed there
    enclosing_work_tree: Path | None = None


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


class HookRefused(UsageError):
    """``--hook-repo`` / ``--hook-rev`` cannot stand in the hook config: exit 2."""


REMOTE_HOOKS = """\
# Label files are put in canonical form (labelpool fmt, a fixer) and validated before every
# commit (see https://pre-commit.com; run `pre-commit install` once), with the hooks published
# by the repository below.
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: labelpool-fmt
      - id: labelpool-validate
"""


def check_hook_option(option: str, value: str) -> str:
    """``value`` if it can stand in the hook config as one YAML scalar: printable ASCII, not
    empty, no blank, not an option; else :class:`HookRefused`."""
    if not value or not all("!" <= ch <= "~" for ch in value) or value.startswith("-"):
        raise HookRefused(
            f"{option} must be printable ASCII without blanks, not empty and not an option: "
            f"{value!r}"
        )
    return value


def remote_hooks(hook_repo: str | None, hook_rev: str | None) -> str | None:
    """The pre-commit config using the hooks published by ``hook_repo`` at ``hook_rev``
    (None when neither is given: the template's ``repo: local`` hooks)."""
    if hook_repo is None and hook_rev is None:
        return None
    if hook_repo is None or hook_rev is None:
        given, missing = (
            ("--hook-repo", "--hook-rev") if hook_rev is None else ("--hook-rev", "--hook-repo")
        )
        raise HookRefused(f"{given} needs {missing} (the hooks' repository and its tag or commit)")
    repo = json.dumps(check_hook_option("--hook-repo", hook_repo))
    rev = json.dumps(check_hook_option("--hook-rev", hook_rev))
    return REMOTE_HOOKS.format(repo=repo, rev=rev)


def workflow_text(template: str, source: str) -> str:
    """The workflow template with its install step pointed at ``source`` (a pip requirement,
    written as a YAML double-quoted string: JSON's escapes are YAML's)."""
    return template.replace(SOURCE_PLACEHOLDER, json.dumps(check_source(source)))


def scaffold(
    target: Path,
    *,
    force: bool = False,
    labelpool_source: str | None = None,
    hook_repo: str | None = None,
    hook_rev: str | None = None,
) -> InitResult:
    """Create the files of a new label repository in ``target``; a file that cannot be
    written is :class:`InitRefused` naming it; ``labelpool_source``: the pip requirement the
    CI workflow installs (default :data:`DEFAULT_SOURCE`); ``hook_repo`` and ``hook_rev``:
    the repository whose published hooks the pre-commit config uses (default: ``repo: local``
    hooks running the installed labelpool). A folder in no git work tree gets ``git init -b
    main`` (no commit); a folder inside another repository's work tree is named in the result's
    ``enclosing_work_tree`` (the labels are committed in that repository)."""
    source = check_source(DEFAULT_SOURCE if labelpool_source is None else labelpool_source)
    hooks = remote_hooks(hook_repo, hook_rev)
    try:
        created, skipped, missing = _scaffold(target, force, source, hooks)
    except OSError as exc:
        raise InitRefused(str(exc.strerror or exc), path=exc.filename or target) from None
    initialised, problem, enclosing = _git_init(target)
    return InitResult(
        created,
        skipped,
        tuple(m for m in missing if m not in OPTIONAL),
        labelpool_source=source,
        default_source=labelpool_source is None,
        git_initialised=initialised,
        git_problem=problem,
        enclosing_work_tree=enclosing,
    )


def _git_init(target: Path) -> tuple[bool, str | None, Path | None]:
    """``git init -b main`` in ``target`` unless it is inside a work tree already: (ran, why
    it could not run, the work tree of another repository holding ``target``)."""
    try:
        top = gitio.toplevel(target)
        if top is not None:
            return False, None, None if top.resolve() == target.resolve() else top
        gitio.git(target, "init", "-q", "-b", "main")
    except (gitio.GitError, OSError) as exc:
        return False, str(exc), None
    return True, None, None


def _scaffold(
    target: Path, force: bool, source: str, hooks: str | None
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
        if name == "workflow.yml":
            text = workflow_text(text, source)
        elif name == "init-pre-commit-config.yaml" and hooks is not None:
            text = hooks
        files.append((rel, text))
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
        if rel == ".git" or rel.startswith(".git/"):  # `git init DIR` first is fine
            continue
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
