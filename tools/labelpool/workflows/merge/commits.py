"""``labelpool merge``: fold filled verdicts of pending batches into the label lists.

A verdict is folded as follows:

* ``relevant`` -> relevant, grade 1; an integer ``g >= 1`` -> relevant with a ``grades`` entry
  when ``g != 1``; ``0`` or ``irrelevant`` -> judged irrelevant (``judged_ids`` only);
* ``{duplicate-of: ID}`` -> the document joins ID's class in ``relevant_classes`` (a class
  ``[ID, doc]`` is created when ID is relevant and in no class yet); refused, naming both
  documents, when one of the class's documents supersedes the other (directly or through a
  chain). A duplicate of a document not (yet) judged relevant stays pending, with the reason.

Every folded document lands in ``judged_ids`` (and leaves ``pooled_unjudged_ids``); lists stay
sorted through :mod:`labelpool.labelfile`'s helpers. Resolved entries leave the batch with their
comment lines; a batch whose documents are all resolved disappears and its systems get
``pool`` entries ``{system, k, date, run}`` (``k`` is the batch's depth, or the ``full_depth``
the batch recorded when a budget cut it). A verdict contradicting an existing judgment is an
error naming both lines, and nothing is written.

The audit trail names the judge: each verdict line's author is read with ``git blame``
(honouring ``.git-blame-ignore-revs``) before anything is folded, and the changes are written
as one commit per judge with that judge as author (committer: whoever runs the merge). A line
not committed yet is attributed to the current git user. Judges are folded in this order: the
current user's uncommitted verdicts, then committed judges by name and email, then the oracle.
``--oracle QRELS`` fills empty verdicts from a reference qrels file, committed with the
author ``labelpool oracle <oracle@labelpool.invalid>``.

All or nothing: every judge's commit is built as git objects first (blobs, trees through a
temporary index, a chain of ``commit-tree``; :mod:`labelpool.journal`), the journal
``.git/labelpool/merge.json`` is written, the branch moves once (``update-ref REF NEW OLD``),
and only then are the touched label files and their index entries brought to the new blobs.
A merge killed at any point leaves the old branch and files, or a journal the next ``merge``
finishes; a branch moved by someone else meanwhile is refused (nothing changed). Paths the
merge does not touch are never modified in the index or the working tree. Label files with
pending entries are compared with ``HEAD`` first (index and working tree): a file whose only
changes are ``verdict:`` values on pending lines is merged, those verdicts attributed to the
current git user (and committed as theirs before any other judge's fold of that file); any
other change is refused naming ``path:line`` of the first differing line. Merging twice
changes nothing.

``--no-commit`` writes no journal and no commit: each changed label file is written atomically
(old or new, never torn), but the files are not written as one: a run killed mid-way leaves
some files folded and others not, and a second ``merge --no-commit`` completes the job.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from labelpool import atomic, gitio, journal, labelset, repolock
from labelpool import batch as batch_mod
from labelpool.config import Config
from labelpool.labelindex import blobids
from labelpool.oracle import Oracle
from labelpool.words import counted
from labelpool.workflows.merge import accept, carried
from labelpool.workflows.merge.collect import (
    UNKNOWN_TO_ORACLE,
    Cache,
    Labels,
    OracleMissing,
    Unresolved,
    collect,
    refuse_shallow,
)
from labelpool.workflows.merge.dryrun import DryRun, dry_run
from labelpool.workflows.merge.file import fold_file
from labelpool.workflows.merge.fold import (
    Decision,
    Judge,
    MergeError,
)

__all__ = [
    "JudgeCommit",
    "MergeError",
    "MergeResult",
    "Preview",
    "Unresolved",
    "commit_message",
    "merge",
    "preview",
]


@dataclass(frozen=True)
class JudgeCommit:
    judge: Judge
    commit: str | None
    files: tuple[Path, ...]
    relevant: int
    irrelevant: int
    duplicates: int
    batches: tuple[str, ...]
    completed: int  # question batches fully resolved (pool entries added)
    oracle_missing: int = 0
    accepted: int = 0  # proposed classes this reviewer accepted (merge/accept.py)
    carried: int | None = None  # verdicts classes carried, recorded (merge/carried.py)


@dataclass(frozen=True)
class MergeResult:
    commits: tuple[JudgeCommit, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # (question, document) of each document whose judges disagree since this merge
    disputes: tuple[tuple[str, str], ...] = ()

    @property
    def folded(self) -> int:
        return sum(c.relevant + c.irrelevant + c.duplicates for c in self.commits)

    @property
    def unknown_to_oracle(self) -> int:
        """Entries left pending because the oracle does not know their document."""
        return sum(1 for u in self.unresolved if u.reason == UNKNOWN_TO_ORACLE)


def merge(
    cfg: Config,
    *,
    oracle: Oracle | None = None,
    oracle_missing: OracleMissing = "pending",
    commit: bool = True,
    wait: float = 0.0,
) -> MergeResult:
    """Fold every filled verdict (see module doc); raise :class:`MergeError` when refused.
    Under the repository lock (:mod:`labelpool.repolock`; ``wait``: seconds to wait for
    another writer), taken before anything is read."""
    with repolock.held(cfg.labels_dir, command="labelpool merge", wait=wait):
        return _merge(cfg, oracle, oracle_missing, commit)


def _merge(
    cfg: Config, oracle: Oracle | None, oracle_missing: OracleMissing, commit: bool
) -> MergeResult:
    refuse_shallow(cfg.root)  # a shallow clone cannot say who judged: refused, nothing written
    notes: list[str] = []
    top = gitio.toplevel(cfg.root)
    if commit and top is None:
        raise MergeError("not a git repository (use --no-commit to just write)", path=cfg.root)
    if commit and not cfg.labels_dir.resolve().is_relative_to(cfg.root.resolve()):
        raise MergeError(
            f"the labels folder is outside the repository {cfg.root}; "
            "verdicts can only be committed inside it (use --no-commit to just write)",
            path=cfg.labels_dir,
        )
    name, email = gitio.user_identity(cfg.root) if top is not None else ("", "")
    if commit and not (name and email):
        raise MergeError("git user.name and user.email must be set: merge commits as a judge")
    me = Judge(name or "unknown", email or "unknown", uncommitted=True)
    if top is not None and journal.recover(top, "merge") == "finished":
        notes.append("finished the merge a kill interrupted (.git/labelpool/merge.json)")
    base: str | None = None
    if commit:
        assert top is not None
        base = gitio.head_commit(top)
        if base is None:
            raise MergeError("no commit yet: commit the label files first", path=cfg.root)

    cache: Cache = {}
    labels: Labels = {}
    with labelset.gc_paused():  # many small acyclic objects: the collector's passes find nothing
        _, decisions, unresolved = collect(cfg, me, oracle, oracle_missing, cache, labels=labels)
    named = carried.before({p: c[2] for p, c in cache.items()})
    committed: dict[Path, str] = {}
    at_head: dict[str, tuple[str, str]] = {}
    if commit:
        assert top is not None and base is not None
        committed, at_head = _check_against_head(top, base, sorted(cache), cache)
    dry = dry_run(cfg, decisions, unresolved, cache, labels)
    plan, disputes = dry.plan, dry.disputes
    if any(j.uncommitted for j in plan):
        notes.append(
            f"verdict lines not committed yet are attributed to the current git user: {me}"
        )
    worktree = {p: cache[p][1] for p in cache}  # each file's text as read
    steps = _fold_steps(dry, dict(worktree), cache, labels)

    steps += [_Step(*c) for c in carried.after(named, worktree, steps, me)]
    if not commit:
        final = {p: t for s in steps for p, t in s.changed.items()}
        atomic.refuse_unwritable(sorted({p.parent for p in final}))
        try:
            for path in sorted(final):
                atomic.write_text(path, final[path])
        except OSError as exc:
            folded = "the label files before it are folded, the rest not"
            raise repolock.failed(exc, folded) from None
        commits = tuple(s.info(None) for s in steps)
        return MergeResult(commits, tuple(sorted(unresolved, key=str)), tuple(notes), disputes)
    assert top is not None and base is not None
    steps = _carry_uncommitted(steps, me, worktree, committed)
    current = {**worktree, **{p: t for s in steps for p, t in s.changed.items()}}
    texts, more = accept.gather(cfg.labels_dir, top, base, current, worktree)
    found, more2 = accept.find(top, base, texts)
    notes += more + more2
    steps += [_Step(a.reviewer, (), a.texts, 0, a.classes) for a in found]
    ids = _land(top, base, steps, oracle, oracle_missing, at_head)
    commits = tuple(s.info(ids.get(i)) for i, s in enumerate(steps))
    return MergeResult(commits, tuple(sorted(unresolved, key=str)), tuple(notes), disputes)


def _fold_steps(
    dry: DryRun, texts: dict[Path, str], cache: Cache, labels: Labels | None = None
) -> list[_Step]:
    """Each judge's fold, in commit order, into ``texts`` (each file's current text); file by
    file, so that a judge's read-back is the next judge's reading, let go after the last. A
    file one judge folds takes the dry run's lists (``dry.folded``), never folded twice;
    the first fold of a file takes its label as read (``labels``, each let go once used)."""
    labels = labels if labels is not None else {}
    plan, supersedes = dry.plan, dry.supersedes
    order = sorted(plan, key=lambda j: (j.order, j.co_authors))
    by_file: list[dict[Path, list[Decision]]] = [{} for _ in order]
    judges_of: dict[Path, list[int]] = {}  # each file's judges, in commit order
    for i, judge in enumerate(order):
        for d in plan[judge]:
            if d.path not in by_file[i]:
                judges_of.setdefault(d.path, []).append(i)
            by_file[i].setdefault(d.path, []).append(d)
    new: dict[tuple[int, Path], str] = {}
    completed = [0] * len(order)
    for path, ids in judges_of.items():
        for n, i in enumerate(ids):  # keep: a later judge folds into the new text
            ds = by_file[i][path]
            after = dry.folded.pop(path, None) if len(ids) == 1 else None
            keep = n < len(ids) - 1
            label = labels.pop(path, None)
            text, done = fold_file(
                path, ds, supersedes, texts[path], cache, keep=keep, after=after, label=label
            )
            completed[i] += done
            if text is not None:
                texts[path] = new[(i, path)] = text
    changed = [{p: new[(i, p)] for p in mine if (i, p) in new} for i, mine in enumerate(by_file)]
    return [_Step(j, tuple(plan[j]), changed[i], completed[i]) for i, j in enumerate(order)]


@dataclass(frozen=True)
class Preview:
    """The label files as ``merge`` would leave them: nothing written, nothing committed."""

    texts: Mapping[Path, str]  # the new text of each label file the fold changes
    filled: int  # filled verdicts in the working tree, not merged
    unresolved: tuple[Unresolved, ...] = ()


def preview(cfg: Config) -> Preview:
    """What merging the filled verdicts of the working tree would make of the labels (for
    ``score --with-pending``): merge's own reading and fold, without judges, journal or
    commits. A verdict contradicting a judgment is merge's :class:`MergeError`."""
    cache: Cache = {}
    labels: Labels = {}
    me = Judge("preview", "preview", uncommitted=True)  # judges do not change the labels
    with labelset.gc_paused():
        _, decisions, unresolved = collect(cfg, me, cache=cache, attribute=False, labels=labels)
    dry = dry_run(cfg, decisions, unresolved, cache, labels)
    texts = {p: cache[p][1] for p in cache}
    steps = _fold_steps(dry, texts, cache, labels)
    final = {p: t for step in steps for p, t in step.changed.items()}
    return Preview(final, len(decisions), tuple(sorted(unresolved, key=str)))


