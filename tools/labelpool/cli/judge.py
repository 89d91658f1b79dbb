"""``labelpool judge``: a local page to judge a pending batch with the keyboard; with
``--machine NAME``, the batch's pending verdicts filled by a machine judge (no page)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    RepoOption,
    app,
    check_at_least,
    load_config,
    say,
    usage_error,
    warn,
)
from labelpool.cli._progress import progress
from labelpool.machine.protocol import Reply
from labelpool.words import counted


@app.command("judge")
def judge(
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
    machine: Annotated[
        str | None,
        typer.Option(
            "--machine",
            help="Fill the batch's pending verdicts with the machine judge judges/NAME.yaml "
            "(no page).",
        ),
    ] = None,
    max_docs: Annotated[
        int | None,
        typer.Option("--max-docs", help="With --machine: judge at most N documents."),
    ] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", help="With --machine: requests in flight at most.")
    ] = 4,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="With --machine: print the first document's prompt; ask nothing."
        ),
    ] = False,
    repo: RepoOption = None,
) -> None:
    """Serve a local page that judges the pending documents of a batch, one at a time."""
    if machine is not None:
        _machine(machine, batch, question, max_docs, concurrency, dry_run, repo)
        return
    if max_docs is not None or dry_run:
        usage_error("--max-docs and --dry-run go with --machine NAME")
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


def _machine(
    name: str,
    batch: str | None,
    question: str | None,
    max_docs: int | None,
    concurrency: int,
    dry_run: bool,
    repo: Path | None,
) -> None:
    """``judge --machine NAME``: plan, ask, write, commit, say what happened."""
    if max_docs is not None:
        check_at_least("--max-docs", max_docs, 1)
    check_at_least("--concurrency", concurrency, 1)
    cfg = load_config(repo)
    flow = _lazy.judge_machine
    judge = _lazy.machine_definition.load(cfg.root, name, cfg.judges_folder)
    plan = flow.plan(cfg, judge.identity, batch, max_docs, question)
    if dry_run:
        if plan is None or not plan.tasks:
            say("labelpool judge --machine: nothing pending")
            return
        say(f"# {judge.identity}: the request for {plan.tasks[0].qid} {plan.tasks[0].doc}")
        say(flow.prompt_of(judge, plan.tasks[0]))
        return
    if plan is None:
        sha, n = flow.commit_left(cfg, judge, batch)
        if sha is not None:
            say(f"labelpool judge --machine: committed {counted(n, 'verdict')} ({sha[:12]})")
        say("labelpool judge --machine: nothing pending")
        return
    for doc in plan.no_text[:5]:
        warn(f"{doc}: no text in the corpus or the batch; left pending")
    backend = flow.backend_of(judge, cfg.root)
    start = time.monotonic()
    done = 0
    cost = 0.0
    meter = progress("judging", len(plan.tasks))
    try:
        with meter as advance:

            def on_reply(reply: Reply) -> None:
                nonlocal done, cost
                done += 1
                cost += reply.cost
                advance()
                rate = done / max(time.monotonic() - start, 1e-6)
                meter.describe(f"judging: {rate:.1f}/s, {cost:,.0f} tokens")

            result = flow.run(cfg, judge, backend, plan, concurrency=concurrency, on_reply=on_reply)
    finally:
        backend.close()
    say(
        f"labelpool judge --machine: {result.identity} on batch {result.batch}: "
        f"{counted(result.written, 'verdict')} written, {result.noted} can't judge, "
        f"{result.failed} without an answer (asked {result.asked}, from the cache "
        f"{result.cached}, {result.cost:,.0f} tokens)"
    )
    if result.commit is not None:
        say(
            f"committed {counted(result.committed, 'verdict')} as the machine "
            f"({result.commit[:12]})"
        )
    if result.failed:
        warn(f"{counted(result.failed, 'document')} got no answer: run again to ask again")
        raise typer.Exit(1)
