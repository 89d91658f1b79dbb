"""``labelpool todo``: what is left to judge, per batch and question, and where to go next.

The pending entries are read as ``merge`` reads them (:func:`merge_collect.read_label`: the
one reading, with the entries' lines), so ``todo`` and ``merge`` never disagree on what is
filled. ``mine`` counts the filled verdict lines whose last change is the current git user's,
as ``merge`` names judges (:func:`merge_collect.judges`: the author of the line's last
commit; a line not committed yet is the current user's). ``disputes``: each question's open
disputes (judges disagree, no adjudicator: :func:`labelpool.verdicts.disputed`), read from the
files that hold a record of judges, in the same one read of each file.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from labelpool import gitio, labelset, verdicts
from labelpool.config import Config
from labelpool.errors import InputError, UsageError
from labelpool.workflows.audit import attribution
from labelpool.workflows.merge.collect import check_label, has_pending, judges, read_label
from labelpool.workflows.merge.fold import Judge

__all__ = [
    "BatchTodo",
    "DisputeTodo",
    "QuestionTodo",
    "Todo",
    "TodoError",
    "UnknownBatch",
    "todo",
]


class TodoError(InputError):
    """The pending entries' authors cannot be told (exit 1)."""


class UnknownBatch(UsageError):
    """``--batch`` names no pending batch (exit 2)."""


@dataclass(frozen=True)
class QuestionTodo:
    qid: str
    path: Path
    filled: int
    total: int
    next_line: int | None  # the first empty verdict's line (None: all filled)
    mine: int | None = None  # filled verdict lines last changed by the current user
    judge: str | None = None  # the seat's judge in this question (assigned or claimed)


@dataclass(frozen=True)
class BatchTodo:
    batch: str
    questions: tuple[QuestionTodo, ...]
    seat: int | None = None  # one judge's seat of a batch for several judges

    @property
    def filled(self) -> int:
        return sum(q.filled for q in self.questions)

    @property
    def total(self) -> int:
        return sum(q.total for q in self.questions)

    @property
    def mine(self) -> int | None:
        counts = [q.mine for q in self.questions]
        return None if any(c is None for c in counts) else sum(c or 0 for c in counts)


@dataclass(frozen=True)
class DisputeTodo:
    """One question's open disputes: documents its judges disagree on, not adjudicated."""

    qid: str
    path: Path
    docs: tuple[str, ...]


@dataclass(frozen=True)
class Todo:
    batches: tuple[BatchTodo, ...]
    me: str | None = None  # ``name <email>`` of the current user (with ``mine``)
    disputes: tuple[DisputeTodo, ...] = ()  # by question id

    @property
    def filled(self) -> int:
        return sum(b.filled for b in self.batches)

    @property
    def total(self) -> int:
        return sum(b.total for b in self.batches)

    @property
    def mine(self) -> int | None:
        return None if self.me is None else sum(b.mine or 0 for b in self.batches)

    @property
    def next(self) -> tuple[Path, int] | None:
        """``(path, line)`` of the first empty verdict, in batch then file order."""
        for b in self.batches:
            for q in b.questions:
                if q.next_line is not None:
                    return q.path, q.next_line
        return None


