"""Render a :class:`~labelpool.workflows.audit.diff.SetDiff` as text, JSON or markdown.

JSON shape (stable; keys are only ever added). Grades: 0 judged irrelevant, >= 1 relevant::

    {"from": REV, "to": REV | "working tree", "changed": BOOL,
     "summary": {"questions_added", "questions_removed", "questions_changed",
                 "judgments_added", "judgments_removed", "flips", "grades_changed",
                 "pool_added", "pool_removed", "pending_opened", "pending_closed": INT},
     "questions_added":   [{"question": ID, "judgments": INT}],
     "questions_removed": [{"question": ID, "judgments": INT}],
     "questions": [{"question": ID,
                    "text": {"before": STR, "after": STR} | null,
                    "judgments_added":   [{"doc", "grade"}],
                    "judgments_removed": [{"doc", "grade"}],
                    "flips":          [{"doc", "before", "after"}],   # grades
                    "grades_changed": [{"doc", "before", "after"}],
                    "classes_created": [[DOC, ...]], "classes_removed": [[DOC, ...]],
                    "classes_merged":  [{"from": [[DOC, ...], ...], "to": [DOC, ...]}],
                    "classes_split":   [{"from": [DOC, ...], "to": [[DOC, ...], ...]}],
                    "classes_changed": [{"from": [DOC, ...], "to": [DOC, ...]}],
                    "pool_added":   [{"system", "k", "date", "run"}],
                    "pool_removed": [{"system", "k", "date", "run"}],
                    "pending_opened": [{"batch", "docs": INT}],
                    "pending_closed": [{"batch", "docs": INT}],
                    "pending_changed": [{"batch", "doc", "before", "after"}],
                    "unjudged_added": [DOC], "unjudged_removed": [DOC]}],
     "scores": [{"run", "measure", "before", "after", "change",
                 "unjudged_before", "unjudged_after"}]}      # only with --scores
"""

from __future__ import annotations

import shlex
from typing import Any

from labelpool.model import PoolEntry
from labelpool.render import sanitize
from labelpool.render.fields import pick
from labelpool.render.sanitize import markdown as md
from labelpool.render.sanitize import measure_name
from labelpool.words import counted
from labelpool.workflows.audit.diff import Changed, QuestionDiff, ScoreChange, SetDiff
from labelpool.workflows.audit.revisions import WORKTREE


def _pool(p: PoolEntry) -> dict[str, Any]:
    return {"system": p.system, "k": p.k, "date": p.date, "run": p.run}


def _changed(c: Changed) -> dict[str, Any]:
    return {"doc": c.doc, "before": c.before, "after": c.after}


def question_json(q: QuestionDiff) -> dict[str, Any]:
    return {
        "question": q.question,
        "text": None
        if q.text_before == q.text_after
        else {"before": q.text_before, "after": q.text_after},
        "judgments_added": [{"doc": c.doc, "grade": c.after} for c in q.judgments_added],
        "judgments_removed": [{"doc": c.doc, "grade": c.before} for c in q.judgments_removed],
        "flips": [_changed(c) for c in q.flips],
        "grades_changed": [_changed(c) for c in q.grades_changed],
        "classes_created": [list(c) for c in q.classes_created],
        "classes_removed": [list(c) for c in q.classes_removed],
        "classes_merged": [
            {"from": [list(c) for c in src], "to": list(dst)} for src, dst in q.classes_merged
        ],
        "classes_split": [
            {"from": list(src), "to": [list(c) for c in dst]} for src, dst in q.classes_split
        ],
        "classes_changed": [{"from": list(s), "to": list(d)} for s, d in q.classes_changed],
        "pool_added": [_pool(p) for p in q.pool_added],
        "pool_removed": [_pool(p) for p in q.pool_removed],
        "pending_opened": [{"batch": b, "docs": n} for b, n in q.pending_opened],
        "pending_closed": [{"batch": b, "docs": n} for b, n in q.pending_closed],
        "pending_changed": [{"batch": b, **_changed(c)} for b, c in q.pending_changed],
        "unjudged_added": list(q.unjudged_added),
        "unjudged_removed": list(q.unjudged_removed),
    }


