"""``labelpool merge``: fold filled verdicts of pending batches into the label lists.

A verdict is folded as follows:

* ``relevant`` -> relevant, grade 1; an integer ``g >= 1`` -> relevant with a ``grades`` entry
  when ``g != 1``; ``0`` or ``irrelevant`` -> judged irrelevant (``judged_ids`` only);
* ``{duplicate-of: ID}`` -> the document joins ID's class in ``relevant_classes`` (a class
  ``[ID, doc]`` is created when ID is relevant and in no class yet); refused, naming both
  documents, when one of the class's documents supersedes the other (directly or through a
  chain). A duplicate of a document not (yet) judged relevant stays pending, with the reason.

Every folded document lands in ``judged_ids`` (and leaves ``pooled_unjudged_ids``); lists stay
sorted through :mod:`labelpool.yamlio`'s helpers. Resolved entries leave the batch with their
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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from labelpool import batch as batch_mod
from labelpool import gitio
from labelpool.config import Config
from labelpool.errors import StateError
from labelpool.labelset import label_files
from labelpool.model import IRRELEVANT, RELEVANT, DuplicateOf, label_from_data
from labelpool.oracle import ORACLE_EMAIL, ORACLE_NAME, Oracle

OracleMissing = Literal["pending", "irrelevant"]


class MergeError(StateError):
    """The merge is refused; the message lists every problem (``path:line:col: ...``); exit 1."""


@dataclass(frozen=True, order=True)
class Judge:
    name: str
    email: str
    uncommitted: bool = False  # attributed to the current user: the line is not committed
    oracle: bool = False

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"

    @property
    def order(self) -> tuple[int, str, str]:
        return (2 if self.oracle else 0 if self.uncommitted else 1, self.name, self.email)


@dataclass(frozen=True)
class Decision:
    """One verdict to fold: ``grade`` (0 irrelevant) or ``duplicate_of``."""

    path: Path
    qid: str
    batch: str
    doc: str
    line: int
    judge: Judge
    grade: int | None = None
    duplicate_of: str | None = None
    oracle_missing: bool = False  # the oracle did not know it; treated as irrelevant


@dataclass(frozen=True)
class Unresolved:
    path: Path
    line: int
    qid: str
    batch: str
    doc: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:1: {self.qid} {self.doc} ({self.batch}): {self.reason}"


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


# ------------------------------------------------------------------ the fold, on plain sets


@dataclass
class State:
    """The judgment lists of one label, as sets, while verdicts are folded in."""

    judged: set[str]
    relevant: set[str]
    grades: dict[str, int]
    classes: list[list[str]]
    unjudged: set[str]
    where: dict[str, str]  # doc -> "path:line" of the judgment that set it (for messages)

    def class_index(self, doc: str) -> int | None:
        return next((i for i, c in enumerate(self.classes) if doc in c), None)

    def gain(self, doc: str) -> int | None:
        """Grade of ``doc`` (0 irrelevant), None when not judged."""
        ci = self.class_index(doc)
        if ci is not None:
            cls = self.classes[ci]
            return max((self.grades.get(d, 1) for d in cls if d in self.relevant), default=1)
        if doc in self.relevant:
            return self.grades.get(doc, 1)
        if doc in self.judged:
            return 0
        return None


Supersedes = Callable[[str, str], bool]


def state_of(data: Any, path: Path) -> State:
    from labelpool import yamlio

    label = label_from_data(data)
    where: dict[str, str] = {}
    for i, d in enumerate(label.judged_ids):
        line, col = yamlio.node_position(data, ("judged_ids", i))
        where.setdefault(d, f"{path}:{line}:{col}")
    for ci, cls in enumerate(label.relevant_classes):
        for mi, d in enumerate(cls):
            line, col = yamlio.node_position(data, ("relevant_classes", ci, mi))
            where.setdefault(d, f"{path}:{line}:{col}")
    return State(
        judged=set(label.judged_ids),
        relevant=set(label.relevant_doc_ids),
        grades=dict(label.grades),
        classes=[list(c) for c in label.relevant_classes],
        unjudged=set(label.pooled_unjudged_ids),
        where=where,
    )


def _describe(grade: int | None) -> str:
    if grade is None:
        return "not judged"
    return "judged irrelevant" if grade == 0 else f"judged relevant (grade {grade})"


def fold(state: State, d: Decision, supersedes: Supersedes | None) -> tuple[str, str | None]:
    """Fold ``d`` into ``state``: ``("done", None)``, ``("same", None)`` (already so),
    ``("pending", reason)`` (stays pending) or ``("error", message)``."""
    here = f"{d.path}:{d.line}:1"
    current = state.gain(d.doc)
    if d.duplicate_of is None:
        assert d.grade is not None
        if current is not None:
            if current == d.grade:
                return "same", None
            return "error", (
                f"{here}: verdict {d.grade if d.grade else 'irrelevant'} for {d.doc} "
                f"contradicts {state.where.get(d.doc, 'an earlier judgment')}: {d.doc} is "
                f"{_describe(current)}"
            )
        state.judged.add(d.doc)
        state.unjudged.discard(d.doc)
        state.where[d.doc] = here
        if d.grade > 0:
            state.relevant.add(d.doc)
            if d.grade != 1:
                state.grades[d.doc] = d.grade
        return "done", None
    target = d.duplicate_of
    if target == d.doc:
        return "error", f"{here}: {d.doc} is marked a duplicate of itself"
    tgain = state.gain(target)
    if tgain is None or tgain == 0:
        return "pending", f"duplicate-of {target}: {target} is {_describe(tgain)}, not relevant"
    ti = state.class_index(target)
    cls = state.classes[ti] if ti is not None else [target]
    if d.doc in cls:
        return "same", None
    if current == 0:
        return "error", (
            f"{here}: duplicate-of {target} for {d.doc} contradicts "
            f"{state.where.get(d.doc, 'an earlier judgment')}: {d.doc} is judged irrelevant"
        )
    di = state.class_index(d.doc)
    if di is not None:
        return "error", (
            f"{here}: {d.doc} is already in another class (with {', '.join(state.classes[di])}); "
            "a document belongs to one class"
        )
    if supersedes is not None:
        for m in cls:
            if supersedes(d.doc, m) or supersedes(m, d.doc):
                newer, older = (d.doc, m) if supersedes(d.doc, m) else (m, d.doc)
                return "error", (
                    f"{here}: {d.doc} cannot join the class of {target}: {newer} supersedes "
                    f"{older}, and a class must not mix versions"
                )
    state.judged.add(d.doc)
    state.unjudged.discard(d.doc)
    state.where[d.doc] = here
    if ti is None:
        state.classes.append(sorted([target, d.doc]))
    else:
        state.classes[ti] = sorted([*cls, d.doc])
    state.classes.sort(key=lambda c: c[0])
    return "done", None


def write_state(data: Any, before: State, after: State) -> None:
    """Make the round-trip label ``data`` say ``after`` (minimal edits: insertions in place)."""
    from labelpool import yamlio

    for d in sorted(after.judged - before.judged):
        yamlio.add_to_sorted_list(data, "judged_ids", d)
    for d in sorted(after.relevant - before.relevant):
        yamlio.add_to_sorted_list(data, "relevant_doc_ids", d)
    for d, g in sorted(after.grades.items()):
        if before.grades.get(d) != g:
            yamlio.set_mapping_item(data, "grades", d, g)
    for d in sorted(before.unjudged - after.unjudged):
        yamlio.remove_from_list(data, "pooled_unjudged_ids", d)
    if after.classes != before.classes:
        text = "relevant_classes:\n" + "".join(
            "  - - " + "\n    - ".join(batch_mod.quote(m) for m in cls) + "\n"
            for cls in after.classes
        )
        seq = yamlio.loads_roundtrip(text)["relevant_classes"]
        if "relevant_classes" in data:
            data["relevant_classes"] = seq
        else:
            data.insert(yamlio.canonical_index(data, "relevant_classes"), "relevant_classes", seq)


# ------------------------------------------------------------------ reading the batches


@dataclass(frozen=True)
class _File:
    path: Path
    qid: str
    batches: tuple[batch_mod.PendingBatch, ...]


def _read(path: Path, text: str | None = None) -> tuple[Any, str, list[batch_mod.PendingBatch]]:
    from labelpool import yamlio

    if text is None:
        doc = yamlio.load_roundtrip(path)
        data, text = doc.data, doc.text
        if "\r" in text:  # CRLF: read as LF (as pool does); the file is written back with LF
            text = text.replace("\r\n", "\n")
            data = yamlio.loads_roundtrip(text, path)
    else:
        data = yamlio.loads_roundtrip(text, path)
    batches = batch_mod.read(data, str(path), lambda kp: yamlio.node_position(data, tuple(kp))[0])
    batch_mod.check_one_line(text, batches, str(path))
    return data, text, batches


def _has_pending(path: Path) -> bool:
    import stat

    try:
        if not stat.S_ISREG(path.stat().st_mode) and not path.is_dir():
            raise MergeError(f"{path}:1:1: not a regular file")  # a FIFO would block the read
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True  # let the real reader report it
    return text.startswith("pending:") or "\npending:" in text


def _check_label(cfg: Config, path: Path) -> None:
    """Refuse (``path:line:col: ...``) a label file that does not match the label schema."""
    from labelpool import labelset, schemas

    try:
        labelset.load_files(
            [path],
            max_bytes=cfg.max_file_bytes,
            max_depth=cfg.max_depth,
            use_cache=False,  # one file: do not replace the folder's cache entry
            schema_file=schemas.schema_path(schemas.LABEL, cfg.root),
        )
    except labelset.LabelSetError as exc:
        raise MergeError(str(exc)) from None


def _judges_by_line(cfg: Config, path: Path, me: Judge) -> Callable[[int], Judge]:
    if gitio.toplevel(cfg.root) is None:
        return lambda line: me
    try:
        rel = str(path.relative_to(cfg.root))
    except ValueError:  # outside the repository: nothing of it is committed
        return lambda line: me
    try:
        lines = gitio.blame(cfg.root, rel)
    except gitio.GitError as exc:
        if gitio.head_commit(cfg.root) is None:  # no commit yet: nothing is committed
            return lambda line: me
        try:
            gitio.git(cfg.root, "ls-files", "--error-unmatch", "--", rel)
        except gitio.GitError:  # an untracked file: nothing of it is committed
            return lambda line: me
        # a tracked file blame cannot read (a bad .git-blame-ignore-revs): never guess judges
        top = gitio.toplevel(cfg.root)
        hint = ""
        if top is not None and gitio.ignore_revs_file(top) is not None:
            hint = f" (check {gitio.BLAME_IGNORE_FILE}: every line a commit of this repository)"
        raise MergeError(f"{path}: cannot tell who wrote its verdicts: {exc}{hint}") from None
    by_line = {b.line: b.info for b in lines}

    def judge(line: int) -> Judge:
        info = by_line.get(line)
        if info is None or info.uncommitted:
            return me
        return Judge(info.author, info.author_mail)

    return judge


def _supersedes(cfg: Config) -> Supersedes | None:
    if cfg.versions is None and cfg.version_pattern is None:
        return None
    from labelpool import corpus

    try:
        versions = corpus.load_versions(cfg)
    except corpus.CorpusError as exc:
        raise MergeError(str(exc)) from None
    return versions.supersedes


def collect(
    cfg: Config,
    me: Judge,
    oracle: Oracle | None = None,
    oracle_missing: OracleMissing = "pending",
    cache: dict[Path, tuple[Any, str, list[batch_mod.PendingBatch]]] | None = None,
) -> tuple[list[_File], list[Decision], list[Unresolved]]:
    """Every pending entry of the repository: decisions to fold (with their judge) and the
    entries that stay pending."""
    files: list[_File] = []
    decisions: list[Decision] = []
    unresolved: list[Unresolved] = []
    for path in label_files(cfg.labels_dir):
        if not _has_pending(path):
            continue
        try:
            data, text, batches = _read(path)
        except (KeyError, TypeError, ValueError, AttributeError):  # a shape the schema explains
            _check_label(cfg, path)
            raise
        _check_label(cfg, path)
        if not batches:
            continue
        if cache is not None:
            cache[path] = (data, text, batches)
        qid = str(data.get("id"))
        files.append(_File(path, qid, tuple(batches)))
        judge_of: Callable[[int], Judge] | None = None
        for b in batches:
            for e in b.entries:
                missing = False
                if e.verdict is None:
                    grade = oracle.verdict(qid, e.doc) if oracle is not None else None
                    if grade is None and oracle is not None and oracle_missing == "irrelevant":
                        grade, missing = 0, True
                    if grade is None:
                        reason = "no verdict yet" if oracle is None else "unknown to the oracle"
                        unresolved.append(Unresolved(path, e.line, qid, b.batch, e.doc, reason))
                        continue
                    judge = Judge(ORACLE_NAME, ORACLE_EMAIL, oracle=True)
                    decisions.append(
                        Decision(
                            path,
                            qid,
                            b.batch,
                            e.doc,
                            e.line,
                            judge,
                            grade=grade,
                            oracle_missing=missing,
                        )
                    )
                    continue
                if judge_of is None:
                    judge_of = _judges_by_line(cfg, path, me)
                judge = judge_of(e.line)
                v = e.verdict
                if isinstance(v, DuplicateOf):
                    decisions.append(
                        Decision(path, qid, b.batch, e.doc, e.line, judge, duplicate_of=v.doc)
                    )
                else:
                    grade = 1 if v == RELEVANT else 0 if v == IRRELEVANT else int(v)
                    decisions.append(
                        Decision(path, qid, b.batch, e.doc, e.line, judge, grade=grade)
                    )
    return files, decisions, unresolved


def _order(decisions: Sequence[Decision]) -> list[Decision]:
    """Commit order: judges (see module doc), then plain verdicts before duplicates."""
    return sorted(
        decisions,
        key=lambda d: (d.judge.order, d.duplicate_of is not None, str(d.path), d.line),
    )


# ------------------------------------------------------------------ the command


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
        raise MergeError(f"{cfg.root}: not a git repository (use --no-commit to just write)")
    if commit and not cfg.labels_dir.resolve().is_relative_to(cfg.root.resolve()):
        raise MergeError(
            f"{cfg.labels_dir}: the labels folder is outside the repository {cfg.root}; "
            "verdicts can only be committed inside it (use --no-commit to just write)"
        )
    name, email = gitio.user_identity(cfg.root) if in_git else ("", "")
    if commit and not (name and email):
        raise MergeError("git user.name and user.email must be set: merge commits as a judge")
    me = Judge(name or "unknown", email or "unknown", uncommitted=True)

    cache: dict[Path, tuple[Any, str, list[batch_mod.PendingBatch]]] = {}
    _, decisions, unresolved = collect(cfg, me, oracle, oracle_missing, cache)
    decisions = _order(decisions)
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
    cache: dict[Path, tuple[Any, str, list[batch_mod.PendingBatch]]],
) -> tuple[bool, int]:
    """Fold ``ds`` into one label file and write it atomically; (changed?, batches completed).

    ``cache`` holds the round-trip trees read before; one is used only while its file is
    unchanged (a second judge's fold reads the file the first one wrote)."""
    from labelpool import yamlio
    from labelpool.workflows.pool import add_pool_entries

    cached = cache.pop(path, None)
    if cached is not None and path.read_text(encoding="utf-8") == cached[1]:
        data, text, batches = cached
    else:
        data, text, batches = _read(path)
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
    dumped = yamlio.dumps(data)
    moved = batch_mod.relocate(text, dumped, batches, str(path))
    new_text = batch_mod.remove(dumped, moved, drop, str(path))
    if new_text == text:
        return False, completed
    yamlio.loads_fast(new_text, path)  # never write a file that would not read back
    yamlio.atomic_write_text(path, new_text)
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
