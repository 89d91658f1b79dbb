"""``labelpool merge``, the reading: every pending entry of the repository, with its judge.

Each label file holding a ``pending:`` block is read (the one reading and a scan of the
block, :mod:`.merge_read`; round trip when the block is in another layout), checked against
the label schema, and its entries become :class:`~labelpool.workflows.merge.fold.Decision`s
(a verdict to fold, attributed to its judge) or :class:`Unresolved` entries (still pending,
with why).
The judge of a verdict line is the author of the commit that last changed it, as ``git blame``
names it (honouring ``.git-blame-ignore-revs``), with that commit's ``Co-authored-by:``
trailers as co-authors (de-duplicated by email, sorted): a GitHub suggestion accepted by
someone else keeps the reviewer who wrote it. Every verdict line of every file is attributed
by one ``git log -p`` walk (:mod:`labelpool.workflows.audit.attribution`, where the files that fall
back to ``git blame`` are listed). A line not committed yet is the current git user's; an
empty verdict the oracle fills is the oracle's. A shallow clone is refused first
(:func:`refuse_shallow`): it cannot say who wrote a line.
"""

from __future__ import annotations

import stat
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from labelpool import batch as batch_mod
from labelpool import gitio, labelset, schemas, verdicts, yamlfile
from labelpool.config import Config
from labelpool.model import IRRELEVANT, MACHINE, PERSON, RELEVANT, DuplicateOf, Label
from labelpool.oracle import ORACLE_EMAIL, ORACLE_NAME, Oracle
from labelpool.rules import written
from labelpool.workflows.audit import attribution
from labelpool.workflows.merge import read as merge_read
from labelpool.workflows.merge.fold import Decision, Judge, MergeError

OracleMissing = Literal["pending", "irrelevant"]
# path -> (data, text, batches) as read; plain data holds None for `pending` (in the batches)
Cache = dict[Path, tuple[Any, str, list[batch_mod.PendingBatch]]]
# path -> the label of the data in the cache, when its reading built one (``pending`` left out)
Labels = dict[Path, Label]


UNKNOWN_TO_ORACLE = "unknown to the oracle"  # the reason of an entry --oracle left pending


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
class _File:
    path: Path
    qid: str
    batches: tuple[batch_mod.PendingBatch, ...]


def read_label(
    path: Path, text: str | None = None
) -> tuple[Any, str, list[batch_mod.PendingBatch]]:
    """(data, text, batches) of a label file: plain data through the one reading when the
    ``pending`` block is in the layout ``pool`` writes (:mod:`.merge_read`), else the
    round-trip tree (which also says what is wrong where)."""
    fast = merge_read.read_fast(path, text)
    if fast is not None:
        return fast
    return read_label_roundtrip(path, text)


def read_label_roundtrip(
    path: Path, text: str | None = None
) -> tuple[Any, str, list[batch_mod.PendingBatch]]:
    if text is None:
        doc = yamlfile.load_roundtrip(path)
        data, text = doc.data, doc.text
        if "\r" in text:  # CRLF: read as LF (as pool does); the file is written back with LF
            text = text.replace("\r\n", "\n")
            data = yamlfile.loads_roundtrip(text, path)
    else:
        data = yamlfile.loads_roundtrip(text, path)
    batches = batch_mod.read(data, str(path), lambda kp: yamlfile.node_position(data, tuple(kp))[0])
    batch_mod.check_one_line(text, batches, str(path))
    return data, text, batches


def has_pending(path: Path) -> bool:
    """Whether a label file may hold a `pending` block (a file that cannot be read: True,
    so that the reader reports it)."""
    return read_pending(path)[0]


def read_pending(path: Path) -> tuple[bool, bytes | None]:
    """(:func:`has_pending`, the file's bytes when they were read and decode as UTF-8), so
    that a reader of the file does not read it again."""
    try:
        if not stat.S_ISREG(path.stat().st_mode) and not path.is_dir():
            # a FIFO would block the read
            raise MergeError("not a regular file", path=path, line=1, column=1)
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return True, None  # let the real reader report it
    if "\r" in text:  # as a text-mode read would see it (universal newlines)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.startswith("pending:") or "\npending:" in text, raw


def check_label(cfg: Config, path: Path) -> None:
    """Refuse (``path:line:col: ...``) a label file that does not match the label schema."""
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


