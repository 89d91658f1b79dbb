"""Render a :class:`~labelpool.workflows.history.QuestionHistory` as text or JSON.

JSON shape (stable; keys are only ever added)::

    {"question": ID, "text": STR, "path": STR,
     "created": COMMIT | null, "text_changed": COMMIT | null, "question_line": LINE | null,
     "judgments": [{"doc": ID,
                    "current": STATE | null,          # null: no judgment any more
                    "set_by": CHANGE,                 # the commit that made `current` so
                    "earlier": [CHANGE, ...],         # oldest first
                    "lines": [LINE, ...],             # blame of the lines carrying it today
                    "before_question_edit": BOOL,
                    "decided_by": CHANGE | null,      # filled the pending verdict set_by merged
                    "batch": BATCH_ID | null}]}       # the batch set_by merged it from
    COMMIT = {"commit", "author", "author_mail", "date", "subject", "uncommitted"}
    STATE  = {"kind", "verdict", "grade", "class", "batch", "proposed"}
             # kind: relevant | class-member | irrelevant | pending | pooled-unjudged
    CHANGE = {"commit": COMMIT, "before": STATE | null, "after": STATE | null}
    LINE   = {"field", "line", "commit": COMMIT}
"""

from __future__ import annotations

from typing import Any

from labelpool.gitio import CommitInfo
from labelpool.workflows.history import Change, DocState, LineBlame, QuestionHistory


def commit_json(info: CommitInfo) -> dict[str, Any]:
    return {
        "commit": info.commit,
        "author": info.author,
        "author_mail": info.author_mail,
        "date": info.author_date,
        "subject": info.subject,
        "uncommitted": info.uncommitted,
    }


def state_json(state: DocState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    return {
        "kind": state.kind,
        "verdict": state.describe(),
        "grade": state.grade,
        "class": list(state.members),
        "batch": state.batch,
        "proposed": state.proposed,
    }


def change_json(change: Change | None) -> dict[str, Any] | None:
    if change is None:
        return None
    return {
        "commit": commit_json(change.info),
        "before": state_json(change.before),
        "after": state_json(change.after),
    }


def line_json(line: LineBlame | None) -> dict[str, Any] | None:
    if line is None:
        return None
    return {"field": line.field, "line": line.line, "commit": commit_json(line.info)}


def to_json(h: QuestionHistory) -> dict[str, Any]:
    return {
        "question": h.question,
        "text": h.text,
        "path": h.path,
        "created": None if h.created is None else commit_json(h.created),
        "text_changed": None if h.text_changed is None else commit_json(h.text_changed),
        "question_line": line_json(h.question_line),
        "judgments": [
            {
                "doc": j.doc,
                "current": state_json(j.current),
                "set_by": change_json(j.set_by),
                "earlier": [change_json(c) for c in j.earlier],
                "lines": [line_json(ln) for ln in j.lines],
                "before_question_edit": j.before_question_edit,
                "decided_by": change_json(j.decided_by),
                "batch": j.batch,
            }
            for j in h.judgments
        ],
    }


def _who(info: CommitInfo) -> str:
    if info.uncommitted:
        return "uncommitted (working tree)"
    mail = f" <{info.author_mail}>" if info.author_mail else ""
    return f"{info.author}{mail}, {info.author_date}, {info.commit[:10]} {info.subject!r}"


def render_text(h: QuestionHistory) -> str:
    out = [f"{h.question}: {h.text}", f"  file: {h.path}"]
    if h.created is not None:
        out.append(f"  created by {_who(h.created)}")
    if h.text_changed is not None:
        out.append(f"  question text last edited by {_who(h.text_changed)}")
    for j in h.judgments:
        now = "no judgment any more" if j.current is None else j.current.describe()
        out.append("")
        out.append(f"{j.doc}: {now}")
        if j.set_by is not None:
            verb = "removed" if j.current is None else "set"
            out.append(f"  {verb} by {_who(j.set_by.info)}")
        if j.batch is not None:
            out.append(f"  from batch {j.batch}")
        if j.decided_by is not None:
            out.append(f"  verdict filled in by {_who(j.decided_by.info)}")
        for line in j.lines:
            out.append(f"  line {line.line} ({line.field}): {_who(line.info)}")
        for change in reversed(j.earlier):
            was = "nothing" if change.after is None else change.after.describe()
            out.append(f"  earlier: {was}, by {_who(change.info)}")
        if j.before_question_edit:
            out.append(
                "  ! judged before the question's text was last edited: "
                "the judge read a different question"
            )
    return "\n".join(out) + "\n"
