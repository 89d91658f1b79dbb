"""``labelpool pool``: put the documents the runs disagree on in front of a judge.

The plan (:mod:`labelpool.workflows.pool.plan`: the union of the runs' top ``depth`` less what
is judged or waits in a batch) is written and committed here:

1. The remainder is written into each question's label file as a ``pending`` batch (see
   :mod:`labelpool.batch`), with the question and each document's chunk text above its
   one-line verdict; a question whose remainder is empty gets its ``pool`` entries.
2. By default on a new branch, as one commit stating the batch, all or nothing: the commit is
   built as git objects, the journal ``.git/labelpool/pool.json`` is written, the branch is
   created in one step (``update-ref refs/heads/B C 0000...``, which fails if B exists),
   ``HEAD`` switches to it, and only then are the changed label files and their index entries
   written (:mod:`labelpool.journal`). A run killed at any point leaves no branch and the old
   files, or a journal the next ``pool`` finishes. A rerun that finds B holding exactly the
   tree it would write switches to B (exit 0); any other B is refused, naming it.
   ``--no-commit`` writes no journal: each file is written atomically (old or new, never
   torn) but not the files as one; a rerun after a kill converges on the same files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from labelpool import atomic, corpus, gitio, journal, labelset, repolock, schemas, yamlfile
from labelpool import batch as batch_mod
from labelpool.config import Config
from labelpool.labelset import LabelSet
from labelpool.model import label_from_data
from labelpool.rules import written as written_rules
from labelpool.workflows.pool import assign as assign_mod
from labelpool.workflows.pool import carry, readback, tasks
from labelpool.workflows.pool.entries import add_pool_entries
from labelpool.workflows.pool.plan import (
    PoolError,
    PoolPlan,
    PoolResult,
    PoolUsageError,
    QuestionPlan,
    SystemRun,
    branch_name,
    check_seats,
    commit_message,
    load_runs,
    plan,
    today,
)
from labelpool.yamlfile.textcheck import char_name

__all__ = [
    "PoolError",
    "PoolPlan",
    "PoolResult",
    "PoolUsageError",
    "QuestionPlan",
    "SystemRun",
    "apply",
    "branch_name",
    "check_seats",
    "commit_message",
    "load_runs",
    "load_texts",
    "plan",
    "prepare",
    "resolve_assign",
    "run",
    "today",
    "write",
]


def resolve_assign(root: Path, labels: LabelSet, names: Sequence[str]) -> tuple[str, ...]:
    """``--assign``'s names as full identities (:mod:`.assign`); unknown: exit 2."""
    return tuple(assign_mod.resolve(names, assign_mod.known_judges(root, labels)))


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


def write(
    cfg: Config, plan_: PoolPlan, with_text: bool = True, labels: LabelSet | None = None
) -> tuple[list[Path], list[str]]:
    """Write the batch and the ``pool`` entries of complete questions; return changed files."""
    changes, notes = prepare(cfg, plan_, with_text, labels)
    return apply(changes), notes


