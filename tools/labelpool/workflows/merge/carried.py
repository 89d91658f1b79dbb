"""``labelpool merge``, the verdicts classes carried: recorded once their batch is resolved.

A batch ``pool`` wrote names under ``carried:`` the documents of the pooled union that an
accepted class judges already, each with the judged member whose verdict the class carries
(:mod:`labelpool.workflows.pool.carry`). When a merge resolves such a batch (it leaves the
file), each of those documents gets its line ``{class: MEMBER, verdict: V}`` in
``verdicts``, in one commit after the judges' (authored by whoever runs the merge: nobody
judged these documents; the line names the member the verdict came from). Every file the
merge changes also has its carried lines brought back to their classes (a fold that changed a
member's grade, or took it out of its class: :func:`labelpool.workflows.pool.carry.refresh`),
so that merge never writes a line LP063 refuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import batch as batch_mod
from labelpool import words, yamlfile
from labelpool.workflows.merge.collect import read_label
from labelpool.workflows.merge.fold import Judge
from labelpool.workflows.pool import carry

__all__ = ["Carried", "before", "message", "record"]

# path -> ((batch, seat), {document: member}) of every batch that names carried documents
Before = dict[Path, list[tuple[tuple[str, int | None], Mapping[str, str]]]]


@dataclass(frozen=True)
class Carried:
    """The new text of each label file whose carried verdicts merge records or refreshes."""

    texts: Mapping[Path, str]
    recorded: int  # lines written for the documents of resolved batches


def before(batches: Mapping[Path, Sequence[batch_mod.PendingBatch]]) -> Before:
    """What the batches as read name under ``carried:`` (kept before the fold reads them)."""
    out: Before = {}
    for path, bs in batches.items():
        named = [(b.key, b.carried) for b in bs if b.carried]
        if named:
            out[path] = named
    return out


def record(named: Before, texts: Mapping[Path, str], touched: Sequence[Path]) -> Carried:
    """The carried verdicts of the batches of ``named`` that ``texts`` (each file's text after
    the fold) no longer holds, and the refreshed lines of the files in ``touched``."""
    out: dict[Path, str] = {}
    recorded = 0
    for path in sorted(set(named) | {p for p in touched if "{class: " in texts[p]}):
        text = texts[path]
        left = {b.key for b in read_label(path, text)[2]} if "\npending:" in text else set()
        docs = {d: m for key, c in named.get(path, ()) if key not in left for d, m in c.items()}
        if not docs and "{class: " not in text:
            continue
        tree = yamlfile.loads_roundtrip(text, path)
        written = carry.record(tree, docs.items())
        refreshed = carry.refresh(tree)
        if not written and not refreshed:
            continue
        new = yamlfile.dumps(tree, path=path)
        yamlfile.loads_written(new, path)  # never write a file that would not read back
        recorded += written
        out[path] = new
    return Carried(out, recorded)


def after(
    named: Before, base: Mapping[Path, str], steps: Iterable[Any], me: Judge
) -> list[tuple[Judge, tuple[()], Mapping[Path, str], int, int, int]]:
    """:func:`record` after the fold ``steps`` (in order; each ``changed``: path -> text) of
    the texts ``base``: the one step of the verdicts classes carried, as (author, decisions,
    texts, batches completed, classes accepted, verdicts recorded), authored by whoever
    merges (``me``, as committed); none when nothing changes."""
    changes = [s.changed for s in steps]
    texts = {**base, **{p: t for c in changes for p, t in c.items()}}
    found = record(named, texts, sorted({p for c in changes for p in c}))
    author = Judge(me.name, me.email)
    return [(author, (), found.texts, 0, 0, found.recorded)] if found.texts else []


def message(recorded: int, files: int) -> str:
    """The commit message of the carried verdicts."""
    return (
        f"labelpool merge: {words.counted(recorded, 'verdict')} carried by classes\n\n"
        f"Documents the pooled batches named as judged through an accepted class: each "
        f"records the verdict of the class's judged member it came from "
        f"(`{{class: MEMBER, verdict: V}}`) in {words.counted(files, 'label file')}. "
        "Nobody judged them; scoring gives them their class's grade.\n"
    )
