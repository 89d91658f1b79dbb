"""The label history panel: judgments over time by judge, and the batches merged, from git.

Read from ``git log`` of the labels folder (one call). A commit of ``labelpool merge`` says in
its subject how many verdicts it folded in and from which batches (``labelpool merge: N
verdicts by JUDGE (batch, ...)``); any other commit counts as one change by its author.
Outside git, or in a shallow clone (whose oldest commit stands for all the history before
it), the panel says so in words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from labelpool import gitio
from labelpool.config import Config

NOT_GIT = "not a git repository: no label history"
SHALLOW = (
    "shallow clone: the history before the oldest commit fetched is missing "
    "(fetch with fetch-depth: 0 for all of it)"
)
# "1 verdict by" since 0.2.0 (0.1.0 wrote "1 verdicts by")
_MERGE = re.compile(r"^labelpool merge: (\d+) verdicts? by (.+?)(?: \((.*)\))?$")


@dataclass(frozen=True)
class Day:
    day: str  # YYYY-MM-DD (the author's date)
    judge: str  # the commit's author
    commits: int
    verdicts: int  # verdicts merged by ``labelpool merge`` that day


# shape kept: dataclass fields, like audit/poolinfo's PoolInfo (no shared logic)
@dataclass(frozen=True)
class Merge:
    day: str
    judge: str
    verdicts: int
    batches: tuple[str, ...]
    commit: str


@dataclass(frozen=True)
class Timeline:
    note: str | None  # NOT_GIT, SHALLOW or None
    days: tuple[Day, ...] = ()  # oldest first
    merges: tuple[Merge, ...] = ()  # oldest first


def timeline(cfg: Config) -> Timeline:
    """The history of ``cfg``'s labels folder."""
    top = gitio.toplevel(cfg.root)
    if top is None or gitio.head_commit(cfg.root) is None:
        return Timeline(NOT_GIT)
    note = SHALLOW if gitio.is_shallow(cfg.root) else None
    labels = _relative(cfg.labels_dir, top)
    commits = gitio.log(top, labels, reverse=True)
    counts: dict[tuple[str, str], list[int]] = {}
    merges = []
    for c in commits:
        day = c.author_date[:10]
        found = _MERGE.match(c.subject)
        verdicts = int(found.group(1)) if found else 0
        row = counts.setdefault((day, c.author), [0, 0])
        row[0] += 1
        row[1] += verdicts
        if found:
            batches = tuple(b.strip() for b in (found.group(3) or "").split(",") if b.strip())
            merges.append(Merge(day, c.author, verdicts, batches, c.commit))
    days = tuple(Day(d, j, n, v) for (d, j), (n, v) in sorted(counts.items()))
    return Timeline(note, days, tuple(merges))


def _relative(path: Path, top: Path) -> str:
    try:
        return path.resolve().relative_to(top.resolve()).as_posix() or "."
    except ValueError:
        return str(path)