def _read_valid(
    cfg: Config, paths: list[Path], raws: dict[Path, bytes], labels: Labels | None = None
) -> tuple[dict[Path, tuple[Any, str, list[batch_mod.PendingBatch]]], bool]:
    """The fast reading of each file :func:`merge_read.read_valid` vouches for, and whether
    it vouches for every file (the label set's checks, ids unique among them). ``raws``:
    the bytes of files read already (each let go once used); ``labels`` gets the label of
    each reading, its lists as read (``pending`` left out)."""
    schema_file = schemas.schema_path(schemas.LABEL, cfg.root)
    out: dict[Path, tuple[Any, str, list[batch_mod.PendingBatch]]] = {}
    ids: set[str] = set()
    valid = True
    for path in paths:
        raw = raws.pop(path, None)
        try:
            raw = path.read_bytes() if raw is None else raw
        except OSError:
            valid = False  # reading it again reports it
            continue
        found = merge_read.read_valid(
            path,
            raw,
            schema_file=schema_file,
            max_bytes=cfg.max_file_bytes,
            max_depth=cfg.max_depth,
        )
        if found is None or found[0].id in ids:
            valid = False
            continue
        ids.add(found[0].id)
        if found[1] is not None:
            data, text, batches = found[1]
            data["pending"] = None  # read into ``batches``: no need to keep it in memory
            out[path] = (data, text, batches)
            if labels is not None:
                labels[path] = replace(found[0], pending=())
    return out, valid


def refuse_shallow(root: Path) -> None:
    """Refuse a shallow clone (exit 1, nothing written): ``merge`` calls this first."""
    attribution.refuse_if_shallow(root, MergeError)


Judges = dict[Path, dict[int, Judge]]


def judges(cfg: Config, wanted: dict[Path, list[int]], me: Judge) -> Judges:
    """The judge of each verdict line in ``wanted`` (path -> line numbers); lines missing from
    the answer are the current user's (``me``)."""
    top = gitio.toplevel(cfg.root)
    if top is None or not wanted:
        return {}
    top = top.resolve()
    rel: dict[str, Path] = {}
    folders: dict[Path, Path] = {}  # one resolve per folder, not per file
    for path in wanted:
        folder = folders.get(path.parent)
        if folder is None:
            folder = folders[path.parent] = path.parent.resolve()
        full = folder / path.name
        if full.is_relative_to(top):  # outside the repository: nothing of it is committed
            rel[full.relative_to(top).as_posix()] = path
    if not rel:
        return {}
    labels = cfg.labels_dir.resolve()
    under = labels.relative_to(top).as_posix() if labels.is_relative_to(top) else ""
    found = attribution.attribute(
        top, "" if under == "." else under, {r: wanted[p] for r, p in rel.items()}
    )
    out: Judges = {}
    same: dict[Judge, Judge] = {}  # one object per judge, not one per line
    # the judge of each (name, email, co-authors, commit) a line's author has: built once
    made: dict[tuple[str, str, tuple[tuple[str, str], ...], str], Judge] = {}
    for r, path in rel.items():
        exc = found.unreadable.get(r)
        if exc is not None:
            try:
                gitio.git(cfg.root, "ls-files", "--error-unmatch", "--", str(path))
            except gitio.GitError:  # an untracked file: nothing of it is committed
                continue
            # a tracked file blame cannot read (a bad .git-blame-ignore-revs): never guess
            hint = ""
            if gitio.ignore_revs_file(top) is not None:
                hint = f" (check {gitio.BLAME_IGNORE_FILE}: every line a commit of this repository)"
            raise MergeError(
                f"cannot tell who wrote its verdicts: {exc}{hint}", path=path
            ) from None
        lines = found.lines.get(r, {})
        judged: dict[int, Judge] = {}
        for n, a in lines.items():
            key = (a.name, a.email, a.co_authors, a.commit)
            j = made.get(key)
            if j is None:
                j = Judge(a.name, a.email, co_authors=a.co_authors, commit=a.commit)
                j = made[key] = same.setdefault(j, j)
            judged[n] = j
        out[path] = judged
    return out


