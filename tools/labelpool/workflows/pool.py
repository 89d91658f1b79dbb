"""``labelpool pool``: put the documents the runs disagree on in front of a judge.

1. Take the union of the runs' top ``depth`` per question.
2. Subtract what is judged (``judged_ids`` and class members) and what already waits in a batch.
3. Write the remainder into the question's label file as a ``pending`` batch (see
   :mod:`labelpool.batch`), with the question and each document's chunk text above its
   one-line verdict.
4. A question whose remainder is empty gets a ``pool`` entry per system at once.
5. By default on a new branch, as one commit stating the batch, all or nothing: the commit is
   built as git objects, the journal ``.git/labelpool/pool.json`` is written, the branch is
   created in one step (``update-ref refs/heads/B C 0000...``, which fails if B exists),
   ``HEAD`` switches to it, and only then are the changed label files and their index entries
   written (:mod:`labelpool.journal`). A run killed at any point leaves no branch and the old
   files, or a journal the next ``pool`` finishes. A rerun that finds B holding exactly the
   tree it would write switches to B (exit 0); any other B is refused, naming it.
   ``--no-commit`` writes no journal: each file is written atomically (old or new, never
   torn) but not the files as one; a rerun after a kill converges on the same files.
6. The plan carries the cost (union, judged, remainder, each system's unjudged rate at depth).

Order of documents in a batch: by best (lowest) rank over the runs, then by id (code point).
``max_docs``: the budget goes to the documents ranked highest across the runs first, over all
questions: sorted by best rank over the runs, then by the number of runs that rank it within
``depth`` (more first), then by document id, then by question id; the first ``max_docs`` are
taken. A question whose batch a budget cut records ``full_depth`` per system: the depth that
the judged set, the earlier batches and this batch cover in full (its ``pool`` entry's ``k``
after the merge). Documents waiting in an earlier batch count as covered: a batch's ``pool``
entries assume the earlier batches of that question are merged too.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from labelpool import atomic, corpus, gitio, journal, labelset, schemas, yamlfile
from labelpool import batch as batch_mod
from labelpool import runs as runs_mod
from labelpool.config import Config
from labelpool.errors import StateError, UsageError
from labelpool.labelset import LabelSet
from labelpool.model import BatchHead, label_from_data
from labelpool.rules import written as written_rules
from labelpool.scoring import unjudged_at
from labelpool.workflows.pool_entries import add_pool_entries


class PoolError(StateError):
    """The batch cannot be made; the message says why (exit 1)."""


class PoolUsageError(UsageError, PoolError):
    """An option is wrong (the command line, not the repository): exit 2."""


@dataclass(frozen=True)
class SystemRun:
    name: str
    path: Path
    blob: str  # git blob id of the run file
    top: Mapping[str, list[str]]  # qid -> top ``depth`` documents
    run: Any = None  # the parsed :class:`labelpool.runs.Run` (for the unjudged rate)


@dataclass(frozen=True)
class QuestionPlan:
    qid: str
    path: Path
    question: str
    union: int
    judged: int  # of the union
    waiting: int  # of the union, pending in an earlier batch
    docs: tuple[str, ...]  # the remainder put in this batch, in review order
    left_out: int = 0  # remainder left out by the budget
    full_depth: Mapping[str, int] | None = None


@dataclass(frozen=True)
class PoolPlan(BatchHead):
    runs: tuple[SystemRun, ...]
    questions: tuple[QuestionPlan, ...]  # every question the runs retrieve for
    # system -> unjudged rate at depth over the judged questions, as ``labelpool score`` says
    unjudged_before: Mapping[str, float]
    max_docs: int | None = None

    @property
    def union(self) -> int:
        return sum(q.union for q in self.questions)

    @property
    def judged(self) -> int:
        return sum(q.judged for q in self.questions)

    @property
    def waiting(self) -> int:
        return sum(q.waiting for q in self.questions)

    @property
    def remainder(self) -> int:
        return sum(len(q.docs) + q.left_out for q in self.questions)

    @property
    def documents(self) -> int:
        return sum(len(q.docs) for q in self.questions)

    @property
    def batched(self) -> tuple[QuestionPlan, ...]:
        return tuple(q for q in self.questions if q.docs)

    @property
    def complete(self) -> tuple[QuestionPlan, ...]:
        """Questions whose union is judged in full: they get ``pool`` entries at once."""
        return tuple(q for q in self.questions if not q.docs and not q.left_out and not q.waiting)

    @property
    def judged_fraction(self) -> float:
        return self.judged / self.union if self.union else 1.0


@dataclass(frozen=True)
class PoolResult:
    plan: PoolPlan
    written: tuple[Path, ...] = ()
    branch: str | None = None
    commit: str | None = None
    notes: tuple[str, ...] = field(default=())


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def load_runs(cfg: Config, specs: Sequence[str], depth: int) -> tuple[SystemRun, ...]:
    out: list[SystemRun] = []
    for spec in specs:
        try:
            path = runs_mod.resolve(cfg, spec)
        except runs_mod.RunError as exc:  # no such file or system: a usage error, as in compare
            raise PoolUsageError(str(exc)) from None
        try:
            run = runs_mod.read_run(path)
        except runs_mod.RunError as exc:
            raise PoolError(str(exc)) from None
        if any(r.name == run.name for r in out):
            raise PoolUsageError(f"{spec}: system {run.name!r} is given twice")
        blob = gitio.blob_id(cfg.root, path.absolute())  # git runs at the root, not here
        out.append(SystemRun(run.name, path, blob, run.top(depth), run))
    return tuple(out)


def plan(
    labels: LabelSet,
    runs: Sequence[SystemRun],
    depth: int,
    date: str,
    max_docs: int | None = None,
    questions: Sequence[str] | None = None,
) -> PoolPlan:
    """What ``pool`` would write, without writing anything."""
    if depth < 1:
        raise PoolUsageError(f"--depth must be at least 1, not {depth}")
    if max_docs is not None and max_docs < 0:
        raise PoolUsageError(f"--max-docs must be >= 0, not {max_docs}")
    if questions is not None:
        unknown = sorted(set(questions) - set(labels))
        if unknown:
            raise PoolUsageError(f"--questions: no label for {', '.join(unknown)}")
    selected = sorted(questions if questions is not None else labels)
    systems = tuple(r.name for r in runs)

    rows: list[tuple[str, list[tuple[int, int, str]], int, int, int]] = []
    for qid in selected:
        label = labels[qid]
        best: dict[str, tuple[int, int]] = {}
        for r in runs:
            for rank, doc in enumerate(r.top.get(qid, [])[:depth], start=1):
                old = best.get(doc)
                best[doc] = (rank, 1) if old is None else (min(old[0], rank), old[1] + 1)
        if not best:
            continue
        judged = sum(1 for d in best if d in label.judged)
        waiting = sum(1 for d in best if d not in label.judged and d in label.pending_ids)
        remainder = sorted(
            (rank, -count, doc)
            for doc, (rank, count) in best.items()
            if doc not in label.judged and doc not in label.pending_ids
        )
        rows.append((qid, remainder, len(best), judged, waiting))

    chosen: set[tuple[str, str]] | None = None
    if max_docs is not None:
        ranked = sorted((rank, negc, doc, qid) for qid, rem, *_ in rows for rank, negc, doc in rem)
        chosen = {(qid, doc) for _, _, doc, qid in ranked[:max_docs]}

    plans: list[QuestionPlan] = []
    for qid, remainder, union, judged, waiting in rows:
        docs = [d for _, d in sorted((r, d) for r, _n, d in remainder)]
        kept = [d for d in docs if (qid, d) in chosen] if chosen is not None else docs
        full: dict[str, int] | None = None
        if len(kept) < len(docs):
            covered = labels[qid].judged | labels[qid].pending_ids | set(kept)
            full = {}
            for r in runs:
                top = r.top.get(qid, [])[:depth]
                k = next((i for i, d in enumerate(top) if d not in covered), len(top))
                full[r.name] = depth if k == len(top) else k
        plans.append(
            QuestionPlan(
                qid=qid,
                path=labels.paths[qid],
                question=labels[qid].question,
                union=union,
                judged=judged,
                waiting=waiting,
                docs=tuple(kept),
                left_out=len(docs) - len(kept),
                full_depth=full,
            )
        )

    judged_qids = [q for q in selected if labels[q].is_judged]
    unjudged: dict[str, float] = {}
    for r in runs:
        if r.run is None:
            continue
        unjudged[r.name] = float(unjudged_at(r.run, labels, judged_qids, depth)[1])
    return PoolPlan(
        batch=batch_mod.batch_id(date, systems, depth),
        systems=systems,
        depth=depth,
        date=date,
        runs=tuple(runs),
        questions=tuple(plans),
        unjudged_before=unjudged,
        max_docs=max_docs,
    )


def branch_name(plan: PoolPlan) -> str:
    """``labelpool/batch-DATE-SYS1+SYS2``; characters git refuses in a branch name (system
    names come from file names) become ``-``."""
    systems = "+".join(plan.systems)
    systems = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._+-]+", "-", systems)).strip(".-")
    return f"labelpool/batch-{plan.date}-{systems or 'runs'}"


def commit_message(plan: PoolPlan) -> str:
    pct = 100.0 * plan.judged_fraction
    lines = [
        f"labelpool pool: batch {plan.batch}",
        "",
        f"Systems: {', '.join(plan.systems)}; depth: {plan.depth}; date: {plan.date}.",
        f"Documents to judge: {plan.documents} in {len(plan.batched)} questions.",
        f"Union of the top {plan.depth}: {plan.union}; already judged: {plan.judged} "
        f"({pct:.1f}%); waiting in earlier batches: {plan.waiting}.",
    ]
    if plan.max_docs is not None:
        lines.append(
            f"Budget --max-docs {plan.max_docs}: {plan.remainder - plan.documents} documents "
            "left for a later batch."
        )
    if plan.complete:
        lines.append(
            f"Judged in full already (pool entries added): {len(plan.complete)} questions."
        )
    lines.append(
        "Unjudged rate at {} before judging: {}.".format(
            plan.depth,
            ", ".join(f"{s} {plan.unjudged_before.get(s, float('nan')):.3f}" for s in plan.systems),
        )
    )
    return "\n".join(lines) + "\n"


def load_texts(cfg: Config, plan_: PoolPlan) -> tuple[dict[str, str | None] | None, str | None]:
    """Chunk text of every batched document (None: not in the corpus); with no corpus
    configured, None (no text comment is written) and a note saying so."""
    wanted = {d for q in plan_.batched for d in q.docs}
    if cfg.corpus is None:
        return None, "no corpus configured ([tool.labelpool] corpus): chunk text is left out"
    texts = corpus.load_texts(cfg)
    out: dict[str, str | None] = {}
    for d in wanted:
        t = texts.get(d)
        if t is None:
            out[d] = None
            continue
        title = str(getattr(t, "title", "") or "")
        body = str(getattr(t, "text", t))
        out[d] = f"{title}: {body}" if title and not body.startswith(title) else body
    return out, None


def write(cfg: Config, plan_: PoolPlan, with_text: bool = True) -> tuple[list[Path], list[str]]:
    """Write the batch and the ``pool`` entries of complete questions; return changed files."""
    changes, notes = prepare(cfg, plan_, with_text)
    return apply(changes), notes


def prepare(
    cfg: Config, plan_: PoolPlan, with_text: bool = True
) -> tuple[list[tuple[Path, str]], list[str]]:
    """The new text of every file the batch changes, each checked, and notes; nothing is
    written, so a problem in any file (or in the corpus) leaves the tree untouched."""
    notes: list[str] = []
    texts: Mapping[str, str | None] | None = None
    if with_text and plan_.batched:
        try:
            texts, note = load_texts(cfg, plan_)
        except corpus.CorpusError as exc:
            raise PoolError(f"{exc} (or use --no-text)") from None
        if note:
            notes.append(note)
    blobs = {r.name: r.blob for r in plan_.runs}
    changes: list[tuple[Path, str]] = []
    for q in plan_.batched:
        _refuse_doc_ids(q)
        item = batch_mod.render(
            batch_mod.NewBatch(
                batch=plan_.batch,
                systems=plan_.systems,
                depth=plan_.depth,
                date=plan_.date,
                runs=blobs,
                docs=q.docs,
                full_depth=q.full_depth,
            ),
            question=q.question if with_text else None,
            texts=texts,
        )
        try:
            old = q.path.read_text(encoding="utf-8")
            text = batch_mod.append(old, item)
        except (OSError, UnicodeDecodeError) as exc:
            raise PoolError(f"cannot read: {exc}", path=q.path) from None
        except batch_mod.BatchError as exc:
            raise PoolError(str(exc).replace("<text>", str(q.path))) from None
        # never write a batch that does not read back as exactly these documents
        data = yamlfile.loads_fast(text, q.path)
        back = label_from_data(data)
        if not back.pending or [d.doc for d in back.pending[-1].docs] != list(q.docs):
            raise PoolError("the batch does not read back as written (a bug)", path=q.path)
        _refuse_invalid(cfg, q.path, old, text, data)
        changes.append((q.path, text))
    for q in plan_.complete:
        doc = yamlfile.load_roundtrip(q.path)
        if not add_pool_entries(
            doc.data, [(s, plan_.depth, plan_.date, blobs[s]) for s in plan_.systems]
        ):
            continue
        text = yamlfile.dumps(doc.data)
        if text == doc.text:
            continue
        if q.path.is_symlink():
            raise PoolError("LP037 symlink; not replaced by a file", path=q.path, line=1, column=1)
        _refuse_invalid(cfg, q.path, doc.text, text)
        changes.append((q.path, text))
    return changes, notes


def _refuse_doc_ids(q: QuestionPlan) -> None:
    """Refuse, before anything is written, a document id validate would refuse in the batch."""
    for doc in q.docs:
        problem = written_rules.doc_id_problem(doc)
        if problem is not None:
            raise PoolError(
                f"question {q.qid}: document {doc!a} {problem}; validate would refuse the "
                "batch, so nothing is written (fix the run file, or leave the document out)",
                path=q.path,
            )


def _refuse_invalid(cfg: Config, path: Path, old: str, new: str, data: Any = None) -> None:
    """Refuse new file text validate would refuse (over the size bound, any new error);
    ``data``: the text as read back, when the caller has it."""
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    found = written_rules.first_new_error(
        old,
        new,
        schema_file=schema_file,
        max_bytes=cfg.max_file_bytes,
        max_depth=cfg.max_depth,
        data=data,
    )
    if found is None:
        return
    hint = " (pool fewer documents: --max-docs, or --no-text)" if found.rule == "LP001" else ""
    raise PoolError(
        f"{found.rule} {found.message}: validate would refuse the file with the batch{hint}; "
        "nothing written",
        path=path,
        line=found.line,
        column=found.col,
    )


def apply(changes: Sequence[tuple[Path, str]]) -> list[Path]:
    """Write what :func:`prepare` computed (each file atomically); return the files."""
    for path, text in changes:
        atomic.write_text(path, text)
    return [path for path, _ in changes]


def _require_identity(root: Path) -> None:
    """Refuse before any branch or file is touched when git could not commit the batch."""
    for ident in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
        try:
            gitio.git(root, "var", ident)
        except gitio.GitError:
            raise PoolError(
                "git cannot tell who commits the batch (set user.name and user.email: "
                "`git config user.name ...`), or use --no-commit"
            ) from None


def run(
    cfg: Config,
    labels: LabelSet,
    specs: Sequence[str],
    depth: int,
    *,
    max_docs: int | None = None,
    questions: Sequence[str] | None = None,
    with_text: bool = True,
    commit: bool = True,
    branch: str | None = None,
    date: str | None = None,
) -> PoolResult:
    """The whole command: plan, then (with ``commit``) the batch committed on a new branch,
    all or nothing (see the module doc), or (``--no-commit``) the files written."""
    date = date or today()
    top = gitio.toplevel(cfg.root)
    finished: str | None = None
    if top is not None:
        finished = journal.recover(top, "pool")
        if finished == "finished":
            labels = labelset.load(cfg)  # the files the interrupted pool wrote
    if commit:
        if top is None:
            raise PoolError("not a git repository (use --no-commit to just write)", path=cfg.root)
        if not cfg.labels_dir.resolve().is_relative_to(cfg.root.resolve()):
            raise PoolError(
                f"the labels folder is outside the repository {cfg.root}; "
                "a batch can only be committed inside it (use --no-commit to just write)",
                path=cfg.labels_dir,
            )
        labels_rel = str(cfg.labels_dir.resolve().relative_to(cfg.root.resolve()))
        if gitio.is_dirty(cfg.root, (labels_rel,)):
            raise PoolError(
                "uncommitted changes; commit or discard them first (or use --no-commit)",
                path=cfg.labels_dir,
            )
        _require_identity(cfg.root)
    runs_ = load_runs(cfg, specs, depth)
    the_plan = plan(labels, runs_, depth, date, max_docs=max_docs, questions=questions)
    done_note = (
        ("finished the pool a kill interrupted (.git/labelpool/pool.json)",)
        if finished == "finished"
        else ()
    )
    if not the_plan.batched and not the_plan.complete:
        return PoolResult(plan=the_plan, notes=(*done_note, "nothing to write"))
    name: str | None = None
    if commit:
        name = branch or branch_name(the_plan)
        if not gitio.check_branch_name(cfg.root, name):
            if branch is None:
                raise PoolError(f"{name!r} is not a valid branch name; name one with --branch")
            raise PoolUsageError(f"--branch {name!r}: not a valid branch name")
    changes, notes = prepare(cfg, the_plan, with_text=with_text)  # every check before a change
    notes = [*done_note, *notes]
    if not commit:
        written = apply(changes)
        return PoolResult(plan=the_plan, written=tuple(written), notes=tuple(notes))
    assert top is not None and name is not None
    sha = _land(cfg, top, name, the_plan, changes)
    return PoolResult(
        plan=the_plan,
        written=tuple(p for p, _ in changes),
        branch=name,
        commit=sha,
        notes=tuple(notes),
    )


def _relative(path: Path, top: Path, folders: dict[Path, Path]) -> str:
    """``path.resolve()`` relative to the resolved ``top``, as posix; a file that is not a
    symlink resolves to its resolved folder and its name (one ``resolve`` per folder, kept
    in ``folders``, not per file: 0.4 s at 10,000 files)."""
    if path.is_symlink() or path.name in ("", ".", ".."):
        return path.resolve().relative_to(top).as_posix()
    folder = folders.get(path.parent)
    if folder is None:
        folder = folders[path.parent] = path.parent.resolve()
    return (folder / path.name).relative_to(top).as_posix()


def _land(
    cfg: Config, top: Path, name: str, the_plan: PoolPlan, changes: Sequence[tuple[Path, str]]
) -> str | None:
    """Commit ``changes`` on the new branch ``name`` and switch to it, all or nothing; a
    branch ``name`` holding exactly this tree already is switched to (a rerun)."""
    base = gitio.head_commit(top)
    if base is None:
        raise PoolError("no commit yet: commit the label files first", path=cfg.root)
    ref = f"refs/heads/{name}"
    top_resolved, folders = top.resolve(), dict[Path, Path]()
    files = {_relative(p, top_resolved, folders): t.encode() for p, t in changes}
    labels_rel = cfg.labels_dir.resolve().relative_to(top.resolve()).as_posix()
    step = journal.Step(files, commit_message(the_plan))
    todo = journal.build(
        top,
        "pool",
        [step],
        ref=ref,
        old=gitio.ZERO_COMMIT,
        base=base,
        head=ref,
        labels_rel=labels_rel,
    )
    if todo is None:
        return None
    existing = gitio.ref_value(top, ref)
    if existing is not None:
        if gitio.tree_of(top, existing) != gitio.tree_of(top, todo.new):
            raise PoolError(f"branch {name!r} exists already; name another with --branch")
        todo = replace(todo, old=existing, new=existing)  # a rerun: switch to it
    try:
        journal.land(top, todo, "labelpool pool")
    except journal.RefMoved:
        raise PoolError(f"branch {name!r} exists already; name another with --branch") from None
    return todo.new
