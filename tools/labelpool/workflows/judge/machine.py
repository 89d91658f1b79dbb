"""``labelpool judge --machine NAME``: a batch's pending verdicts filled by a machine judge.

1. :func:`plan`: the batch (``--batch``, else the first with an empty verdict the machine can
   be served, read as the page reads it, with the machine's identity as the user), and its
   pending documents the machine is served (up to ``--max-docs``), each with its text (the
   corpus, else the batch's ``# text:`` comment; a document with neither is left pending).
2. :func:`uncommitted`: label files that differ from ``HEAD``. A verdict there that is not this
   machine's (not in its claimed seat, nor the grade its response cache holds for the document)
   makes the run refuse to start: its commit would credit someone's verdict to the machine.
   The machine's own (a run killed before its commit) are committed at the end.
3. :func:`run`: each document is answered from the response cache (:mod:`.responses`) or
   asked of the backend, ``concurrency`` requests in flight (a thread pool over
   :meth:`Backend.ask`); the answers that came while this thread was busy are kept in the
   cache together (one append, one fsync), then held until every document of their file has
   its answer (or :data:`HOLD` seconds), and written with one write a file
   (:func:`.fill.fill_many`), so that the writes keep up with the answers; then the files
   are committed
   (:func:`.commit.commit`) with the machine as author and committer
   (``IDENTITY <machine@labelpool.invalid>``) and trailers naming the judge, its kind, model,
   sha256 and labelpool's version.

Killed at any instant, a rerun finishes the batch: a written verdict is never asked or written
again (an entry with a verdict is left as it is), an answer in the cache is not asked again,
and what was written but not committed is committed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from queue import Empty, SimpleQueue

from labelpool import __version__, gitio, verdicts
from labelpool import cache as cache_mod
from labelpool.batch import PendingBatch
from labelpool.config import Config
from labelpool.errors import StateError
from labelpool.machine import backends
from labelpool.machine import command as command_backend
from labelpool.machine.definition import MachineJudge
from labelpool.machine.protocol import Backend, Item, Reply
from labelpool.workflows.judge import calibrate
from labelpool.workflows.judge import commit as commit_mod
from labelpool.workflows.judge import fill as fill_mod
from labelpool.workflows.judge import queue as queue_mod
from labelpool.workflows.judge.facts import NONE, Facts
from labelpool.workflows.judge.responses import Responses, keeps
from labelpool.workflows.judge.write import Rules

CACHED_GROUP = 256  # answers from the response cache written per group (one write a file)
HOLD = 2.0  # seconds an answer may wait for the others of its file before it is written


@dataclass(frozen=True)
class Task:
    """One pending document the machine is asked about."""

    path: Path
    qid: str
    question: str
    doc: str
    text: str

    def item(self, grades: tuple[int, ...]) -> Item:
        return Item(self.qid, self.question, self.doc, self.text, grades)


@dataclass(frozen=True)
class Plan:
    batch: str
    tasks: tuple[Task, ...]
    no_text: tuple[str, ...]  # ``qid doc`` of documents with no text: left pending
    files: tuple[Path, ...]  # the batch's label files the machine is served
    calibrate: bool = False  # judged documents: the machine's verdict beside people's


@dataclass(frozen=True)
class Result:
    batch: str
    identity: str
    documents: int  # the documents of the plan
    asked: int  # requests sent to the backend
    cached: int  # answered from the response cache
    written: int  # verdicts written
    noted: int  # can't-judge notes written (verdict left empty)
    failed: int  # no answer (left pending; a rerun asks again)
    skipped: int  # no longer pending for the machine when its answer came, or judged already
    no_text: int
    cost: float
    commit: str | None
    committed: int  # verdicts in that commit


class ForeignChanges(StateError):
    """Uncommitted verdicts that are not this machine's, in files it would commit."""


def plan(
    cfg: Config,
    identity: str,
    batch: str | None = None,
    max_docs: int | None = None,
    question: str | None = None,
) -> Plan | None:
    """What the machine ``identity`` would judge (see the module doc; ``question``: that
    question only); None: nothing pending."""
    q = queue_mod.load(cfg, verdicts.MACHINE_EMAIL, batch, question, me=identity)
    if q is None:
        return None
    facts = Facts(cfg)
    tasks: list[Task] = []
    no_text: list[str] = []
    files: list[Path] = []
    for one in q.questions:
        files.append(one.path)
        if one.task is not None:  # a second opinion or an adjudication is a person's
            continue
        for e in one.entries:
            if e.verdict is not None:
                continue
            if max_docs is not None and len(tasks) >= max_docs:
                break
            found = facts.text(e.doc, e.batch_text)
            if found.source == NONE:
                no_text.append(f"{one.qid} {e.doc}")
                continue
            text = f"{found.title}\n\n{found.text}" if found.title else found.text
            tasks.append(Task(one.path, one.qid, one.question, e.doc, text))
    return Plan(q.batch, tuple(tasks), tuple(no_text), tuple(files))