def todo(cfg: Config, *, batch: str | None = None, mine: bool = False) -> Todo:
    """Every pending batch (only ``batch`` when given) with each question's filled and total
    verdicts; ``mine``: also the filled lines whose last change is the current user's."""
    # (batch, seat) -> qid -> (path, filled lines, empty lines)
    found: dict[tuple[str, int | None], list[tuple[str, Path, list[int], list[int]]]] = {}
    judges: dict[tuple[str, int | None, Path], str] = {}  # each seat's judge, per file
    recorded: list[Path] = []
    for path in labelset.label_files(cfg.labels_dir):
        pending, record = _holds(path)
        if record:
            recorded.append(path)
        if not pending:
            continue
        try:
            data, _, batches = read_label(path)
        except (KeyError, TypeError, ValueError, AttributeError):  # a shape the schema explains
            check_label(cfg, path)
            raise
        qid = str(data.get("id"))
        for b in batches:
            if batch is not None and b.batch != batch:
                continue
            filled = [e.line for e in b.entries if e.verdict is not None]
            empty = [e.line for e in b.entries if e.verdict is None]
            found.setdefault(b.key, []).append((qid, path, filled, empty))
            if b.judge is not None:
                judges[(*b.key, path)] = b.judge
    if batch is not None and not any(name == batch for name, _ in found):
        known = ", ".join(sorted(_batch_names(cfg))) or "none"
        raise UnknownBatch(f"--batch {batch}: no pending batch of that name (pending: {known})")
    me: Judge | None = None
    owners: dict[Path, dict[int, Judge]] = {}
    if mine:
        me, owners = _owners(cfg, found)
    out = []
    for key in sorted(found, key=lambda k: (k[0], k[1] or 0)):
        rows = []
        for qid, path, filled, empty in sorted(found[key], key=lambda r: (str(r[1]), r[0])):
            count = None
            if me is not None:
                lines = owners.get(path, {})
                count = sum(1 for n in filled if _same(lines.get(n, me), me))
            rows.append(
                QuestionTodo(
                    qid,
                    path,
                    len(filled),
                    len(filled) + len(empty),
                    min(empty) if empty else None,
                    count,
                    judges.get((*key, path)),
                )
            )
        out.append(BatchTodo(key[0], tuple(rows), key[1]))
    return Todo(tuple(out), str(me) if me is not None else None, _disputes(cfg, recorded))


def _holds(path: Path) -> tuple[bool, bool]:
    """(may hold a ``pending`` block, may hold a ``verdicts`` record), from one read of the
    file. A file that is not a regular one is left to ``merge``'s check (a FIFO would block
    the read); one that cannot be read may hold a pending block, so that the reader reports it.
    """
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return has_pending(path), False
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True, False
    pending = text.startswith("pending:") or "\npending:" in text
    return pending, text.startswith("verdicts:") or "\nverdicts:" in text


def _disputes(cfg: Config, paths: list[Path]) -> tuple[DisputeTodo, ...]:
    """The open disputes of the label files ``paths`` (those holding a record), by question."""
    if not paths:
        return ()
    labels = labelset.load_files(paths, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth)
    out = []
    for qid in sorted(labels):
        docs = verdicts.disputed(labels[qid])
        if docs:
            out.append(DisputeTodo(qid, labels.paths[qid], tuple(sorted(docs))))
    return tuple(out)


def _batch_names(cfg: Config) -> set[str]:
    names: set[str] = set()
    for path in labelset.label_files(cfg.labels_dir):
        if has_pending(path):
            names.update(b.batch for b in read_label(path)[2])
    return names


def _owners(
    cfg: Config, found: dict[tuple[str, int | None], list[tuple[str, Path, list[int], list[int]]]]
) -> tuple[Judge, dict[Path, dict[int, Judge]]]:
    """The current user, and the author of each filled verdict line (a line missing from
    the answer is not committed: the current user's)."""
    if gitio.toplevel(cfg.root) is None:
        raise TodoError("--mine reads who wrote each verdict with git: not a git repository")
    attribution.refuse_if_shallow(cfg.root, TodoError)
    name, email = gitio.user_identity(cfg.root)
    me = Judge(name or "unknown", email or "unknown", uncommitted=True)
    wanted: dict[Path, list[int]] = {}
    for rows in found.values():
        for _, path, filled, _ in rows:
            if filled:
                wanted.setdefault(path, []).extend(filled)
    return me, judges(cfg, wanted, me)


def _same(a: Judge, b: Judge) -> bool:
    """One person: the same email (case-insensitive), else the same name."""
    if a.email and b.email and a.email != "unknown" and b.email != "unknown":
        return a.email.lower() == b.email.lower()
    return a.name == b.name
