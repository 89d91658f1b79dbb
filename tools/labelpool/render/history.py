"""Render a :class:`~labelpool.workflows.audit.history.QuestionHistory` as text or JSON.

Text names a commit's author with its co-authors, ``Alice <a@x> (with Bob <b@x>, Carol
<c@x>)``; every name, id and text from the repository passes :func:`labelpool.render.sanitize.text`
(JSON is written by :func:`~labelpool.render.sanitize.json_dumps`, ASCII only).

JSON shape (stable; keys are only ever added)::

    {"question": ID, "text": STR, "path": STR,
     "created": COMMIT | null, "text_changed": COMMIT | null, "question_line": LINE | null,
     "machine_judges": {IDENTITY: MACHINE, ...},  # every machine judge of the record known
     "judgments": [{"doc": ID,
                    "current": STATE | null,          # null: no judgment any more
                    "set_by": CHANGE,                 # the commit that made `current` so
                    "earlier": [CHANGE, ...],         # oldest first
                    "lines": [LINE, ...],             # blame of the lines carrying it today
                    "before_question_edit": BOOL,
                    "decided_by": CHANGE | null,      # filled the pending verdict set_by merged
                    "batch": BATCH_ID | null}]}       # the batch set_by merged it from
    COMMIT = {"commit", "author", "author_mail", "date", "subject", "uncommitted",
              "co_authors": [{"name", "email"}, ...]}  # its Co-authored-by trailers
    STATE  = {"kind", "verdict", "grade", "class", "batch", "proposed"}
             # kind: relevant | class-member | irrelevant | pending | pooled-unjudged
    CHANGE = {"commit": COMMIT, "before": STATE | null, "after": STATE | null}
    LINE   = {"field", "line", "commit": COMMIT}
    MACHINE = {"model", "sha256", "source", "commit"}
             # source: trailer (of "commit", which wrote the machine's verdicts) | definition
             # (the judge's file, whose identity is the recorded one; "commit" null)
"""

from __future__ import annotations

import textwrap
from typing import Any

from labelpool.gitio import CommitInfo
from labelpool.model import DuplicateOf
from labelpool.render.sanitize import text as safe
from labelpool.workflows.audit.attribution import CoAuthors
from labelpool.workflows.audit.history import (
    Change,
    DocState,
    Judgment,
    LineBlame,
    QuestionHistory,
)
from labelpool.workflows.audit.machines import DEFINITION, MachineFacts, is_defined

CoAuthorsOf = dict[str, CoAuthors]