def collect(
    cfg: Config,
    me: Judge,
    oracle: Oracle | None = None,
    oracle_missing: OracleMissing = "pending",
    cache: Cache | None = None,
    *,
    attribute: bool = True,
    labels: Labels | None = None,
) -> tuple[list[_File], list[Decision], list[Unresolved]]:
    """Every pending entry of the repository: decisions to fold (with their judge) and the
    entries that stay pending; ``attribute=False``: every decision is ``me``'s (no git).
    ``labels`` gets the label of each file in ``cache`` whose reading built one (so that
    the fold does not build it again)."""
    files: list[_File] = []
    paths: list[Path] = []
    raws: dict[Path, bytes] = {}  # each file is read once
    for p in labelset.label_files(cfg.labels_dir):
        pending, raw = read_pending(p)
        if pending:
            paths.append(p)
            if raw is not None:
                raws[p] = raw
    # one parse of each file both checks it and reads it; a file it cannot vouch for, or a
    # second file of one id, and every file is checked in turn: the first error wins
    found: Labels = {}
    readings, valid = _read_valid(cfg, paths, raws, found)
    for path in paths:
        try:
            read = readings.pop(path, None)
            label = found.pop(path, None) if read is not None else None
            reading = read or read_label(path)
        except (KeyError, TypeError, ValueError, AttributeError):  # a shape the schema explains
            check_label(cfg, path)
            raise
        data, text, batches = reading
        if not valid:
            check_label(cfg, path)
        if not batches:
            continue
        if cache is not None:
            if not isinstance(data, yamlfile.CommentedMap):
                data["pending"] = None  # read into ``batches``: no need to keep it in memory
            cache[path] = (data, text, batches)
            if labels is not None and label is not None:
                labels[path] = label
        files.append(_File(path, str(data.get("id")), tuple(batches)))
    wanted = {
        f.path: [e.line for b in f.batches for e in b.entries if e.verdict is not None]
        for f in files
    }
    by_line = judges(cfg, {p: ls for p, ls in wanted.items() if ls}, me) if attribute else {}
    decisions: list[Decision] = []
    unresolved: list[Unresolved] = []
    for f in files:
        path, qid = f.path, f.qid
        judge_of = by_line.get(path, {})
        for b in f.batches:
            for e in b.entries:
                missing = False
                if e.verdict is None:
                    grade = oracle.verdict(qid, e.doc) if oracle is not None else None
                    if grade is None and oracle is not None and oracle_missing == "irrelevant":
                        grade, missing = 0, True
                    if grade is None:
                        reason = "no verdict yet" if oracle is None else UNKNOWN_TO_ORACLE
                        unresolved.append(Unresolved(path, e.line, qid, b.batch, e.doc, reason))
                        continue
                    judge = Judge(ORACLE_NAME, ORACLE_EMAIL, oracle=True)
                    assert oracle is not None
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
                            seat=b.seat,
                            credit=f"qrels:{oracle.path}",
                            kind=MACHINE,
                            adjudicator=b.task == "adjudicate",
                        )
                    )
                    continue
                judge, credit, kind = seat_credit(b.judge, judge_of.get(e.line, me))
                if credit is None:  # the record will name the line's author
                    refuse_unwritable(judge, path, e.line)
                v = e.verdict
                common: dict[str, Any] = {
                    "seat": b.seat,
                    "credit": credit,
                    "kind": kind,
                    "adjudicator": b.task == "adjudicate",
                    "given": v,
                }
                if isinstance(v, DuplicateOf):
                    decisions.append(
                        Decision(
                            path, qid, b.batch, e.doc, e.line, judge, duplicate_of=v.doc, **common
                        )
                    )
                else:
                    grade = 1 if v == RELEVANT else 0 if v == IRRELEVANT else int(v)
                    decisions.append(
                        Decision(path, qid, b.batch, e.doc, e.line, judge, grade=grade, **common)
                    )
    return files, decisions, unresolved


def refuse_unwritable(judge: Judge, path: Path, line: int) -> None:
    """:class:`MergeError` when the record cannot hold ``judge`` (the author of a verdict
    line): a name or email validate would refuse in a label file (a control character:
    LP003), said as the author's name (or email) of the commit that last changed the line."""
    for part, value in (("name", judge.name), ("email", judge.email)):
        problem = written.text_problem(value)
        if problem is None:
            continue
        whose = (
            f"the author's {part} of commit {judge.commit[:12]} (the last to change this line)"
            if judge.commit
            else f"your git user.{part} (the line is not committed)"
        )
        raise MergeError(
            f"{whose} {problem}: the record of judges would hold it, so nothing is written",
            path=path,
            line=line,
        )


def seat_credit(seat_judge: str | None, author: Judge) -> tuple[Judge, str | None, str]:
    """(commit author, judge the record names, its kind) of a verdict line: a seat's
    ``judge:`` when set (it survives any merge method on GitHub, a squash too), else the
    line's author (a machine's commit, :data:`verdicts.MACHINE_EMAIL`: the machine its
    author name names). A person's seat commits as that person; a machine's as the author."""
    if seat_judge is None:
        if author.email == verdicts.MACHINE_EMAIL and author.name:
            return author, author.name, MACHINE
        return author, None, PERSON
    parts = verdicts.person_parts(seat_judge)
    if parts is None:
        return author, seat_judge, MACHINE
    if parts == (author.name, author.email):
        return author, seat_judge, PERSON
    return Judge(*parts), seat_judge, PERSON


def commit_order(decisions: Sequence[Decision]) -> list[Decision]:
    """Commit order: judges (see module doc), then plain verdicts before duplicates."""
    orders: dict[int, tuple[int, str, str]] = {}  # by judge object: a few judges, many lines

    def order(judge: Judge) -> tuple[int, str, str]:
        found = orders.get(id(judge))
        if found is None:
            found = orders[id(judge)] = judge.order
        return found

    return sorted(
        decisions,
        key=lambda d: (order(d.judge), d.duplicate_of is not None, str(d.path), d.line),
    )