@dataclass(frozen=True)
class _Step:
    """One judge's fold: the new text of each label file it changes."""

    judge: Judge
    decisions: tuple[Decision, ...]
    changed: Mapping[Path, str]
    completed: int
    accepted: int = 0
    carried: int | None = None  # a step of the verdicts classes carried (merge/carried.py)

    def info(self, sha: str | None) -> JudgeCommit:
        mine = self.decisions
        return JudgeCommit(
            self.judge,
            sha,
            tuple(self.changed),
            sum(1 for d in mine if d.duplicate_of is None and d.grade),
            sum(1 for d in mine if d.duplicate_of is None and not d.grade),
            sum(1 for d in mine if d.duplicate_of is not None),
            tuple(sorted({d.batch for d in mine})),
            self.completed,
            sum(1 for d in mine if d.oracle_missing),
            self.accepted,
            self.carried,
        )


def _check_against_head(
    top: Path, base: str, paths: list[Path], cache: Cache
) -> tuple[dict[Path, str], dict[str, tuple[str, str]]]:
    """Refuse a label file with pending entries whose index or working tree differs from
    ``HEAD`` by more than ``verdict:`` values of pending lines (``path:line`` of the first
    such line, nothing written); return the text at ``HEAD`` of each file whose working
    tree differs from it, and the ``(mode, blob)`` of every file under their folder there."""
    rels = gitio.relative_paths(top, paths)
    labels_rel = _common_folder(rels)
    at_head = gitio.tree_entries(top, base, labels_rel)
    staged = gitio.index_entries(top, labels_rel)
    clean = {  # index and working tree as at HEAD: the blob need not be read
        r
        for p, r in zip(paths, rels, strict=True)
        if r in at_head
        and staged.get(r, at_head[r]) == at_head[r]
        and blobids.blob_id_like(cache[p][1], at_head[r][1]) == at_head[r][1]
    }
    specs = [at_head[r][1] for r in rels if r in at_head and r not in clean]
    specs += [staged[r][1] for r in rels if r in staged and staged[r] != at_head.get(r)]
    blobs = dict(zip(specs, gitio.cat_blobs(top, specs), strict=True))
    committed: dict[Path, str] = {}
    for path, rel in zip(paths, rels, strict=True):
        head_blob = at_head.get(rel)
        if head_blob is None:
            raise MergeError(
                "not committed yet: commit a label file before merging its verdicts",
                path=path,
                line=1,
                column=1,
            )
        if rel in clean:
            continue
        head_text = _text(blobs[head_blob[1]])
        if head_text != cache[path][1]:
            committed[path] = head_text
        versions = [cache[path][1]]
        if rel in staged and staged[rel] != head_blob:
            versions.insert(0, _text(blobs[staged[rel][1]]))
        for text in versions:
            if text == head_text:
                continue  # nothing changed
            line = batch_mod.first_change_beyond_verdicts(head_text, text)
            if line is not None:
                raise MergeError(
                    "changed since the last commit beyond verdicts; commit or undo that "
                    "change first (merge commits uncommitted verdicts only)",
                    path=path,
                    line=line,
                    column=1,
                )
    return committed, at_head


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "replace").replace("\r\n", "\n")