def commit_json(info: CommitInfo, co_authors: CoAuthorsOf | None = None) -> dict[str, Any]:
    return {
        "commit": info.commit,
        "author": info.author,
        "author_mail": info.author_mail,
        "date": info.author_date,
        "subject": info.subject,
        "uncommitted": info.uncommitted,
        "co_authors": [{"name": n, "email": e} for n, e in (co_authors or {}).get(info.commit, ())],
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


def change_json(change: Change | None, co: CoAuthorsOf | None = None) -> dict[str, Any] | None:
    if change is None:
        return None
    return {
        "commit": commit_json(change.info, co),
        "before": state_json(change.before),
        "after": state_json(change.after),
    }


def line_json(line: LineBlame | None, co: CoAuthorsOf | None = None) -> dict[str, Any] | None:
    if line is None:
        return None
    return {"field": line.field, "line": line.line, "commit": commit_json(line.info, co)}


def _verdict(v: object) -> str:
    if isinstance(v, DuplicateOf):
        return f"duplicate-of {v.doc}"
    return str(v) if v in ("relevant", "irrelevant") else f"grade {v}"


def _record_json(j: Judgment) -> dict[str, Any]:
    """The record's judges (only where the file names any: else the JSON is as before)."""
    if not j.record:
        return {}
    return {
        "verdicts": [
            {
                "judge": e.judge,
                "kind": e.kind,
                "adjudicator": e.adjudicator,
                "verdict": None if e.verdict is None else _verdict(e.verdict),
            }
            for e in j.record
        ],
        "git_credits": j.git_credits,
    }


def _machine(identity: str, known: dict[str, MachineFacts]) -> str:
    """`` (machine; model M, where that was read)``: the model beside the identity, whose
    digits are the sha256 of the definition and prompt."""
    facts = known.get(identity)
    if facts is None and not is_defined(identity):
        return " (machine)"  # the oracle: a file's verdicts, no model
    if facts is None:
        return " (machine; model unknown: no commit trailer or definition file names it)"
    where = "from its definition file"
    if facts.source != DEFINITION and facts.commit is not None:
        where = f"from commit {facts.commit[:10]}'s trailers"
    return f" (machine; model {safe(facts.model)}, {where})"


def _record_lines(j: Judgment, known: dict[str, MachineFacts]) -> list[str]:
    out = []
    for e in j.record:
        role = "adjudicated" if e.adjudicator else "judged"
        who = "a judge the file does not name (git blame names them)"
        if e.judge is not None:
            who = safe(e.judge) + (_machine(e.judge, known) if e.kind != "person" else "")
        verdict = "no verdict" if e.verdict is None else _verdict(e.verdict)
        out.append(f"  {role} by {who}: {safe(verdict)}")
    if j.git_credits is not None:
        out.append(
            f"  ! git credits {safe(j.git_credits)}, whom the record does not name "
            "(a squash merge credits whoever merged; the record names the judges)"
        )
    return out


def to_json(h: QuestionHistory) -> dict[str, Any]:
    co = h.co_authors
    return {
        "question": h.question,
        "text": h.text,
        "path": h.path,
        "created": None if h.created is None else commit_json(h.created, co),
        "text_changed": None if h.text_changed is None else commit_json(h.text_changed, co),
        "question_line": line_json(h.question_line, co),
        "machine_judges": {
            identity: {
                "model": f.model,
                "sha256": f.sha256,
                "source": f.source,
                "commit": f.commit,
            }
            for identity, f in h.machine_judges.items()
        },
        "judgments": [
            {
                "doc": j.doc,
                "current": state_json(j.current),
                "set_by": change_json(j.set_by, co),
                "earlier": [change_json(c, co) for c in j.earlier],
                "lines": [line_json(ln, co) for ln in j.lines],
                "before_question_edit": j.before_question_edit,
                "decided_by": change_json(j.decided_by, co),
                "batch": j.batch,
                **_record_json(j),
            }
            for j in h.judgments
        ],
    }


def _ident(name: str, mail: str) -> str:
    return safe(name) + (f" <{safe(mail)}>" if mail else "")


def _who(info: CommitInfo, co: CoAuthorsOf) -> str:
    if info.uncommitted:
        return "uncommitted (working tree)"
    who = _ident(info.author, info.author_mail)
    with_ = co.get(info.commit, ())
    if with_:
        who += f" (with {', '.join(_ident(n, e) for n, e in with_)})"
    return f"{who}, {safe(info.author_date)}, {info.commit[:10]} {info.subject!r}"


def _fit(line: str, width: int | None) -> list[str]:
    """``line`` as it is when it fits ``width`` (None: no bound), else wrapped at word
    boundaries with the continuation indented four more blanks; words are never cut."""
    if width is None or len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    return textwrap.wrap(
        line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )


def render_text(h: QuestionHistory, width: int | None = None) -> str:
    """The history as text, each line fitted to ``width`` (None: no bound)."""
    co = h.co_authors
    out = [f"{safe(h.question)}: {safe(h.text)}", f"  file: {safe(h.path)}"]
    if h.created is not None:
        out.append(f"  created by {_who(h.created, co)}")
    if h.text_changed is not None:
        out.append(f"  question text last edited by {_who(h.text_changed, co)}")
    for j in h.judgments:
        now = "no judgment any more" if j.current is None else j.current.describe()
        out.append("")
        out.append(f"{safe(j.doc)}: {safe(now)}")
        out += _record_lines(j, h.machine_judges)
        if j.set_by is not None:
            verb = "removed" if j.current is None else "set"
            out.append(f"  {verb} by {_who(j.set_by.info, co)}")
        if j.batch is not None:
            out.append(f"  from batch {safe(j.batch)}")
        if j.decided_by is not None:
            out.append(f"  verdict filled in by {_who(j.decided_by.info, co)}")
        for line in j.lines:
            out.append(f"  line {line.line} ({line.field}): {_who(line.info, co)}")
        for change in reversed(j.earlier):
            was = "nothing" if change.after is None else change.after.describe()
            out.append(f"  earlier: {safe(was)}, by {_who(change.info, co)}")
        if j.before_question_edit:
            out.append(
                "  ! judged before the question's text was last edited: "
                "the judge read a different question"
            )
    return "".join(f"{part}\n" for line in out for part in _fit(line, width))