def plan_calibration(
    cfg: Config,
    identity: str,
    batch: str | None = None,
    max_docs: int | None = None,
    question: str | None = None,
) -> Plan:
    """The documents people judged and the machine has not (:mod:`.calibrate`)."""
    facts = Facts(cfg)
    tasks: list[Task] = []
    no_text: list[str] = []
    paths = calibrate.files(cfg, batch, question)
    for path in paths:
        label = calibrate.read(path)
        if label is None:
            continue
        for doc in calibrate.wanted(label, identity):
            if max_docs is not None and len(tasks) >= max_docs:
                break
            found = facts.text(doc, None)
            if found.source == NONE:
                no_text.append(f"{label.id} {doc}")
                continue
            text = f"{found.title}\n\n{found.text}" if found.title else found.text
            tasks.append(Task(path, label.id, label.question, doc, text))
    return Plan(batch or "", tuple(tasks), tuple(no_text), tuple(paths), calibrate=True)


def _entries(
    text: str, batches: Sequence[PendingBatch]
) -> dict[tuple[str, int | None, str], queue_mod.Entry]:
    """Every pending entry of a file (``text``, read as ``batches``), by (batch, seat, doc)."""
    out = {}
    for b in batches:
        for e in queue_mod.entries_of(text, [b], b.batch, b):
            out[(b.batch, b.seat, e.doc)] = e
    return out


Foreign = list[tuple[Path, str]]  # (file, ``line: doc`` or why)


def uncommitted(
    cfg: Config, identity: str, responses: Responses, facts: Facts | None = None
) -> tuple[list[Path], Foreign, list[str]]:
    """(files with uncommitted changes that are all the machine's, each uncommitted verdict
    that is not, the batches of the machine's): see the module doc."""
    top = gitio.toplevel(cfg.root)
    if top is None or gitio.head_commit(cfg.root) is None:
        return [], [], []
    top = top.resolve()
    paths = queue_mod.pending_files(cfg)
    rels = [(p.parent.resolve() / p.name).relative_to(top).as_posix() for p in paths]
    olds = gitio.cat_blobs(top, [f"HEAD:{r}" for r in rels])
    ours: list[Path] = []
    foreign: Foreign = []
    batches: set[str] = set()
    for path, old in zip(paths, olds, strict=True):
        new_text = path.read_text(encoding="utf-8")
        old_text = old.decode("utf-8", "replace") if old is not None else ""
        if old_text == new_text:
            continue
        try:
            if old is None:
                before = {}
            else:
                before = _entries(old_text, queue_mod.read_file(path, old_text)[2])
            data, _t, new_batches = queue_mod.read_file(path, new_text)
            after = _entries(new_text, new_batches)
            judges = {(b.batch, b.seat): b.judge for b in new_batches}
        except queue_mod.JudgeInputError:
            foreign.append((path, "cannot be read"))
            continue
        question = str(data.get("question") or "")
        bad: Foreign = []
        for k, e in after.items():
            old_e = before.get(k)
            if e.verdict is None or (old_e is not None and old_e.verdict == e.verdict):
                continue
            seat_judge = judges.get((k[0], k[1]))
            batches.add(k[0])
            if seat_judge == identity:
                continue
            if seat_judge is None and facts is not None:
                found = facts.text(e.doc, e.batch_text)
                text = f"{found.title}\n\n{found.text}" if found.title else found.text
                kept = responses.get(question, text, e.doc)
                if kept is not None and kept.grade == e.verdict:
                    continue
            bad.append((path, f"{e.line}: {e.doc}"))
        if bad:
            foreign.extend(bad)
        else:
            ours.append(path)
    return ours, foreign, sorted(batches)


def trailers(judge: MachineJudge) -> list[str]:
    return [
        f"Labelpool-Judge: {judge.identity}",
        f"Labelpool-Judge-Kind: {verdicts.MACHINE}",
        f"Labelpool-Model: {judge.model}",
        f"Labelpool-Judge-Sha256: {judge.sha256}",
        f"Labelpool-Version: {__version__}",
    ]


