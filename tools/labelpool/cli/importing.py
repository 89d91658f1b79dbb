"""``labelpool import trec|beir|jsonl``: judgments from elsewhere into label files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from labelpool.cli._common import EXIT_FINDINGS, EXIT_USAGE, RepoOption, app, fail, load_config

if TYPE_CHECKING:
    from labelpool.workflows.importing import Imported

T = TypeVar("T")

import_app = typer.Typer(
    name="import",
    help="Create label files from TREC qrels, a BEIR folder or JSONL.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(import_app, name="import")

SystemOption = Annotated[
    str, typer.Option("--pool-system", help="System whose top k was judged (default: unknown).")
]
KOption = Annotated[int | None, typer.Option("--pool-k", help="Pool depth k (default: null).")]
DateOption = Annotated[
    str | None, typer.Option("--pool-date", help="Date judged, YYYY-MM-DD (default: null).")
]
ForceOption = Annotated[
    bool, typer.Option("--force", help="Overwrite label files that exist already.")
]


def _write(
    repo: Path | None,
    items: list[Imported],
    system: str,
    k: int | None,
    date: str | None,
    force: bool,
    unanswered: int = 0,
) -> None:
    from labelpool.workflows.importing import ImportFailed, Provenance, write_labels

    cfg = load_config(repo)
    try:
        result = write_labels(
            cfg.labels_dir,
            items,
            Provenance(system=system, k=k, date=date),
            force=force,
            unanswered=unanswered,
        )
    except ImportFailed as exc:
        fail(f"error: {exc}", EXIT_USAGE if exc.usage else EXIT_FINDINGS)
    print(
        f"imported {len(result.written)} question(s) into {cfg.labels_dir}: "
        f"{result.judgments} judged ({result.relevant} relevant), "
        f"{result.unjudged} pooled-unjudged"
        + (f"; overwrote {len(result.overwritten)}" if result.overwritten else "")
        + (f"; {unanswered} question(s) without judgments skipped" if unanswered else "")
    )


def _run(reader: Callable[[], T]) -> T:
    from labelpool.workflows.importing import ImportFailed

    try:
        return reader()
    except ImportFailed as exc:
        fail(f"error: {exc}", EXIT_USAGE if exc.usage else EXIT_FINDINGS)


@import_app.command("trec")
def import_trec(
    qrels: Annotated[Path, typer.Argument(help="TREC qrels: `qid iter doc grade` lines.")],
    queries: Annotated[
        Path,
        typer.Option("--queries", help="Question texts: TSV qid<TAB>text, JSONL, or TREC topics."),
    ],
    pool_system: SystemOption = "unknown",
    pool_k: KOption = None,
    pool_date: DateOption = None,
    force: ForceOption = False,
    repo: RepoOption = None,
) -> None:
    """Import graded TREC qrels (>= 1 relevant, 0 irrelevant, < 0 pooled but unjudged)."""
    from labelpool.workflows import importing

    def read() -> tuple[list[Imported], int]:
        texts = importing.read_queries(queries)
        rows = importing.read_qrels(qrels)
        items = importing.from_rows(rows, texts, qrels)
        return items, len(set(texts) - {i.id for i in items})

    items, unanswered = _run(read)
    _write(repo, items, pool_system, pool_k, pool_date, force, unanswered)


@import_app.command("beir")
def import_beir(
    folder: Annotated[Path, typer.Argument(help="BEIR folder: queries.jsonl, qrels/<split>.tsv.")],
    split: Annotated[str, typer.Option("--split", help="The qrels split.")] = "test",
    pool_system: SystemOption = "unknown",
    pool_k: KOption = None,
    pool_date: DateOption = None,
    force: ForceOption = False,
    repo: RepoOption = None,
) -> None:
    """Import a BEIR dataset folder's queries and qrels."""
    from labelpool.workflows import importing

    items, unanswered = _run(lambda: importing.read_beir(folder, split))
    _write(repo, items, pool_system, pool_k, pool_date, force, unanswered)


@import_app.command("jsonl")
def import_jsonl(
    file: Annotated[
        Path, typer.Argument(help="JSONL: id, question, relevant_doc_ids, judged_ids?")
    ],
    pool_system: SystemOption = "unknown",
    pool_k: KOption = None,
    pool_date: DateOption = None,
    force: ForceOption = False,
    repo: RepoOption = None,
) -> None:
    """Import one question per JSON line (judged_ids defaults to the relevant ones)."""
    from labelpool.workflows import importing

    items = _run(lambda: importing.read_jsonl(file))
    _write(repo, items, pool_system, pool_k, pool_date, force)