def _common_folder(rels: list[str]) -> str:
    parts = [r.split("/")[:-1] for r in rels]
    common: list[str] = []
    for names in zip(*parts, strict=False):
        if len(set(names)) != 1:
            break
        common.append(names[0])
    return "/".join(common) or "."


def _carry_uncommitted(
    steps: list[_Step], me: Judge, worktree: Mapping[Path, str], committed: Mapping[Path, str]
) -> list[_Step]:
    """Uncommitted verdict lines of a file another judge's fold rewrites are the current
    user's: committed as theirs first, never inside another judge's commit."""
    touched = {p for s in steps for p in s.changed}
    carry = {p: worktree[p] for p in touched if worktree[p] != committed.get(p, worktree[p])}
    mine = next((i for i, s in enumerate(steps) if s.judge.uncommitted), None)
    if mine is None:
        if not carry:
            return steps
        return [_Step(me, (), carry, 0), *steps]
    own = steps[mine]
    if not (set(carry) - set(own.changed)):
        return steps
    changed = {**carry, **own.changed}
    return [
        *steps[:mine],
        _Step(own.judge, own.decisions, changed, own.completed),
        *steps[mine + 1 :],
    ]


def _land(
    top: Path,
    base: str,
    steps: list[_Step],
    oracle: Oracle | None,
    oracle_missing: str,
    at_head: Mapping[str, tuple[str, str]],
) -> dict[int, str]:
    """Commit the steps as their judges, all or nothing; step index -> commit id."""
    chain: list[journal.Step] = []
    index: list[int] = []
    for i, s in enumerate(steps):
        if not s.changed:
            continue
        rels = gitio.relative_paths(top, list(s.changed))
        files = {r: t.encode("utf-8") for r, t in zip(rels, s.changed.values(), strict=True)}
        message = commit_message(s.info(None), oracle, oracle_missing)
        if s.accepted:
            message = accept.message(s.judge, s.accepted, len(files))
        message = carried.message(s.carried, len(files)) if s.carried is not None else message
        chain.append(journal.Step(files, message, (s.judge.name, s.judge.email)))
        index.append(i)
    if not chain:
        return {}
    ref = gitio.head_ref(top)
    todo = journal.build(
        top,
        "merge",
        chain,
        ref=ref,
        old=base,
        base=base,
        head=None,
        modes=at_head,
    )
    if todo is None:
        return {}
    try:
        journal.land(top, todo, "labelpool merge")
    except journal.RefMoved as exc:
        raise MergeError(exc.message) from None
    return dict(zip(index, todo.commits, strict=True))