def prepare(
    cfg: Config, plan_: PoolPlan, with_text: bool = True, labels: LabelSet | None = None
) -> tuple[list[tuple[Path, str]], list[str]]:
    """The new text of every file the batch changes, each checked, and notes; nothing is
    written, so a problem in any file (or in the corpus) leaves the tree untouched.
    ``labels``: the set the plan was made from; a file its index row holds is read back by
    its appended batches alone (:mod:`.readback`)."""
    where = readback.sources(labels) if labels is not None else {}
    heads: dict[str, Any] = {}  # batch heads read back, by their text
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
    if plan_.batched or plan_.complete:
        _refuse_system_names(plan_.runs, bool(plan_.batched))
    changes: list[tuple[Path, str]] = []
    for q in plan_.batched:
        _refuse_doc_ids(q)
        items = [
            batch_mod.render(new, question=q.question if with_text else None, texts=texts)
            for new in seats(plan_, q, blobs)
        ]
        try:
            old = text = q.path.read_text(encoding="utf-8")
            for item in items:
                text = batch_mod.append(text, item)
        except (OSError, UnicodeDecodeError) as exc:
            raise PoolError(f"cannot read: {exc}", path=q.path) from None
        except batch_mod.BatchError as exc:
            raise PoolError(str(exc).replace("<text>", str(q.path))) from None
        # never write a batch that does not read back as exactly these documents
        data = readback.appended(old, text, items, readback.old_data(where, q.qid, old), heads)
        if data is None:
            data = yamlfile.loads_written(text, q.path)
        back = label_from_data(data)
        tail = back.pending[-len(items) :] if len(back.pending) >= len(items) else ()
        if not tail or any(sorted(d.doc for d in b.docs) != sorted(q.docs) for b in tail):
            raise PoolError("the batch does not read back as written (a bug)", path=q.path)
        _refuse_invalid(cfg, q.path, old, text, data)
        changes.append((q.path, text))
    complete = {q.qid for q in plan_.complete}
    for q in plan_.questions:
        if q.docs or (q.qid not in complete and not q.carried):
            continue  # a batch names its carried documents: merge records them
        doc = yamlfile.load_roundtrip(q.path)
        entries = [(s, plan_.depth, plan_.date, blobs[s]) for s in plan_.systems]
        added = q.qid in complete and add_pool_entries(doc.data, entries)
        if not (carry.record(doc.data, q.carried) or added):
            continue
        text = yamlfile.dumps(doc.data, path=q.path)
        if text == doc.text:
            continue
        if q.path.is_symlink():
            raise PoolError("LP037 symlink; not replaced by a file", path=q.path, line=1, column=1)
        _refuse_invalid(cfg, q.path, doc.text, text)
        changes.append((q.path, text))
    return changes, notes


def seats(plan_: PoolPlan, q: QuestionPlan, blobs: Mapping[str, str]) -> list[batch_mod.NewBatch]:
    """The pending entries of one question: one (today's form) for one judge; else one per
    seat, each with the documents in the seat's own shuffled order and its judge if
    assigned."""
    one = batch_mod.NewBatch(
        batch=plan_.batch,
        systems=plan_.systems,
        depth=plan_.depth,
        date=plan_.date,
        runs=blobs,
        docs=q.docs,
        full_depth=q.full_depth,
        task=plan_.task,
        carried=dict(q.carried) or None,
    )
    if plan_.judges == 1 and not plan_.assign:
        return [one]
    return [
        replace(
            one,
            docs=batch_mod.seat_order(q.docs, q.qid, plan_.batch, seat),
            seat=seat if plan_.judges > 1 else None,
            judge=plan_.assign[seat - 1] if plan_.assign else None,
        )
        for seat in range(1, plan_.judges + 1)
    ]


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


def _refuse_system_names(runs: Sequence[SystemRun], batched: bool) -> None:
    """Refuse, before anything is written, a system name (a run file's name) that validate
    would refuse in a label file (a control or bidirectional character: LP003, LP004; a
    byte that is not UTF-8: LP002), or, when a batch writes it as it is, a line break;
    naming the run file."""
    for r in runs:
        problem = _name_problem(r.name, batched)
        if problem is not None:
            raise PoolError(
                f"system name {r.name!a} {problem}; validate would refuse it in the label "
                "files, so nothing is written (rename the run file)",
                path=r.path,
            )


_BREAKS = "\n\r\u2028\u2029"  # a batch writes a system name as it is, on one line


