"""``labelpool import trec|beir|jsonl``: judgments from elsewhere into label files."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from labelpool.cli import _lazy
from labelpool.cli._common import (
    RepoOption,
    WaitOption,
    check_format,
    check_wait,
    load_config,
    say,
    sub_app,
)
from labelpool.cli._progress import progress
from labelpool.words import noun

if TYPE_CHECKING:
    from labelpool.workflows.importing.labels import Judgments

import_app = sub_app(
    "import",
    "Create label files from TREC qrels, a BEIR folder or JSONL; write the corpus file.",
)

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
TextFieldOption = Annotated[
    str | None,
    typer.Option(
        "--text-field",
        help="JSON questions: the field holding the text (default: text, else query; "
        "CAsT topics: manual_rewritten_utterance, else raw_utterance).",
    ),
]


def _write(
    repo: Path | None,
    judged: Judgments,
    system: str,
    k: int | None,
    date: str | None,
    force: bool,
    wait: float = 0.0,
) -> None:
    workflow = _lazy.import_workflow
    cfg = load_config(repo)
    unanswered = judged.unanswered
    with progress("importing"):
        result = workflow.write_labels(
            cfg.labels_dir,
            judged.items,
            workflow.Provenance(system=system, k=k, date=date),
            force=force,
            unanswered=unanswered,
            origins=judged.origins,
            limits=workflow.limits_of(cfg),
            wait=wait,
        )
    say(f"imported {len(result.written)} question(s) into {_shown(cfg.labels_dir)}")
    say(
        f"{result.judgments} judged ({result.relevant} relevant), "
        f"{result.unjudged} pooled-unjudged"
        + (f"; overwrote {len(result.overwritten)}" if result.overwritten else "")
    )
    if unanswered:
        say(f"{unanswered} question(s) without judgments skipped")


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when it is under it (a shorter line)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@import_app.command("trec")
def import_trec(
    qrels: Annotated[Path, typer.Argument(help="TREC qrels: `qid iter doc grade` lines.")],
    queries: Annotated[
        Path,
        typer.Option(
            "--queries",
            help="Question texts: TSV qid<TAB>text, JSON Lines, a JSON list, TREC CAsT topics "
            "JSON, or TREC topics.",
        ),
    ],
    text_field: TextFieldOption = None,
    # shape kept: typer declares options per command (trec, beir, jsonl share these aliases)
    pool_system: SystemOption = "unknown",
    pool_k: KOption = None,
    pool_date: DateOption = None,
    force: ForceOption = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Import graded TREC qrels (>= 1 relevant, 0 irrelevant, < 0 pooled but unjudged)."""
    check_wait(wait)
    workflow = _lazy.import_workflow
    texts = workflow.read_queries(queries, text_field)
    judged = workflow.judgments(workflow.read_qrels(qrels), texts, qrels)
    _write(repo, judged, pool_system, pool_k, pool_date, force, wait)


@import_app.command("beir")
def import_beir(
    folder: Annotated[Path, typer.Argument(help="BEIR folder: queries.jsonl, qrels/<split>.tsv.")],
    split: Annotated[str, typer.Option("--split", help="The qrels split.")] = "test",
    text_field: TextFieldOption = None,
    pool_system: SystemOption = "unknown",
    pool_k: KOption = None,
    pool_date: DateOption = None,
    force: ForceOption = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Import a BEIR dataset folder's queries and qrels."""
    check_wait(wait)
    judged = _lazy.import_workflow.read_beir(folder, split, text_field)
    _write(repo, judged, pool_system, pool_k, pool_date, force, wait)


@import_app.command("jsonl")
def import_jsonl(
    file: Annotated[
        Path, typer.Argument(help="JSONL: id, question, relevant_doc_ids, judged_ids?")
    ],
    pool_system: SystemOption = "unknown",
    pool_k: KOption = None,
    pool_date: DateOption = None,
    force: ForceOption = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Import one question per JSON line (judged_ids defaults to the relevant ones)."""
    check_wait(wait)
    judged = _lazy.import_workflow.read_jsonl(file)
    _write(repo, judged, pool_system, pool_k, pool_date, force, wait)


class CorpusFormat(str, Enum):
    trec = "trec"
    jsonl = "jsonl"
    beir = "beir"


@import_app.command("corpus")
def import_corpus(
    source: Annotated[
        Path, typer.Argument(help="A TREC file or folder, a JSON Lines file, a BEIR folder.")
    ],
    fmt: Annotated[CorpusFormat, typer.Option("--format", help="The source's format.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace the corpus file if it exists.")
    ] = False,
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Write the configured corpus file ([tool.labelpool] corpus) as BEIR JSON Lines."""
    check_wait(wait)
    cfg = load_config(repo)
    done = _lazy.import_corpus.import_corpus(cfg, source, fmt.value, force=force, wait=wait)
    say(
        f"{'replaced' if done.replaced else 'wrote'} {_shown(done.path)}: "
        f"{done.documents:,} {noun(done.documents, 'document')}"
    )


@import_app.command("duplicates")
def import_duplicates(
    file: Annotated[
        Path,
        typer.Argument(help="A duplicate map: `canonical:dup1,dup2,...` lines or a TSV `a<TAB>b`."),
    ],
    prefix: Annotated[
        str, typer.Option("--prefix", help="Put before every id of the map (e.g. MARCO_).")
    ] = "",
    branch: Annotated[
        str | None,
        typer.Option("--branch", help="Branch name (default labelpool/duplicates-DATE)."),
    ] = None,
    no_commit: Annotated[
        bool, typer.Option("--no-commit", help="Write into the working tree only.")
    ] = False,
    fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    wait: WaitOption = 0.0,
    repo: RepoOption = None,
) -> None:
    """Propose the groups of a duplicate map as classes in the label files that name two of
    their ids, on a new branch (method duplicate-map, score 1.0): accepted in review as
    `classes propose`'s are. Ids no label names are counted, not written."""
    check_wait(wait)
    check_format(fmt, ("text", "json"))
    cfg = load_config(repo)
    result = _lazy.duplicates_workflow.import_duplicates(
        cfg, file, prefix=prefix, branch=branch, commit=not no_commit, wait=wait
    )
    report = _lazy.classes_report
    if fmt == "json":
        print(report.duplicates_json(result))
    else:
        print(report.duplicates_text(result), end="")
