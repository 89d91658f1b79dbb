"""``labelpool judge init-machine NAME``: a new machine judge's files."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, load_config, say
from labelpool.cli.judge import judge_app


class Kind(str, Enum):
    openai = "openai"
    command = "command"


@judge_app.command("init-machine")
def init_machine(
    name: Annotated[str, typer.Argument(help="The judge's name: judges/NAME.yaml.")],
    kind: Annotated[
        Kind,
        typer.Option(
            "--kind",
            help="openai (an OpenAI-compatible chat endpoint) or command (a program).",
        ),
    ] = Kind.openai,
    model: Annotated[
        str | None,
        typer.Option("--model", help="The model id as the endpoint reports it."),
    ] = None,
    repo: RepoOption = None,
) -> None:
    """Write judges/NAME.yaml (and judges/NAME.prompt.txt, labelpool's prompt) for a new
    machine judge; never overwrites a file."""
    cfg = load_config(repo)
    made = _lazy.judge_define.init_machine(cfg, name, kind.value, model)
    here = Path.cwd()
    for path in made.created:
        say(f"created {path.relative_to(here) if path.is_relative_to(here) else path}")
    say(
        f"labelpool judge init-machine: {made.identity}; review the files, commit them, "
        f"then `labelpool judge --machine {name}`"
    )