def _name_problem(name: str, batched: bool) -> str | None:
    for ch in name:
        if "\udc80" <= ch <= "\udcff":  # a file name's byte that is not UTF-8
            return f"holds the byte 0x{ord(ch) - 0xDC00:02X}, which is not UTF-8 (LP002)"
    problem = written_rules.text_problem(name)  # validate's own character rules
    if problem is not None:
        return problem
    found = next((ch for ch in name if ch in _BREAKS), None) if batched else None
    if found is not None:
        return f"holds the line break {char_name(found)}, and a batch names it on one line"
    return None


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
    # the finding's place is in the new text: cite it in the file only where the file on disk
    # reads the same up to that line, else say where it is in the text pool would write
    on_disk = _same_lines(old, new, found.line)
    where = "" if on_disk else f" (line {found.line}, column {found.col} of the text to be written)"
    raise PoolError(
        f"{found.rule} {found.message}{where}: validate would refuse the file with the "
        f"batch{hint}; nothing written",
        path=path,
        line=found.line if on_disk else None,
        column=found.col if on_disk else None,
    )


def _same_lines(old: str, new: str, lines: int) -> bool:
    """Whether ``old`` and ``new`` hold the same first ``lines`` lines."""
    return old.split("\n", lines)[:lines] == new.split("\n", lines)[:lines]


def apply(changes: Sequence[tuple[Path, str]]) -> list[Path]:
    """Write what :func:`prepare` computed (each file atomically); return the files. A
    folder that cannot be written is refused before the first write."""
    atomic.refuse_unwritable(sorted({path.parent for path, _ in changes}))
    try:
        for path, text in changes:
            atomic.write_text(path, text)
    except OSError as exc:
        done = "the label files before it hold the batch, the rest not"
        raise repolock.failed(exc, done) from None
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
    wait: float = 0.0,
    judges: int = 1,
    assign: Sequence[str] = (),
    task: tasks.Task | None = None,
) -> PoolResult:
    """The whole command: plan, then (with ``commit``) the batch committed on a new branch,
    all or nothing (see the module doc), or (``--no-commit``) the files written; under the
    repository lock (``wait``: seconds to wait for another writer), which the caller takes
    before it loads ``labels``."""
    with repolock.held(cfg.labels_dir, command="labelpool pool", wait=wait):
        seats_ = (judges, tuple(assign), task)
        return _run(
            cfg, labels, specs, depth, max_docs, questions, with_text, commit, branch, date, seats_
        )


def _run(
    cfg: Config,
    labels: LabelSet,
    specs: Sequence[str],
    depth: int,
    max_docs: int | None,
    questions: Sequence[str] | None,
    with_text: bool,
    commit: bool,
    branch: str | None,
    date: str | None,
    seats_: tuple[int, tuple[str, ...], tasks.Task | None] = (1, (), None),
) -> PoolResult:
    date = date or today()
    judges, assign, task = seats_
    check_seats(judges, assign)
    if assign:
        assign = resolve_assign(cfg.root, labels, assign)
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
    if task is not None:
        the_plan = tasks.plan_task(
            labels, task, date, judges=judges, assign=assign, questions=questions
        )
    else:
        the_plan = plan(
            labels,
            load_runs(cfg, specs, depth),
            depth,
            date,
            max_docs=max_docs,
            questions=questions,
            judges=judges,
            assign=assign,
        )
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
    changes, notes = prepare(cfg, the_plan, with_text, labels)  # every check before a change
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


def _land(
    cfg: Config, top: Path, name: str, the_plan: PoolPlan, changes: Sequence[tuple[Path, str]]
) -> str | None:
    """Commit ``changes`` on the new branch ``name`` and switch to it, all or nothing; a
    branch ``name`` holding exactly this tree already is switched to (a rerun)."""
    base = gitio.head_commit(top)
    if base is None:
        raise PoolError("no commit yet: commit the label files first", path=cfg.root)
    ref = f"refs/heads/{name}"
    rels = gitio.relative_paths(top, [p for p, _ in changes])
    files = {r: t.encode() for r, (_, t) in zip(rels, changes, strict=True)}
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
        modes=gitio.tree_entries(top, base, labels_rel),
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
