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

Each label file is written atomically (old or new, never torn), so a merge killed mid-way
leaves a consistent tree that a second ``merge`` completes; merging twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from labelpool import atomic, corpus, gitio, yamlfile
from labelpool import batch as batch_mod
from labelpool.config import Config
from labelpool.oracle import Oracle
from labelpool.workflows.merge_collect import (
    Cache,
    OracleMissing,
    Unresolved,
    collect,
    commit_order,
    read_label,
)
from labelpool.workflows.merge_fold import (
    Decision,
    Judge,
    MergeError,
    State,
    Supersedes,
    fold,
    state_of,
    write_state,
)
from labelpool.workflows.pool import add_pool_entries

__all__ = ["JudgeCommit", "MergeError", "MergeResult", "Unresolved", "commit_message", "merge"]


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


@dataclass(frozen=True)
class MergeResult:
    commits: tuple[JudgeCommit, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def folded(self) -> int:
        return sum(c.relevant + c.irrelevant + c.duplicates for c in self.commits)


def _supersedes(cfg: Config) -> Supersedes | None:
    if cfg.versions is None and cfg.version_pattern is None:
        return None
    try:
        versions = corpus.load_versions(cfg)
    except corpus.CorpusError as exc:
        raise MergeError(str(exc)) from None
    return versions.supersedes


def merge(
    cfg: Config,
    *,
    oracle: Oracle | None = None,
    oracle_missing: OracleMissing = "pending",
    commit: bool = True,
) -> MergeResult:
    """Fold every filled verdict (see module doc); raise :class:`MergeError` when refused."""
    notes: list[str] = []
    in_git = gitio.toplevel(cfg.root) is not None
    if commit and not in_git:
        raise MergeError("not a git repository (use --no-commit to just write)", path=cfg.root)
    if commit and not cfg.labels_dir.resolve().is_relative_to(cfg.root.resolve()):
        raise MergeError(
            f"the labels folder is outside the repository {cfg.root}; "
            "verdicts can only be committed inside it (use --no-commit to just write)",
            path=cfg.labels_dir,
        )
    name, email = gitio.user_identity(cfg.root) if in_git else ("", "")
    if commit and not (name and email):
        raise MergeError("git user.name and user.email must be set: merge commits as a judge")
    me = Judge(name or "unknown", email or "unknown", uncommitted=True)

    cache: Cache = {}
    _, decisions, unresolved = collect(cfg, me, oracle, oracle_missing, cache)
    decisions = commit_order(decisions)
    supersedes = _supersedes(cfg) if any(d.duplicate_of for d in decisions) else None

    # Dry run over all judges in commit order: every error is found before anything is written.
    errors: list[str] = []
    plan: dict[Judge, list[Decision]] = {}
    states: dict[Path, State] = {}
    for d in decisions:
        if d.path not in states:
            states[d.path] = state_of(cache[d.path][0], d.path)
        outcome, message = fold(states[d.path], d, supersedes)
        if outcome == "error":
            errors.append(str(message))
        elif outcome == "pending":
            unresolved.append(Unresolved(d.path, d.line, d.qid, d.batch, d.doc, str(message)))
        else:
            plan.setdefault(d.judge, []).append(d)
    if errors:
        raise MergeError("\n".join(errors))
    if any(j.uncommitted for j in plan):
        notes.append(
            f"verdict lines not committed yet are attributed to the current git user: {me}"
        )

    commits: list[JudgeCommit] = []
    for judge in sorted(plan, key=lambda j: j.order):
        mine = plan[judge]
        by_file: dict[Path, list[Decision]] = {}
        for d in mine:
            by_file.setdefault(d.path, []).append(d)
        written: list[Path] = []
        completed = 0
        for path, ds in by_file.items():
            changed, done = _apply_file(path, ds, supersedes, cache)
            completed += done
            if changed:
                written.append(path)
        counts = (
            sum(1 for d in mine if d.duplicate_of is None and d.grade),
            sum(1 for d in mine if d.duplicate_of is None and not d.grade),
            sum(1 for d in mine if d.duplicate_of is not None),
        )
        batches = tuple(sorted({d.batch for d in mine}))
        missing = sum(1 for d in mine if d.oracle_missing)
        sha: str | None = None
        info = JudgeCommit(judge, None, tuple(written), *counts, batches, completed, missing)
        if commit and written:
            rel = [str(p.relative_to(cfg.root)) for p in written]
            message = commit_message(info, oracle, oracle_missing)
            sha = gitio.commit_paths(cfg.root, rel, message, author=(judge.name, judge.email))
        commits.append(
            JudgeCommit(judge, sha, tuple(written), *counts, batches, completed, missing)
        )
    return MergeResult(tuple(commits), tuple(sorted(unresolved, key=str)), tuple(notes))


def _apply_file(
    path: Path,
    ds: Sequence[Decision],
    supersedes: Supersedes | None,
    cache: Cache,
) -> tuple[bool, int]:
    """Fold ``ds`` into one label file and write it atomically; (changed?, batches completed).

    ``cache`` holds the round-trip trees read before; one is used only while its file is
    unchanged (a second judge's fold reads the file the first one wrote)."""
    cached = cache.pop(path, None)
    if cached is not None and path.read_text(encoding="utf-8") == cached[1]:
        data, text, batches = cached
    else:
        data, text, batches = read_label(path)
    before = state_of(data, path)
    after = state_of(data, path)
    wanted = {(d.batch, d.doc) for d in ds}
    drop: set[tuple[int, int]] = set()
    for d in ds:
        outcome, message = fold(after, d, supersedes)
        if outcome == "error":  # the dry run saw the same state: cannot happen
            raise MergeError(str(message))
    for b in batches:
        for e in b.entries:
            if (b.batch, e.doc) in wanted:
                drop.add((b.index, e.doc_index))
    write_state(data, before, after)
    entries = []
    completed = 0
    for b in batches:
        if b.entries and all((b.index, e.doc_index) in drop for e in b.entries):
            completed += 1
            for s in b.systems:
                k = b.full_depth.get(s, b.depth)
                entries.append((s, k, b.date, b.runs.get(s)))
    if entries:
        add_pool_entries(data, entries)
    dumped = yamlfile.dumps(data)
    moved = batch_mod.relocate(text, dumped, batches, str(path))
    new_text = batch_mod.remove(dumped, moved, drop, str(path))
    if new_text == text:
        return False, completed
    yamlfile.loads_fast(new_text, path)  # never write a file that would not read back
    atomic.write_text(path, new_text)
    return True, completed


def commit_message(info: JudgeCommit, oracle: Oracle | None, oracle_missing: str) -> str:
    total = info.relevant + info.irrelevant + info.duplicates
    who = "the oracle" if info.judge.oracle else info.judge.name
    lines = [
        f"labelpool merge: {total} verdicts by {who} ({', '.join(info.batches)})",
        "",
        f"Judge: {info.judge}. Folded into {len(info.files)} label files: {info.relevant} "
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
    return "\n".join(lines) + "\n"