def refuse_foreign(foreign: Foreign, files: Iterable[Path]) -> None:
    """:class:`ForeignChanges` when a file of ``files`` holds a verdict not the machine's."""
    wanted = set(files)
    mine = [f"{p}:{what}" for p, what in foreign if p in wanted]
    if mine:
        shown = "; ".join(mine[:5]) + (f" and {len(mine) - 5} more" if len(mine) > 5 else "")
        raise ForeignChanges(
            f"uncommitted verdicts that are not this machine judge's: {shown}; commit them "
            "first (the machine's commit would credit them to it)"
        )


def backend_of(judge: MachineJudge, root: Path) -> Backend:
    """The judge's backend: a ``command`` program run in ``root``, or an endpoint."""
    return backends.backend(judge, root)


def prompt_of(judge: MachineJudge, task: Task) -> str:
    """What the judge is sent about ``task``: the rendered prompt, or (kind ``command``) the
    JSON line its program reads."""
    if judge.kind == "command":
        return command_backend.request_line(task.item(judge.grades)).decode("utf-8").rstrip("\n")
    return judge.render(task.question, task.text)


def commit_left(
    cfg: Config, judge: MachineJudge, batch: str | None = None, cache_dir: Path | None = None
) -> tuple[str | None, int]:
    """Commit what the machine wrote and did not commit (this run's, or a run's killed
    before its commit): (commit, verdicts). ``batch`` names the commit (default: the first
    batch the machine's changes are in)."""
    responses = Responses(cache_dir or cache_mod.cache_dir(), judge.identity)
    ours, _foreign, batches = uncommitted(cfg, judge.identity, responses, Facts(cfg))
    if not ours:
        return None, 0
    if batch is None:
        batch = batches[0] if batches else ""

    done = commit_mod.commit(
        cfg.root,
        ours,
        batch,
        machine=(judge.identity, verdicts.MACHINE_EMAIL),
        trailers=trailers(judge),
    )
    return done.commit, done.verdicts


def run(
    cfg: Config,
    judge: MachineJudge,
    backend: Backend,
    the_plan: Plan,
    *,
    concurrency: int = 1,
    commit: bool = True,
    on_reply: Callable[[Reply], None] = lambda r: None,
    cache_dir: Path | None = None,
) -> Result:
    """Fill the plan's documents and commit (see the module doc)."""
    identity = judge.identity
    responses = Responses(cache_dir or cache_mod.cache_dir(), identity)
    facts = Facts(cfg)
    if commit and the_plan.calibrate:
        _mine, others = calibrate.uncommitted(cfg, identity, list(the_plan.files))
        refuse_foreign([(p, "changed") for p in others], the_plan.files)
    elif commit:
        _ours, foreign, _b = uncommitted(cfg, identity, responses, facts)
        refuse_foreign(foreign, the_plan.files)
    rules = Rules.of(cfg)
    rules.warm()
    counts = {"written": 0, "noted": 0, "failed": 0, "skipped": 0, "asked": 0, "cached": 0}
    cost = 0.0

    def handle(replies: Sequence[tuple[Task, Reply]]) -> None:
        nonlocal cost
        kept: dict[Path, list[tuple[Task, Reply]]] = {}
        for task, reply in replies:
            cost += reply.cost
            if reply.grade is not None and reply.grade not in judge.grades:
                reply = Reply(
                    reply.doc_id, None, f"answered {reply.grade}, off the scale", reply.raw
                )
            if reply.grade is None and not keeps(reply):
                counts["failed"] += 1
                on_reply(reply)
            elif the_plan.calibrate:
                outcome = (
                    fill_mod.NOTED  # nothing written: a person's verdict is there
                    if reply.grade is None
                    else calibrate.add(cfg.root, rules, task.path, task.doc, identity, reply.grade)
                )
                counts[outcome if outcome in ("written", "noted") else "skipped"] += 1
                on_reply(reply)
            else:
                kept.setdefault(task.path, []).append((task, reply))
        for path, items in kept.items():  # one write a file for the answers that came together
            wants = [
                fill_mod.Want(
                    task.doc,
                    reply.grade,
                    None if reply.error is None else fill_mod.note_text(identity, reply.error),
                )
                for task, reply in items
            ]
            outcomes = fill_mod.fill_many(cfg.root, rules, path, the_plan.batch, identity, wants)
            for outcome, (_task, reply) in zip(outcomes, items, strict=True):
                if outcome == fill_mod.WRITTEN:
                    counts["written"] += 1
                elif outcome in (fill_mod.NOTED, fill_mod.UNCHANGED):
                    counts["noted"] += 1
                else:
                    counts["skipped"] += 1
                on_reply(reply)

    to_ask: list[Task] = []
    from_cache: list[tuple[Task, Reply]] = []
    for task in the_plan.tasks:
        known = responses.get(task.question, task.text, task.doc)
        if known is None:
            to_ask.append(task)
        else:
            from_cache.append((task, known))
    counts["cached"] = len(from_cache)
    for start in range(0, len(from_cache), CACHED_GROUP):
        handle(from_cache[start : start + CACHED_GROUP])
    if to_ask:
        pool = ThreadPoolExecutor(max_workers=max(1, concurrency))
        answered: SimpleQueue[tuple[Task, Future[Reply]]] = SimpleQueue()
        try:
            for t in to_ask:
                f = pool.submit(_ask, backend, t.item(judge.grades))
                f.add_done_callback(partial(_put, answered, t))
            held = _Held(to_ask)
            left = len(to_ask)
            while left:
                ready = [answered.get()]
                while True:  # every answer that came meanwhile: one group
                    try:
                        ready.append(answered.get_nowait())
                    except Empty:
                        break
                left -= len(ready)
                replies = [(task, f.result()) for task, f in ready]
                counts["asked"] += len(replies)
                responses.put_many([(task.question, task.text, r) for task, r in replies])
                handle(held.add(replies))
            handle(held.rest())
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    sha, committed = None, 0
    if commit and the_plan.calibrate:
        sha = _commit_calibration(cfg, judge, the_plan)
        committed = counts["written"] if sha is not None else 0
    elif commit:
        sha, committed = commit_left(cfg, judge, the_plan.batch, cache_dir)
    return Result(
        batch=the_plan.batch,
        identity=identity,
        documents=len(the_plan.tasks),
        asked=counts["asked"],
        cached=counts["cached"],
        written=counts["written"],
        noted=counts["noted"],
        failed=counts["failed"],
        skipped=counts["skipped"],
        no_text=len(the_plan.no_text),
        cost=cost,
        commit=sha,
        committed=committed,
    )


