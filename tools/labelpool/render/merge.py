"""Render a :class:`~labelpool.workflows.merge.commits.MergeResult` as the lines ``merge``
prints (every name from a file or from git sanitised).

The default output is counts: the verdicts folded by each judge, then one line for the entries
still pending, counted by batch (``still pending: 767 entries in 2 batches: 2026-12-04-a (700),
2026-12-05-b (67); --verbose lists them``). Entries holding a verdict that could not be folded
yet (a ``duplicate-of`` a document not judged relevant) are listed with their reason even
without ``--verbose``: someone wrote them and must act on them. ``--verbose`` lists every
pending entry (``path:line:1: question doc (batch): reason``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from labelpool.render import sanitize
from labelpool.render.layout import wrap
from labelpool.words import counted
from labelpool.workflows.merge.collect import UNKNOWN_TO_ORACLE, Unresolved
from labelpool.workflows.merge.commits import JudgeCommit, MergeResult

__all__ = [
    "BATCHES_SHOWN",
    "NO_VERDICT",
    "dispute_lines",
    "judge_lines",
    "oracle_line",
    "pending_lines",
]

NO_VERDICT = "no verdict yet"  # the reason of an entry nobody judged (merge's collect)
BATCHES_SHOWN = 6  # batches named on the summary line; the rest are counted together
_WAITING = (NO_VERDICT, UNKNOWN_TO_ORACLE)  # reasons of entries without a verdict to fold


def judge_lines(commits: Sequence[JudgeCommit]) -> list[str]:
    """Two lines per judge (verdicts, commit; the split by kind and files), or ``nothing to
    merge``."""
    if not commits:
        return ["nothing to merge"]
    lines: list[str] = []
    for c in commits:
        total = c.relevant + c.irrelevant + c.duplicates
        where = f"commit {c.commit[:12]}" if c.commit else "not committed"
        if c.carried is not None:
            recorded = counted(c.carried, "verdict", "verdicts")
            lines.append(f"carried by classes: {recorded} recorded, {where}")
            files = counted(len(c.files), "file", "files")
            lines.append(f"  written as `{{class: MEMBER, verdict: V}}` lines; {files}")
            continue
        if c.accepted:
            accepted = counted(c.accepted, "proposed class", "proposed classes")
            lines.append(f"{sanitize.text(c.judge)}: {accepted} accepted, {where}")
            lines.append(f"  written as classes; {counted(len(c.files), 'file', 'files')}")
            continue
        lines.append(f"{sanitize.text(c.judge)}: {counted(total, 'verdict', 'verdicts')}, {where}")
        lines.append(
            f"  {c.relevant} relevant, {c.irrelevant} irrelevant, {c.duplicates} duplicates; "
            f"{counted(len(c.files), 'file', 'files')}"
        )
    return lines


def _by_batch(unresolved: Sequence[Unresolved]) -> str:
    counts = Counter(u.batch for u in unresolved)
    names = sorted(counts)  # batch names start with their date: oldest first
    shown = [f"{sanitize.text(b)} ({counts[b]})" for b in names[:BATCHES_SHOWN]]
    rest = names[BATCHES_SHOWN:]
    if rest:
        n = sum(counts[b] for b in rest)
        shown.append(f"{counted(len(rest), 'other batch', 'other batches')} ({n})")
    return ", ".join(shown)


def pending_lines(
    unresolved: Sequence[Unresolved], *, verbose: bool, width: int | None = None
) -> list[str]:
    """``still pending: N entries in B batches: NAME (n), ...`` (wrapped at ``width``, the
    lines after the first indented) and, below it, every entry (``verbose``) or the entries
    whose verdict could not be folded yet; nothing when none."""
    if not unresolved:
        return []
    batches = len({u.batch for u in unresolved})
    head = (
        f"still pending: {counted(len(unresolved), 'entry', 'entries')} in "
        f"{counted(batches, 'batch', 'batches')}: {_by_batch(unresolved)}"
    )
    if verbose:
        return [*wrap(f"{head}:", width), *(f"  {sanitize.text(u)}" for u in unresolved)]
    stuck = [u for u in unresolved if u.reason not in _WAITING]
    if not stuck:
        return wrap(f"{head}; --verbose lists them", width)
    return [
        *wrap(f"{head}; --verbose lists them all", width),
        f"  {counted(len(stuck), 'entry holds', 'entries hold')} a verdict that cannot be "
        "folded yet:",
        *(f"  {sanitize.text(u)}" for u in stuck),
    ]


def oracle_line(result: MergeResult, *, committed: bool) -> str:
    """The last line of ``merge --oracle``: what was merged, and what stays pending and why.
    With an oracle every empty verdict is filled or unknown to it: the other entries left hold
    a verdict that cannot be folded yet, which :func:`pending_lines` always lists."""
    n = result.folded
    commits = len(result.commits)
    where = f"in {counted(commits, 'commit', 'commits')}" if committed else "(not committed)"
    line = f"merged {counted(n, 'verdict', 'verdicts')} {where}"
    unknown = result.unknown_to_oracle
    if unknown:
        line += (
            f"; {counted(unknown, 'document', 'documents')} unknown to the oracle "
            f"{_stay(unknown)} pending (--oracle-missing irrelevant to count them as judged "
            "irrelevant)"
        )
    stuck = sum(1 for u in result.unresolved if u.reason not in _WAITING)
    if stuck:
        line += f"; {counted(stuck, 'other entry', 'other entries')} {_stay(stuck)} pending"
        line += " (listed above)"
    return line


def _stay(n: int) -> str:
    return "stays" if n == 1 else "stay"


def dispute_lines(
    disputes: Sequence[tuple[str, str]], *, verbose: bool, width: int | None = None
) -> list[str]:
    """``new disputes: N documents in M questions`` (wrapped at ``width``; and, ``verbose``,
    one line each: ``  question: document``); nothing when the merge made none."""
    if not disputes:
        return []
    questions = len({q for q, _ in disputes})
    head = (
        f"new disputes: {counted(len(disputes), 'document', 'documents')} in "
        f"{counted(questions, 'question', 'questions')} (`labelpool pool --adjudicate` "
        "makes the batch that settles them)"
    )
    if not verbose:
        return wrap(head + "; --verbose lists them", width)
    return [
        *wrap(head + ":", width),
        *(f"  {sanitize.text(q)}: {sanitize.text(d)}" for q, d in disputes),
    ]
