"""Render :class:`~labelpool.workflows.classes.propose.ProposeResult` (``classes propose``)
and the duplicate-map import's result: text and JSON; every name from a file sanitised."""

from __future__ import annotations

import textwrap

from labelpool.render import sanitize
from labelpool.words import counted
from labelpool.workflows.classes.propose import MAX_JOINING, ProposeResult, joins
from labelpool.workflows.importing.duplicates import DuplicatesResult

__all__ = ["duplicates_json", "duplicates_text", "render_json", "text"]


def _wrapped(line: str, width: int | None, indent: str, more: str) -> list[str]:
    """``line`` sanitised, at most ``width`` wide (None: one line), words never cut."""
    line = sanitize.text(line)
    if width is None:
        return [indent + line]
    return textwrap.wrap(
        line,
        width=width,
        initial_indent=indent,
        subsequent_indent=more,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent]


def text(result: ProposeResult, verbose: bool = False, width: int | None = None) -> str:
    """What was proposed (each proposal: its question and members, then its method, score
    and differing words), what was set aside, and where it was written; at ``width``."""
    lines = [
        f"compared {counted(result.documents, 'document')} in "
        f"{counted(result.questions, 'question')}: "
        f"{counted(len(result.proposals), 'class', 'classes')} proposed"
        + (f" ({result.extends} extending a class)" if result.extends else ""),
    ]
    for p in result.proposals:
        joining = [f"{p.joining} from the corpus"] if p.joining else []
        joining += [f"+{p.unnamed} in the corpus, not named"] if p.unnamed else []
        said = f" ({'; '.join(joining)})" if joining else ""
        lines += _wrapped(
            f"{p.question}: {', '.join(p.members)}{joins(p)}{said}", width, "  ", "    "
        )
        differs = p.differs or "(nothing: the same words)"
        pair = f"{p.matched} and {p.extends} " if p.extends is not None else ""
        lines += _wrapped(
            f"{p.method} {p.score:.2f}; {pair}differ in: {differs}", width, "    ", "    "
        )
    lines.append(f"version pairs set aside: {result.version_pairs}")
    if result.refused:
        lines.append(f"unions not made (they would join two versions): {result.refused}")
    if result.overlapping:
        lines.append(f"left out, adding to a proposal waiting for review: {result.overlapping}")
    if result.crowded:
        lines.append(
            f"classes of more than {MAX_JOINING} corpus documents (boilerplate), those not "
            f"named: {result.crowded}"
        )
    if result.skipped:
        lines.append(f"documents skipped (no text, or an id no label holds): {len(result.skipped)}")
        if verbose:
            lines += [f"  {q or '-'}: {d}: {r}" for q, d, r in result.skipped]
    w = result.written
    if w.branch:
        lines.append(f"branch: {w.branch}")
    if w.commit:
        lines.append(f"commit: {w.commit}")
    elif w.files:
        lines.append(f"wrote {counted(len(w.files), 'label file')} (not committed)")
    return "\n".join(sanitize.text(line) for line in lines) + "\n"


def render_json(result: ProposeResult) -> str:
    return sanitize.json_dumps(result.to_dict())


def duplicates_text(result: DuplicatesResult) -> str:
    """``import duplicates``: the proposals, what was counted and left out, where written."""
    lines = [
        f"duplicate map: {counted(result.ids, 'id')} in {counted(result.groups, 'group')}; "
        f"ids no label names: {result.outside}",
        f"{counted(len(result.proposals), 'class', 'classes')} proposed"
        + (f" ({result.extends} extending a class)" if result.extends else ""),
    ]
    lines += [f"  {p.question}: {', '.join(p.members)}" + joins(p) for p in result.proposals]
    if result.overlapping:
        lines.append(f"left out, overlapping a proposal or two classes: {result.overlapping}")
    if result.version_pairs:
        lines.append(f"left out, two versions of one document: {result.version_pairs}")
    w = result.written
    if w.branch:
        lines.append(f"branch: {w.branch}")
    if w.commit:
        lines.append(f"commit: {w.commit}")
    elif w.files:
        lines.append(f"wrote {counted(len(w.files), 'label file')} (not committed)")
    return "\n".join(sanitize.text(line) for line in lines) + "\n"


def duplicates_json(result: DuplicatesResult) -> str:
    return sanitize.json_dumps(result.to_dict())