def summary(d: SetDiff) -> dict[str, int]:
    def total(name: str) -> int:
        return sum(len(getattr(q, name)) for q in d.questions)

    return {
        "questions_added": len(d.questions_added),
        "questions_removed": len(d.questions_removed),
        "questions_changed": len(d.questions),
        "judgments_added": total("judgments_added"),
        "judgments_removed": total("judgments_removed"),
        "flips": total("flips"),
        "grades_changed": total("grades_changed"),
        "pool_added": total("pool_added"),
        "pool_removed": total("pool_removed"),
        "pending_opened": total("pending_opened"),
        "pending_closed": total("pending_closed"),
    }


SCORE_FIELDS = ("run", "measure", "before", "after", "change", "unjudged_before", "unjudged_after")


def _score(s: ScoreChange) -> dict[str, Any]:
    return pick(s, SCORE_FIELDS)


def to_json(d: SetDiff) -> dict[str, Any]:
    return {
        "from": d.rev_from,
        "to": d.rev_to,
        "changed": not d.empty,
        "summary": summary(d),
        "questions_added": [
            {"question": q.question, "judgments": q.judgments} for q in d.questions_added
        ],
        "questions_removed": [
            {"question": q.question, "judgments": q.judgments} for q in d.questions_removed
        ],
        "questions": [question_json(q) for q in d.questions],
        "scores": [_score(s) for s in d.scores],
    }


# --------------------------------------------------------------------------- text lines


def grade_text(grade: Any) -> str:
    if grade is None:
        return "none"
    if isinstance(grade, int) and not isinstance(grade, bool):
        return "irrelevant" if grade == 0 else f"relevant (grade {grade})"
    if isinstance(grade, dict) and "duplicate-of" in grade:
        return f"duplicate-of {grade['duplicate-of']}"
    return str(grade)


def _pool_text(p: PoolEntry) -> str:
    run = f" run {p.run[:10]}" if p.run else ""
    return f"{p.system}@{p.k} on {p.date}{run}"


def _cls(c: tuple[str, ...]) -> str:
    return "[" + ", ".join(c) + "]"


def question_lines(q: QuestionDiff) -> list[str]:
    """One line per change, each starting with + (added), - (removed) or ~ (changed)."""
    out = []
    if q.text_before != q.text_after:
        out.append(f"~ question text: {q.text_before!r} -> {q.text_after!r}")
    out += [f"+ judged {c.doc}: {grade_text(c.after)}" for c in q.judgments_added]
    out += [f"- judgment removed {c.doc}: was {grade_text(c.before)}" for c in q.judgments_removed]
    out += [f"~ flipped {c.doc}: {grade_text(c.before)} -> {grade_text(c.after)}" for c in q.flips]
    out += [f"~ grade {c.doc}: {c.before} -> {c.after}" for c in q.grades_changed]
    out += [f"+ class created {_cls(c)}" for c in q.classes_created]
    out += [f"- class removed {_cls(c)}" for c in q.classes_removed]
    out += [
        f"~ classes merged {' + '.join(_cls(c) for c in src)} -> {_cls(dst)}"
        for src, dst in q.classes_merged
    ]
    out += [
        f"~ class split {_cls(src)} -> {' + '.join(_cls(c) for c in dst)}"
        for src, dst in q.classes_split
    ]
    out += [f"~ class changed {_cls(s)} -> {_cls(d)}" for s, d in q.classes_changed]
    out += [f"+ pool {_pool_text(p)}" for p in q.pool_added]
    out += [f"- pool {_pool_text(p)}" for p in q.pool_removed]
    out += [f"+ pending batch {b} opened ({counted(n, 'document')})" for b, n in q.pending_opened]
    out += [f"- pending batch {b} closed ({counted(n, 'document')})" for b, n in q.pending_closed]
    out += [
        f"~ pending {b} {c.doc}: {grade_text(c.before)} -> {grade_text(c.after)}"
        for b, c in q.pending_changed
    ]
    out += [f"+ pooled, not judged {d}" for d in q.unjudged_added]
    out += [f"- pooled, not judged {d}" for d in q.unjudged_removed]
    return out


