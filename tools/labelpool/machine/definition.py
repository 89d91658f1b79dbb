"""A machine judge's definition: ``judges/NAME.yaml`` read, checked and named.

The file is reviewed like code: its kind, model, prompt template (a file beside it), scale,
how a reply maps onto the scale, and the sampling settings. Its identity,
``NAME@sha256:<12 hex>``, is what label files record as the judge of its verdicts: the sha256
is of the definition's bytes followed by the template's bytes (``cat judges/NAME.yaml
judges/NAME.prompt.txt | sha256sum``), so a changed prompt, model or setting is a new judge and
the old verdicts keep the old identity.

Problems are :class:`DefinitionError` (an input error, exit 1) at ``path:line:col`` with a rule
id (LP050-LP053, docs/machine-judges.md); :func:`problems` lists every one (``validate``),
:func:`load` raises the first. An API key is never in the file: ``api_key_env`` names the
environment variable that holds it, and a field named like a key, token or secret holding a
value, or a value that looks like an OpenAI key (``sk-...``), is refused without being shown.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast

from labelpool import schemas
from labelpool.errors import InputError
from labelpool.findings import Finding
from labelpool.yamlfile import (
    CommentedMap,
    CommentedSeq,
    YamlError,
    guard,
    loads_roundtrip,
    node_position,
    to_plain,
)

SCHEMA = schemas.MACHINE_JUDGE
SUFFIX = ".yaml"
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
DEFAULT_GRADES = (0, 1, 2, 3)
MAX_TEMPLATE_BYTES = 256 * 1024
# rule ids of the judge files (rules/registry.py lists them with their docs)
LP_SCHEMA, LP_SECRET, LP_PROMPT, LP_MEANING = "LP050", "LP051", "LP052", "LP053"

Kind = Literal["openai", "command"]
Combine = Literal["majority", "mean"]

# a field whose name says it holds a secret: a word of its name (split at _ - . and spaces)
# is one of these (api_key_env names a variable: it is allowed; max_tokens is a number)
_SECRET_WORDS = frozenset(
    [
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "credential",
        "credentials",
        "auth",
        "authorization",
        "bearer",
    ]
)
_ALLOWED_NAMES = frozenset({"api_key_env"})
# a value that looks like an OpenAI-style key (sk-..., sk-proj-...)
SECRET_VALUE = re.compile(r"sk-[A-Za-z0-9_\-]{8,}")
_PLACEHOLDER = re.compile(r"\{(question|passage)\}")


class DefinitionError(InputError):
    """A machine judge's file cannot be used (exit 1): ``path:line:col: RULE message``."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(
            f"{finding.rule} {finding.message}",
            path=finding.path,
            line=finding.line,
            column=finding.col,
        )
        self.finding = finding


@dataclass(frozen=True)
class MachineJudge:
    """One machine judge as its files define it (docs/machine-judges.md: every field)."""

    name: str
    kind: Kind
    model: str
    template: str  # the prompt template's text ("" for a command judge without one)
    grades: tuple[int, ...]
    temperature: float
    top_p: float
    max_tokens: int
    seed: int | None
    samples: int
    combine: Combine
    base_url: str | None
    api_key_env: str | None
    command: tuple[str, ...]
    timeout: float
    sha256: str  # hex, of the definition's bytes then the template's
    retries: int = 5
    words: tuple[tuple[str, int], ...] = ()  # the answer's words (empty: the number rule)
    path: Path | None = None  # the definition file
    prompt: Path | None = None  # the template file

    @property
    def identity(self) -> str:
        """The judge's name in label files (with ``kind: machine``)."""
        return f"{self.name}@sha256:{self.sha256[:12]}"

    def render(self, question: str, passage: str) -> str:
        """The prompt for one document: ``{question}`` and ``{passage}`` replaced, in one pass
        (a question holding ``{passage}`` stays as written), every other brace left alone."""
        values = {"question": question, "passage": passage}
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], self.template)


def judge_file(folder: Path, name: str) -> Path:
    """Where the judge ``name`` is defined."""
    return folder / f"{name}{SUFFIX}"


def load(root: Path, name: str, folder: str | Path = "judges") -> MachineJudge:
    """The judge ``name`` of the repository at ``root`` (``folder`` relative to it, or
    absolute); raises :class:`DefinitionError` at the first problem, InputError when the file
    is missing."""
    if not NAME_RE.match(name):
        raise InputError(
            f"{name!r} is not a machine judge's name (letters, digits, '.', '_', '-'; at most "
            "64; a letter or digit first)"
        )
    path = judge_file(root / folder, name)
    if not path.is_file():
        raise InputError(f"no machine judge {name!r}: {path} is not a file", path=path)
    judge, found = read(path)
    errors = [f for f in found if f.severity == "error"]
    if errors or judge is None:
        raise DefinitionError(errors[0])
    return judge


