"""``labelpool judge init-machine NAME``: a new machine judge's files, valid by construction.

An ``openai`` judge gets ``judges/NAME.yaml`` and ``judges/NAME.prompt.txt`` (the prompt
labelpool ships, ``data/judge-prompt.txt``: a 0-3 scale, a sentence a grade, one number as the
answer); a ``command`` judge gets ``judges/NAME.yaml`` naming a program to write. Nothing is
overwritten: a file that exists stops the command before anything is written. The text is
checked by the judge reader (:mod:`labelpool.machine.definition`) before it is written, and
each file is created atomically.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from labelpool import atomic
from labelpool.config import Config
from labelpool.errors import StateError, UsageError
from labelpool.machine import definition

PROMPT = "judge-prompt.txt"
DEFAULT_MODEL = "gpt-4o-mini"
KINDS = ("openai", "command")

_OPENAI = """\
# A machine judge (docs/machine-judges.md). Label files name its verdicts
# {name}@sha256:<the first 12 hex digits of the sha256 of this file then the prompt file>:
# any change to either is a new judge, and the verdicts given so far keep the old name.
kind: openai
model: {model}
prompt: {name}.prompt.txt
grades: [0, 1, 2, 3]
answer: number
temperature: 0
top_p: 1
max_tokens: 16
seed: 0
samples: 1
combine: majority
# the endpoint: OpenAI's when null; vLLM, llama.cpp or Ollama at e.g. http://127.0.0.1:8000/v1
base_url: null
# the environment variable holding the API key (never the key itself); null: no key
api_key_env: OPENAI_API_KEY
timeout: 60
retries: 5
"""

_COMMAND = """\
# A machine judge (docs/machine-judges.md) run as a program speaking labelpool's JSON-lines
# protocol. Label files name its verdicts {name}@sha256:<the first 12 hex digits of the
# sha256 of this file>: any change is a new judge.
kind: command
model: {model}
command: [python3, judges/{name}.py]
grades: [0, 1, 2, 3]
timeout: 60
"""


@dataclass(frozen=True)
class Defined:
    """What ``init-machine`` wrote, and the judge it defines."""

    created: tuple[Path, ...]
    identity: str


def init_machine(cfg: Config, name: str, kind: str = "openai", model: str | None = None) -> Defined:
    """Write the files of the machine judge ``name`` in ``cfg``'s judges folder."""
    if not definition.NAME_RE.match(name):
        raise UsageError(
            f"{name!r} is not a machine judge's name: letters, digits, '.', '_', '-' (a letter "
            "or digit first, at most 64)"
        )
    if kind not in KINDS:
        raise UsageError(f"--kind {kind!r}: one of " + ", ".join(KINDS))
    folder = cfg.judges_folder
    shown = model if model is not None else DEFAULT_MODEL
    texts: dict[str, str] = {
        f"{name}{definition.SUFFIX}": (_OPENAI if kind == "openai" else _COMMAND).format(
            name=name, model=json.dumps(shown, ensure_ascii=False)
        )
    }
    if kind == "openai":
        texts[f"{name}.prompt.txt"] = shipped_prompt()
    for file in texts:
        if (folder / file).exists() or (folder / file).is_symlink():
            raise StateError(f"{folder / file} exists; init-machine never overwrites a file")
    identity = _check(name, texts)
    folder.mkdir(parents=True, exist_ok=True)
    created: list[Path] = []
    for file in sorted(texts, key=lambda f: not f.endswith(".txt")):  # the prompt first
        try:
            atomic.write_new(folder / file, texts[file])
        except FileExistsError:
            raise StateError(
                f"{folder / file} appeared meanwhile; init-machine never overwrites a file"
            ) from None
        created.append(folder / file)
    return Defined(tuple(created), identity)


def shipped_prompt() -> str:
    """The prompt labelpool ships (the default template)."""
    return resources.files("labelpool").joinpath("data", PROMPT).read_text(encoding="utf-8")


def _check(name: str, texts: dict[str, str]) -> str:
    """The identity of the judge ``texts`` define, read by the judge reader in a scratch
    folder; UsageError with the reader's first problem (a model the file cannot hold)."""
    with tempfile.TemporaryDirectory(prefix="labelpool-judge-") as scratch:
        for file, text in texts.items():
            (Path(scratch) / file).write_text(text, encoding="utf-8")
        judge, found = definition.read(Path(scratch) / f"{name}{definition.SUFFIX}")
    if judge is None:
        problem = found[0] if found else None
        detail = f"{problem.rule} {problem.message}" if problem else "unreadable"
        raise UsageError(f"init-machine cannot write this judge: {detail}")
    return judge.identity
