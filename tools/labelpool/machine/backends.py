"""``backend(judge)``: the backend that asks a machine judge of its kind.

``openai``: :class:`labelpool.machine.openai_chat.OpenAIChat`; ``command``:
``labelpool.machine.command`` (a program speaking the JSON-lines protocol). Each is imported
when a judge of its kind is asked, so that reading a judge's file imports neither.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from labelpool.errors import UsageError
from labelpool.machine.definition import MachineJudge
from labelpool.machine.protocol import Backend


def backend(judge: MachineJudge, root: Path | None = None) -> Backend:
    """A backend for ``judge`` (close it when done); UsageError when it cannot be made (a
    missing library, an unset key variable). A command judge's program runs in ``root`` (the
    repository's root; default: the folder above the judges folder)."""
    if judge.kind == "openai":
        from labelpool.machine.openai_chat import OpenAIChat

        return OpenAIChat(judge)
    if judge.kind == "command":
        try:
            command = importlib.import_module("labelpool.machine.command")
        except ModuleNotFoundError as exc:
            if exc.name != "labelpool.machine.command":
                raise
            raise UsageError(
                f"machine judge {judge.name}: this labelpool cannot run judges of kind command yet"
            ) from None
        if root is None:
            root = judge.path.parent.parent if judge.path is not None else Path.cwd()
        made: Backend = command.from_definition(judge, root)
        return made
    raise UsageError(f"machine judge {judge.name}: unknown kind {judge.kind!r}")
