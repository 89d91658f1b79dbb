"""``labelpool judge``: a local page to judge a pending batch with the keyboard.

``judge`` is a command group whose callback is the page, so that ``labelpool judge [OPTIONS]``
serves it and ``labelpool judge init-machine NAME`` (:mod:`labelpool.cli.initmachine`) is a
command of its own."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from labelpool.cli import _handler, _lazy
from labelpool.cli._common import (
    RepoOption,
    _App,
    app,
    check_at_least,
    load_config,
    say,
    usage_error,
    warn,
)
from labelpool.words import counted

judge_app = _App(name="judge", rich_markup_mode=None)
app.add_typer(judge_app, name="judge")


def judge(
    ctx: typer.Context,
    batch: Annotated[
        str | None,
        typer.Option(
            "--batch",
            help="The batch to judge (default: the first, by name, with an empty verdict).",
        ),
    ] = None,
    question: Annotated[
        str | None, typer.Option("--question", help="Judge this question only.")
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port to listen on; 0: a free one.")] = 8765,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (warns unless loopback).")
    ] = "127.0.0.1",
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open a browser.")
    ] = False,
    commit_every: Annotated[
        int | None,
        typer.Option("--commit-every", help="Commit the page's files after every N writes."),
    ] = None,
    repo: RepoOption = None,
) -> None:
    """Serve a local page that judges the pending documents of a batch, one at a time."""
    if ctx.invoked_subcommand is not None:  # `judge init-machine ...`: not the page
        return
    if not 0 <= port <= 65535:
        usage_error(f"--port must be between 0 and 65535, not {port}")
    if commit_every is not None:
        check_at_least("--commit-every", commit_every, 1)
    run = _lazy.judge_run
    if not run.is_loopback(host):
        warn(
            f"--host {host} is not a loopback address: anyone who can reach it and learns "
            "the page's token can write verdicts"
        )
    cfg = load_config(repo)
    session = run.prepare(cfg, batch, question, commit_every)
    if session is None:
        say("labelpool judge: nothing pending")
        return
    server = run.bind(session, host, port)
    address = run.url(server, host)

    def ready() -> None:
        say(f"labelpool judge: {address}")
        sys.stdout.flush()
        if not no_browser:
            _lazy.webbrowser.open(address)

    left = run.serve(server, ready)
    say(f"labelpool judge: stopped; {counted(left, 'verdict')} not committed")


judge_app.callback(invoke_without_command=True)(_handler.guard(judge))