def problems(path: Path) -> list[Finding]:
    """Every problem of the judge file at ``path`` (empty: it loads)."""
    return read(path)[1]


def read(path: Path) -> tuple[MachineJudge | None, list[Finding]]:
    """The judge defined at ``path`` and every problem found (the judge is None when one is an
    error). Findings carry ``path`` as given."""
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Finding(where, 1, 1, LP_SCHEMA, f"cannot read: {exc.strerror or exc}")]
    unsafe = guard(path, raw)
    if unsafe:
        return None, unsafe
    try:
        # read as YAML 1.2 by ruamel, numbers as numbers: the one reading's LP021 (a plain
        # scalar some reader takes for a non-string) is for label files, whose values are ids
        tree = loads_roundtrip(raw.decode("utf-8"), where, repair=True)
    except YamlError as exc:
        return None, [exc.finding]
    if not isinstance(tree, CommentedMap):
        return None, [Finding(where, 1, 1, LP_SCHEMA, "the file is not a YAML mapping")]
    secrets = list(_secrets(tree, where))
    if secrets:  # before the schema, whose messages would quote the value
        return None, secrets
    found = _schema_findings(tree, where)
    name = path.name.removesuffix(SUFFIX)
    if not NAME_RE.match(name) or not path.name.endswith(SUFFIX):
        found.append(
            Finding(
                where,
                1,
                1,
                LP_MEANING,
                f"{name!r} is not a machine judge's name: letters, "
                "digits, '.', '_', '-' (a letter or digit first, at most 64), then .yaml",
            )
        )
    if found:
        return None, found
    data = cast(dict[str, Any], to_plain(tree))
    found.extend(_meaning(tree, data, where))
    template, prompt, prompt_raw, prompt_found = _template(tree, data, path)
    found.extend(prompt_found)
    if found:
        return None, found
    return _judge(name, data, template, prompt, raw + prompt_raw, path), []


def _judge(
    name: str, data: dict[str, Any], template: str, prompt: Path | None, hashed: bytes, path: Path
) -> MachineJudge:
    words = data.get("answer", "number")
    return MachineJudge(
        name=name,
        kind=data["kind"],
        model=data["model"],
        template=template,
        grades=tuple(data.get("grades", DEFAULT_GRADES)),
        temperature=float(data.get("temperature", 0.0)),
        top_p=float(data.get("top_p", 1.0)),
        max_tokens=int(data.get("max_tokens", 16)),
        seed=data.get("seed"),
        samples=int(data.get("samples", 1)),
        combine=data.get("combine", "majority"),
        base_url=data.get("base_url"),
        api_key_env=data.get("api_key_env"),
        command=tuple(data.get("command", ())),
        timeout=float(data.get("timeout", 60.0)),
        retries=int(data.get("retries", 5)),
        words=tuple(words.items()) if isinstance(words, dict) else (),
        sha256=hashlib.sha256(hashed).hexdigest(),
        path=path,
        prompt=prompt,
    )


def _walk(node: Any, keypath: tuple[str | int, ...] = ()) -> Iterator[tuple[Any, Any, Any]]:
    """(keypath, key or None, value) of every value under ``node``."""
    if isinstance(node, CommentedMap):
        for key, value in node.items():
            yield (*keypath, key), key, value
            yield from _walk(value, (*keypath, key))
    elif isinstance(node, CommentedSeq):
        for i, value in enumerate(node):
            yield (*keypath, i), None, value
            yield from _walk(value, (*keypath, i))


def _secrets(tree: CommentedMap, where: str) -> Iterator[Finding]:
    """A field named like a secret holding a value, or a value that looks like a key: the
    message never shows the value."""
    for keypath, key, value in _walk(tree):
        line, col = node_position(tree, keypath)
        dotted = ".".join(map(str, keypath))
        named = isinstance(key, str) and key not in _ALLOWED_NAMES and _is_secret_name(key)
        if named and value not in (None, ""):
            yield Finding(
                where,
                line,
                col,
                LP_SECRET,
                f"{dotted}: a secret is never written in a judge "
                "file; put it in an environment variable and name the variable in api_key_env",
            )
        elif (isinstance(value, str) and SECRET_VALUE.search(value)) or (
            isinstance(key, str) and SECRET_VALUE.search(key)
        ):
            yield Finding(
                where,
                line,
                col,
                LP_SECRET,
                f"{dotted}: this looks like an API key (sk-...); a "
                "key is never written in a judge file: name its environment variable in "
                "api_key_env",
            )


