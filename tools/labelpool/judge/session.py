"""One run of ``labelpool judge``: what the server knows between requests.

The label files are the state: every answer reads them again (:mod:`.judge_queue`), and a
restart resumes where they say. Kept in memory are only the facts of this run: the batch, the
question -> file map fixed at start (no path ever comes from a request), the corpus index,
which files this page wrote, which entries it set (their verdicts the page may show: they
are this judge's own), how many writes wait for a commit, the key of the entries' tokens
(:class:`~labelpool.workflows.judge.tokens.Tokens`) and what each write replaced (for undo).

The page is blind to the verdicts it did not write: an entry reaches it as its status and an
opaque token (an HMAC under this run's key, not a hash of its line); a write's answer names
what it replaced only by an undo reference the server resolves (:attr:`Session.undo`), so
overwriting another judge's verdict and undoing it never shows that verdict.

The page is blind to the pooled systems, and a batch's name names them
(``2026-12-04-bm25+dense@20``): no answer holds it. The page shows the batch's date and size
(:attr:`~labelpool.workflows.judge.queue.Queue.label`) and sends back, with each write, the
batch's index among the pending batches (:attr:`Session.batch_key`), which the server maps
to the batch.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import labelset
from labelpool.config import Config
from labelpool.errors import InputError, LabelpoolError, UsageError
from labelpool.model import Verdict
from labelpool.render import sanitize
from labelpool.words import counted
from labelpool.workflows.judge import commit as judge_commit
from labelpool.workflows.judge import queue as judge_queue
from labelpool.workflows.judge import seats
from labelpool.workflows.judge import write as judge_write
from labelpool.workflows.judge.facts import Facts
from labelpool.workflows.judge.queue import Entry, Question, verdict_from_json, verdict_json
from labelpool.workflows.judge.tokens import Tokens
from labelpool.workflows.judge.write import WriteRefused

MAX_GRADE_KEYS = 9  # keys 2..9
MAX_UNDO = 10_000  # undo references kept (the oldest go first)


class BadRequest(UsageError):
    """A request the page would never send (400); the message says what."""


class NotFound(InputError):
    """A question or document this run does not serve (404)."""


def shown(s: object) -> str:
    """Text for the page: every line through the sanitiser (controls and bidi characters
    shown escaped), the line breaks kept."""
    return "\n".join(sanitize.text(line) for line in str(s).split("\n"))


@dataclass(frozen=True)
class Undo:
    """What one write replaced: the entry's verdict and note, and what the page showed of it
    (this page's own verdict, or None)."""

    qid: str
    doc: str
    verdict: Verdict
    reason: str | None
    mine: Any


@dataclass(frozen=True)
class Options:
    judge_name: str
    judge_email: str
    commit_every: int | None = None

    @property
    def me(self) -> str:
        """The user as a judge: ``Name <email>`` ("" without a git identity)."""
        return seats.identity(self.judge_name, self.judge_email)


def max_grade(cfg: Config, questions: tuple[Question, ...]) -> int:
    """The repository's grade scale: the highest grade its labels use (at least 1)."""
    try:
        labels = labelset.load(cfg)
        grades = [g for label in labels.values() for g in label.grades.values()]
    except (LabelpoolError, OSError):
        grades = [r.grade for q in questions for r in q.relevant]
    return max([1, *grades])


class Session:
    def __init__(self, cfg: Config, queue: judge_queue.Queue, options: Options) -> None:
        self.cfg = cfg
        self.batch = queue.batch  # never in an answer: it names the systems
        self.batch_key = queue.key  # what the page holds of the batch instead
        self.batch_label = queue.label
        self.options = options
        self.paths: dict[str, Path] = {q.qid: q.path for q in queue.questions}
        self.order = [q.qid for q in queue.questions]
        known = [e.doc for q in queue.questions for e in q.entries]
        known += [m for q in queue.questions for r in q.relevant for m in r.members]
        self.facts = Facts(cfg, known)
        self.grades = max_grade(cfg, queue.questions)
        self.lock = threading.Lock()
        self.written: set[Path] = set()
        self.mine: dict[tuple[str, str], Any] = {}  # (qid, doc) -> verdict this page wrote
        self.pending_writes = 0  # writes since the last commit
        self.commits: list[str] = []
        self.guidelines = self._guidelines()
        self.tokens = Tokens()  # this run's key: made here, never sent
        self.rules = judge_write.Rules.of(cfg)
        self.rules.warm()
        self.undo: dict[str, Undo] = {}  # reference -> what a write replaced

    def _guidelines(self) -> str | None:
        path = self.cfg.guidelines
        if path is None or not path.is_file():
            return None
        try:
            return path.read_bytes()[: 256 * 1024].decode("utf-8", "replace")
        except OSError:
            return None

    # --- reading -------------------------------------------------------------------------

    def _question(self, qid: str) -> Question | None:
        path = self.paths.get(qid)
        if path is None:
            raise NotFound(f"no question {qid!r} in this batch")
        return judge_queue.question_of(
            path, self.batch, self.options.judge_email, me=self.options.me
        )

    def _doc_json(self, qid: str, e: Entry, q: Question | None = None) -> dict[str, Any]:
        text = self.facts.text(e.doc, e.batch_text)
        versions = self.facts.versions_of(e.doc)
        status = "pending" if e.verdict is None else "judged"
        if e.verdict is None and e.reason is not None:
            status = "cant"
        mine = (qid, e.doc) in self.mine and self.mine[(qid, e.doc)] == verdict_json(e.verdict)
        return {
            "doc": e.doc,
            "shown": shown(e.doc),
            # an opaque token: the line, or its plain hash, would show others' verdicts
            "block": self.tokens.of(
                self.paths[qid], seats.token_key(self.batch, None if q is None else q.seat), e
            ),
            "status": status,
            "verdict": verdict_json(e.verdict) if mine else None,
            "reason": None if e.reason is None else shown(e.reason),
            "title": shown(text.title),
            "text": shown(text.text),
            "source": text.source,
            "note": shown(text.note),
            "supersedes": [shown(d) for d in versions.supersedes],
            "superseded_by": [shown(d) for d in versions.superseded_by],
            **self._record_json(q, e.doc),
        }

    def _record_json(self, q: Question | None, doc: str) -> dict[str, Any]:
        """An adjudication is not blind: every verdict on the document, with its judge."""
        if q is None or q.task != "adjudicate":
            return {}
        return {
            "verdicts": [
                {
                    "judge": shown(v.judge or "(judge not recorded)"),
                    "kind": v.kind,
                    "verdict": verdict_json(v.verdict),
                }
                for v in q.record.get(doc, ())
                if not v.adjudicator
            ]
        }

    def question_json(self, qid: str) -> dict[str, Any] | None:
        q = self._question(qid)
        if q is None or not q.entries:  # nothing of it for this judge (it waits for another)
            return None
        relevant = [
            {
                "doc": r.doc,
                "shown": shown(r.doc),
                "grade": r.grade,
                "class": [shown(m) for m in r.members],
            }
            for r in q.relevant
        ]
        for e in q.entries:  # verdicts this page gave: this judge's own
            v = self.mine.get((qid, e.doc))
            own = v is not None and v == verdict_json(e.verdict)
            if own and v not in ("irrelevant", 0) and not isinstance(v, dict):
                grade = 1 if v == "relevant" else int(str(v))
                relevant.append(
                    {"doc": e.doc, "shown": shown(e.doc), "grade": grade, "class": [shown(e.doc)]}
                )
        return {
            "qid": q.qid,
            "shown": shown(q.qid),
            "question": shown(q.question),
            "docs": [self._doc_json(qid, e, q) for e in q.entries],
            "relevant": relevant,
        }

    def state_json(self) -> dict[str, Any]:
        questions = []
        waiting = 0
        for qid in self.order:
            try:
                found = self._question(qid)
                q = self.question_json(qid) if found is not None and found.entries else None
            except (LabelpoolError, OSError):
                found = q = None
            waiting += len(found.waiting) if found is not None else 0
            if q is not None:
                questions.append(q)
        return {
            # documents of this batch in seats this page does not serve (another judge's):
            # a count only, never whose, which seat, or what verdict
            "waiting": waiting,
            "waiting_shown": (
                f"{counted(waiting, 'document')} {'waits' if waiting == 1 else 'wait'} "
                "for another judge"
                if waiting
                else ""
            ),
            "batch": self.batch_key,
            "batch_shown": shown(self.batch_label),
            "questions": questions,
            "max_grade": min(self.grades, MAX_GRADE_KEYS),
            "guidelines": None if self.guidelines is None else shown(self.guidelines),
            "judge": shown(self.options.judge_name or self.options.judge_email or "you"),
            "can_commit": bool(self.options.judge_name and self.options.judge_email),
            "uncommitted": self.pending_writes,
        }

    def text_json(self, qid: str, doc: str) -> dict[str, Any]:
        """The text of a document already judged relevant for ``qid`` (on demand): the
        corpus's, else the batch's comment when the document is an entry of this batch."""
        q = self._question(qid)
        if q is None or (
            not any(doc in r.members for r in q.relevant) and (qid, doc) not in self.mine
        ):
            raise NotFound("not a relevant document of this question")
        batch_text = next((e.batch_text for e in q.entries if e.doc == doc), None)
        text = self.facts.text(doc, batch_text)
        return {
            "doc": doc,
            "title": shown(text.title),
            "text": shown(text.text),
            "source": text.source,
            "note": shown(text.note),
        }

    # --- writing -------------------------------------------------------------------------

    def write(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        qid, doc, expect = payload.get("q"), payload.get("doc"), payload.get("expect")
        if not all(isinstance(x, str) for x in (qid, doc, expect)):
            raise BadRequest("q, doc and expect are strings")
        assert isinstance(qid, str) and isinstance(doc, str) and isinstance(expect, str)
        if payload.get("batch") != self.batch_key:
            raise BadRequest("this page judges another batch")
        path = self.paths.get(qid)
        if path is None:
            raise NotFound(f"no question {qid!r} in this batch")
        with self.lock:
            undo = self._undo_of(payload, qid, doc)
            verdict, reason = self._verdict_of(payload) if undo is None else undo[1:]
            done = judge_write.write_verdict(
                self.cfg.root,
                path,
                self.batch,
                doc,
                expect,
                verdict,
                reason,
                tokens=self.tokens,
                rules=self.rules,
                me=self.options.me,
            )
            ref = self._remember(qid, done)
            if done.changed:
                self.written.add(path)
                self.pending_writes += 1
                mine = verdict_json(verdict) if undo is None else undo[0].mine
                if mine is None:
                    self.mine.pop((qid, doc), None)
                else:
                    self.mine[(qid, doc)] = mine
            committed = None
            every = self.options.commit_every
            if every is not None and self.pending_writes >= every:
                committed = self._commit()
        q = self._question(qid)
        served = next((e for e in q.entries if e.doc == doc), None) if q is not None else None
        return {
            "doc": self._doc_json(qid, done.after if served is None else served, q),
            "before": {"undo": ref},  # what it replaced stays here: it may be another's verdict
            "uncommitted": self.pending_writes,
            "committed": committed,
        }

    def _verdict_of(self, payload: Mapping[str, Any]) -> tuple[Verdict, str | None]:
        """The verdict and note a write asks for; one validate would refuse is a 422 naming
        the rule (LP035, LP042), a grade above the repository's scale too."""
        try:
            verdict = verdict_from_json(payload.get("verdict"))
        except ValueError as exc:
            raise WriteRefused(str(exc)) from None
        if isinstance(verdict, int) and not isinstance(verdict, bool) and verdict > self.grades:
            raise WriteRefused(
                f"grade {verdict} is above this repository's scale (0..{self.grades})"
            )
        reason = payload.get("reason")
        if reason is not None and (not isinstance(reason, str) or verdict is not None):
            raise BadRequest("a can't-judge reason is a string, with no verdict")
        return verdict, reason

    def _undo_of(
        self, payload: Mapping[str, Any], qid: str, doc: str
    ) -> tuple[Undo, Verdict, str | None] | None:
        """The write an undo reference stands for (None: not an undo)."""
        ref = payload.get("undo")
        if ref is None:
            return None
        found = self.undo.pop(ref, None) if isinstance(ref, str) else None
        if found is None or (found.qid, found.doc) != (qid, doc):
            raise BadRequest("nothing to undo for this document")
        return found, found.verdict, found.reason

    def _remember(self, qid: str, done: judge_write.Written) -> str:
        """An undo reference for what ``done`` replaced."""
        before = done.before
        ref = secrets.token_urlsafe(16)
        self.undo[ref] = Undo(
            qid, before.doc, before.verdict, before.reason, self.mine.get((qid, before.doc))
        )
        while len(self.undo) > MAX_UNDO:
            del self.undo[next(iter(self.undo))]
        return ref

    def _commit(self) -> dict[str, Any]:
        result = judge_commit.commit(self.cfg.root, self.written, self.batch)
        if result.commit is not None:
            self.commits.append(result.commit)
        self.written.clear()
        self.pending_writes = 0
        return {"commit": result.commit, "verdicts": result.verdicts, "files": result.files}

    def commit(self) -> dict[str, Any]:
        with self.lock:
            out = self._commit()
        out["uncommitted"] = 0
        return out

    def uncommitted(self) -> int:
        """Verdicts this page wrote that ``HEAD`` does not hold yet."""
        with self.lock:
            _files, n = judge_commit.changed(self.cfg.root, self.written, self.batch)
        return n