class _Held:
    """Answers (kept in the response cache already) held back from the label files until
    every document of their file asked in this run has one, or :data:`HOLD` seconds after the
    first of them came: then one write a file for them all."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self._left = Counter(t.path for t in tasks)
        self._held: dict[Path, list[tuple[Task, Reply]]] = {}
        self._since: dict[Path, float] = {}

    def add(self, replies: Sequence[tuple[Task, Reply]]) -> list[tuple[Task, Reply]]:
        """Hold ``replies``; return what is to be written now."""
        now = time.monotonic()
        for task, reply in replies:
            self._left[task.path] -= 1
            self._held.setdefault(task.path, []).append((task, reply))
            self._since.setdefault(task.path, now)
        due = [p for p in self._held if self._left[p] <= 0 or now - self._since[p] >= HOLD]
        out: list[tuple[Task, Reply]] = []
        for path in due:
            out += self._held.pop(path)
            del self._since[path]
        return out

    def rest(self) -> list[tuple[Task, Reply]]:
        out = [item for items in self._held.values() for item in items]
        self._held.clear()
        self._since.clear()
        return out


def _put(answered: SimpleQueue[tuple[Task, Future[Reply]]], task: Task, f: Future[Reply]) -> None:
    answered.put((task, f))


def _ask(backend: Backend, item: Item) -> Reply:
    try:
        return backend.ask(item)
    except Exception as exc:  # a backend must not raise; if it does, no answer: ask again later
        return Reply(item.doc_id, None, f"no answer: the backend failed: {type(exc).__name__}")


def _commit_calibration(cfg: Config, judge: MachineJudge, the_plan: Plan) -> str | None:
    """Commit the machine's calibration lines (and a killed run's)."""
    ours, _others = calibrate.uncommitted(cfg, judge.identity, list(the_plan.files))
    if not ours:
        return None
    done = commit_mod.commit(
        cfg.root,
        ours,
        the_plan.batch,
        machine=(judge.identity, verdicts.MACHINE_EMAIL),
        trailers=trailers(judge),
        subject=f"labelpool judge --machine --calibrate: verdicts beside people's in "
        f"{len(ours)} label file{'s' if len(ours) != 1 else ''}",
    )
    return done.commit
