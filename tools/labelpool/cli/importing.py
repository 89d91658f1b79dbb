"""``labelpool import trec|beir|jsonl``: judgments from elsewhere into label files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import RepoOption, load_config, say, sub_app
from labelpool.cli._progress import progress

if TYPE_CHECKING:
    from labelpool.workflows.importing import Imported

import_app = sub_app("import", "Create label files from TREC qrels, a BEIR folder or JSONL.")

SystemOption = Annotated[
    str, typer.Option("--pool-system", help="System whose top k was judged (default: unknown).")
]
KOption = Annotated[
    int | None,
    typer.Option(
        "--pool-depth", "--pool-k", help="Pool depth (default: null; --pool-k: 0.1.0's name)."
    ),
]
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
    workflow = _lazy.import_workflow
    cfg = load_config(repo)
    with progress("importing"):
        result = workflow.write_labels(
            cfg.labels_dir,
            items,
            workflow.Provenance(system=system, k=k, date=date),
            force=force,
            unanswered=unanswered,
        )
    say(
        f"imported {len(result.written)} question(s) into {cfg.labels_dir}: "
        f"{result.judgments} judged ({result.relevant} relevant), "
        f"{result.unjudged} pooled-unjudged"
        + (f"; overwrote {len(result.overwritten)}" if result.overwritten else "")
        + (f"; {unanswered} question(s) without judgments skipped" if unanswered else "")
    )


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
    workflow = _lazy.import_workflow
    texts = workflow.read_queries(queries)
    rows = workflow.read_qrels(qrels)
    items = workflow.from_rows(rows, texts, qrels)
    unanswered = len(set(texts) - {i.id for i in items})
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
    items, unanswered = _lazy.import_workflow.read_beir(folder, split)
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
    items = _lazy.import_workflow.read_jsonl(file)
    _write(repo, items, pool_system, pool_k, pool_date, force)