def _summary_text(d: SetDiff) -> str:
    """``1 question changed, 3 judgments added, ...``: each count of :func:`summary` that is
    not zero, its noun singular for one."""
    parts = []
    for key, n in summary(d).items():
        if n:
            plural, _, verb = key.partition("_")  # "questions", "added"; "flips", ""
            singular = plural[:-1] if plural.endswith("s") else plural
            parts.append(f"{counted(n, singular, plural)} {verb}".rstrip())
    return ", ".join(parts) if parts else "no semantic change"


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.4f}"


def _signed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.4f}"


def render_text(d: SetDiff, verbose: bool = True) -> str:
    """The summary first, then (with ``--scores``) how each run's scores move; each question's
    changes follow when ``verbose`` (always without ``--scores``: they are the diff)."""
    out = [f"labels {d.rev_from} -> {d.rev_to}: {_summary_text(d)}"]
    if d.scores:
        out.append("scores (unjudged rate at 10 in brackets):")
        for s in d.scores:
            out.append(
                f"  {s.run} {s.measure}: {_fmt(s.before)} [{_fmt(s.unjudged_before)}] -> "
                f"{_fmt(s.after)} [{_fmt(s.unjudged_after)}] ({_signed(s.change)})"
            )
    details = bool(d.questions_added or d.questions_removed or d.questions)
    if verbose or not d.scores:
        out += [f"+ question {q.question} ({q.judgments} judged)" for q in d.questions_added]
        out += [f"- question {q.question} ({q.judgments} judged)" for q in d.questions_removed]
        for q in d.questions:
            out.append(f"{q.question}:")
            out += ["  " + line for line in question_lines(q)]
    elif details:
        n = len(d.questions_added) + len(d.questions_removed) + len(d.questions)
        out.append(f"--verbose lists the changes of {counted(n, 'question')}")
    # every line: names shown escaped, no line starting a workflow command
    return sanitize.joined(out) + "\n"


# --------------------------------------------------------------------------- markdown

MAX_MARKDOWN_ROWS = 500  # a job summary holds at most 1 MiB; a big batch lists thousands


def rerun_command(d: SetDiff) -> str:
    """The ``labelpool diff`` command that shows every change of ``d``, as printed runnable."""
    revs = [d.rev_from] if d.rev_to == WORKTREE else [d.rev_from, d.rev_to]
    return "labelpool diff " + " ".join(shlex.quote(r) for r in revs)


def render_markdown(d: SetDiff, max_rows: int = MAX_MARKDOWN_ROWS) -> str:
    rev_from, rev_to = sanitize.code_span(d.rev_from), sanitize.code_span(d.rev_to)
    out = [f"### Label changes: `{rev_from}` → `{rev_to}`", ""]
    out.append(md(_summary_text(d)))
    out.append("")
    if d.questions_added or d.questions_removed:
        out += [
            f"- question added: **{md(q.question)}** ({q.judgments} judged)"
            for q in d.questions_added
        ]
        out += [
            f"- question removed: **{md(q.question)}** ({q.judgments} judged)"
            for q in d.questions_removed
        ]
        out.append("")
    if d.questions:
        out += ["| question | change |", "|---|---|"]
        rows = [(q.question, line) for q in d.questions for line in question_lines(q)]
        for question, line in rows[:max_rows]:
            out.append(f"| {md(question)} | {md(line)} |")
        if len(rows) > max_rows:
            out.append(
                f"| … | {counted(len(rows) - max_rows, 'more change')}: run "
                f"`{sanitize.code_span(rerun_command(d))}` locally for all of them |"
            )
        out.append("")
    if d.scores:
        out += [
            "| run | measure | before | after | change | unjudged@10 before | unjudged@10 after |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for s in d.scores:
            out.append(
                f"| {md(s.run)} | {measure_name(s.measure)} | {_fmt(s.before)} | {_fmt(s.after)} | "
                f"{_signed(s.change)} | {_fmt(s.unjudged_before)} | {_fmt(s.unjudged_after)} |"
            )
        out.append("")
    # Nothing printed may start a line with "::" (a GitHub workflow command).
    return sanitize.lines("\n".join(out) + "\n")