def _is_secret_name(key: str) -> bool:
    return any(word in _SECRET_WORDS for word in re.split(r"[_\-.\s]+", key.casefold()))


@lru_cache(maxsize=2)
def _validator(schema_file: Path) -> Any:
    import jsonschema  # messages only when a file is read: kept off other commands' imports

    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _schema_findings(tree: CommentedMap, where: str) -> list[Finding]:
    validator = _validator(schemas.schema_path(SCHEMA))
    found: list[Finding] = []
    for err in sorted(validator.iter_errors(to_plain(tree)), key=lambda e: list(e.path)):
        keypath = tuple(err.absolute_path)
        line, col = node_position(tree, keypath)
        if err.validator == "additionalProperties" and keypath == ():
            extra = [k for k in tree if k not in err.schema.get("properties", {})]
            if extra:  # at the first key not allowed, rather than at the mapping
                line, col = (n + 1 for n in tree.lc.key(extra[0]))
        dotted = ".".join(map(str, keypath)) or "the file"
        message = f"{dotted}: {err.message}"
        found.append(Finding(where, line, col, LP_SCHEMA, message[:200]))
    return found


def _meaning(tree: CommentedMap, data: dict[str, Any], where: str) -> Iterator[Finding]:
    """What the schema cannot say: the answer's words name grades of the scale; fields of
    the other kind are not set."""
    grades = data.get("grades", DEFAULT_GRADES)
    answer = data.get("answer")
    if isinstance(answer, dict):
        for word, grade in answer.items():
            if grade not in grades:
                line, col = node_position(tree, ("answer", word))
                yield Finding(
                    where,
                    line,
                    col,
                    LP_MEANING,
                    f"answer.{word}: {grade} is not a grade of the "
                    f"scale ({', '.join(map(str, grades))})",
                )
    other = ("command",) if data["kind"] == "openai" else ("base_url", "api_key_env")
    for key in other:
        if key in data:
            line, col = node_position(tree, (key,))
            yield Finding(
                where,
                line,
                col,
                LP_MEANING,
                f"{key}: not a field of a judge of kind {data['kind']}",
            )


def _template(
    tree: CommentedMap, data: dict[str, Any], path: Path
) -> tuple[str, Path | None, bytes, list[Finding]]:
    """(text, file, bytes, problems) of the prompt template ``prompt:`` names."""
    where = str(path)
    relative = data.get("prompt")
    if relative is None:
        return "", None, b"", []
    line, col = node_position(tree, ("prompt",))

    def problem(message: str) -> tuple[str, Path | None, bytes, list[Finding]]:
        return "", None, b"", [Finding(where, line, col, LP_PROMPT, f"prompt: {message}")]

    if Path(relative).is_absolute() or "\\" in relative:
        return problem("a path relative to the judge file, with '/'")
    prompt = path.parent / relative
    if ".." in Path(relative).parts:
        return problem("a file in the judges folder or below it (no '..')")
    try:
        if not prompt.is_file() or prompt.is_symlink():
            return problem(f"{relative} is not a file beside the judge file")
        with prompt.open("rb") as fh:
            raw = fh.read(MAX_TEMPLATE_BYTES + 1)
    except OSError as exc:
        return problem(f"cannot read {relative}: {exc.strerror or exc}")
    if len(raw) > MAX_TEMPLATE_BYTES:
        return problem(f"{relative} is over {MAX_TEMPLATE_BYTES // 1024} KiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return problem(f"{relative} is not UTF-8 text")
    if "\x00" in text:
        return problem(f"{relative} holds a NUL character")
    if SECRET_VALUE.search(text):
        return (
            "",
            None,
            b"",
            [
                Finding(
                    str(prompt),
                    1,
                    1,
                    LP_SECRET,
                    "this looks like an API key (sk-...); a key is "
                    "never written in a prompt template",
                )
            ],
        )
    missing = [p for p in ("question", "passage") if "{" + p + "}" not in text]
    if missing:
        return problem(
            f"{relative} has no " + " and no ".join("{" + p + "}" for p in missing) + " placeholder"
        )
    return text, prompt, raw, []