def commit_message(info: JudgeCommit, oracle: Oracle | None, oracle_missing: str) -> str:
    total = info.relevant + info.irrelevant + info.duplicates
    who = "the oracle" if info.judge.oracle else info.judge.name
    batches = f" ({', '.join(info.batches)})" if info.batches else ""
    lines = [
        f"labelpool merge: {counted(total, 'verdict')} by {who}{batches}",
        "",
        f"Judge: {info.judge}. Folded into {counted(len(info.files), 'label file')}: "
        f"{info.relevant} "
        f"relevant, {info.irrelevant} irrelevant, {info.duplicates} duplicates.",
    ]
    if info.completed:
        lines.append(f"Batches resolved in full (pool entries added): {info.completed}.")
    if info.judge.oracle and oracle is not None:
        lines.append(
            f"Verdicts filled by labelpool's oracle from the reference qrels {oracle.path.name}, "
            "not by a person."
        )
        if oracle_missing == "irrelevant":
            lines.append(
                f"Documents the reference does not know: {info.oracle_missing}, treated as "
                "irrelevant (--oracle-missing irrelevant)."
            )
    if info.judge.uncommitted:
        lines.append("These verdict lines were not committed: attributed to the user merging.")
    if info.judge.co_authors:
        lines.append("")
        lines += [f"Co-authored-by: {n} <{e}>" for n, e in info.judge.co_authors]
    return "\n".join(lines) + "\n"
