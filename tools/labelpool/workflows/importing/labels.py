"""Import judgments into label files: TREC qrels, BEIR folders, JSONL; and ``add`` one question.

Graded qrels: a grade >= 1 is relevant (a grade other than 1 goes to ``grades``), 0 is judged
irrelevant, a negative grade means pooled but never judged (``pooled_unjudged_ids``).
Every error names its file and line; nothing is written when anything is wrong, and an
existing label is never overwritten without ``force``.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from labelpool import atomic, labelfile, repolock
from labelpool.labelfile import NewLabel
from labelpool.limits import CUTOFF_MAX
from labelpool.model import UNKNOWN_SYSTEM
from labelpool.rules.identity import fold
from labelpool.rules.written import text_problem
from labelpool.workflows.importing import net
from labelpool.workflows.importing.input import (
    ID_RE,
    ImportFailed,
    ImportUsageError,
    Judgments,
    Origin,
    case_clash,
    check_doc,
    check_id,
    grade_of,
    lines,
    quoted,
)
from labelpool.workflows.importing.jsonl import read_jsonl
from labelpool.workflows.importing.net import Limits, limits_of
from labelpool.workflows.importing.queries import read_queries

__all__ = [
    "ID_RE",
    "ImportFailed",
    "ImportResult",
    "ImportUsageError",
    "Judgments",
    "Limits",
    "NewLabel",
    "Origin",
    "Provenance",
    "QrelRow",
    "add_question",
    "check_doc",
    "check_id",
    "from_rows",
    "judgments",
    "limits_of",
    "read_beir",
    "read_beir_qrels",
    "read_jsonl",
    "read_qrels",
    "read_queries",
    "write_labels",
]

DATE_RE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


@dataclass(frozen=True)
class Provenance:
    """Where the judgments came from: one ``pool`` entry."""

    system: str = UNKNOWN_SYSTEM
    k: int | None = None
    date: str | None = None


@dataclass(frozen=True)
class QrelRow:
    qid: str
    doc: str
    grade: int
    line: int  # 1-based line in the qrels file


@dataclass(frozen=True)
class ImportResult:
    written: tuple[Path, ...]
    overwritten: tuple[Path, ...]
    judgments: int  # judged (grade >= 0) rows
    relevant: int
    unjudged: int  # pooled-unjudged rows
    queries_without_judgments: int


# --------------------------------------------------------------------------- qrels


def read_qrels(path: Path) -> list[QrelRow]:
    """TREC qrels ``qid iter doc grade`` (whitespace separated); duplicates are errors.

    A line whose first character is ``#`` is a comment, as trec_eval 10 reads it (trec_eval
    itself fails on two comment lines in a row and on a comment as the last line; labelpool
    reads any number, anywhere). A ``#`` after leading blanks or after a judgment is not a
    comment there either: such a line is refused, naming it."""
    rows: list[QrelRow] = []
    seen: dict[tuple[str, str], int] = {}
    for n, line in lines(path, "a qrels file"):
        if line.startswith("#") or not line.strip():
            continue
        parts = _fields(line, _WORD_RE)
        if len(parts) != 4:
            hint = ""
            if any(text.startswith("#") for _, text in parts):
                hint = " (a comment line starts with `#` in its first column)"
            raise ImportFailed(
                f"expected 4 fields `qid iter doc grade`, found {len(parts)}{hint}",
                path=path,
                line=n,
                column=1,
            )
        rows.append(_row(path, n, [parts[0], parts[2], parts[3]], seen))
    if not rows:
        raise ImportFailed(
            "no `qid iter doc grade` line (an empty qrels file)", path=path, line=1, column=1
        )
    return rows


def _row(
    path: Path,
    n: int,
    fields: list[tuple[int, str]],
    seen: dict[tuple[str, str], int],
) -> QrelRow:
    """One judgment from its (1-based column, text) fields: question, document, grade."""
    (qcol, qid), (dcol, doc), (gcol, grade) = fields
    check_id(qid, path, n, qcol)
    check_doc(doc, path, n, dcol)
    value = grade_of(grade, path, n, gcol)
    first = seen.get((qid, doc))
    if first is not None:
        why = (
            f"duplicate judgment of {quoted(doc, repr)} for question {qid!r} "
            f"(first on line {first})"
        )
        raise ImportFailed(why, path=path, line=n, column=dcol)
    seen[(qid, doc)] = n
    return QrelRow(qid, doc, value, n)


def _fields(line: str, pattern: re.Pattern[str]) -> list[tuple[int, str]]:
    return [(m.start() + 1, m.group()) for m in pattern.finditer(line)]


# fields are separated by ASCII blanks only, as trec_eval's isspace() in the C locale: a
# no-break space or NEL stays inside its field (and the document id check refuses it)
_WORD_RE = re.compile(r"[^ \t\n\r\f\v]+")


def read_beir_qrels(path: Path) -> list[QrelRow]:
    """BEIR qrels TSV ``query-id<TAB>corpus-id<TAB>score`` with a header line."""
    rows: list[QrelRow] = []
    seen: dict[tuple[str, str], int] = {}
    for n, line in lines(path, "a BEIR qrels file"):
        if not line.strip():
            continue
        cells = line.split("\t")
        if n == 1 and cells[0].strip().lower() in ("query-id", "query_id", "qid"):
            continue
        if len(cells) != 3:
            raise ImportFailed(
                "expected 3 tab-separated fields `query-id corpus-id score`",
                path=path,
                line=n,
                column=1,
            )
        parts: list[tuple[int, str]] = []
        col = 1
        for cell in cells:
            lead = len(cell) - len(cell.lstrip())
            parts.append((col + lead, cell.strip()))
            col += len(cell) + 1
        rows.append(_row(path, n, parts, seen))
    return rows


# --------------------------------------------------------------------------- assembling


def from_rows(rows: Iterable[QrelRow], queries: dict[str, str], source: Path) -> list[NewLabel]:
    """One :class:`NewLabel` per question of ``rows`` (in first-seen order)."""
    by_qid: dict[str, list[QrelRow]] = {}
    folded: dict[str, QrelRow] = {}
    for row in rows:
        if row.qid not in by_qid:
            first = folded.setdefault(fold(row.qid), row)
            if first.qid != row.qid:
                raise case_clash(row.qid, f"{first.qid!r} (line {first.line})", source, row.line)
        by_qid.setdefault(row.qid, []).append(row)
    missing = [(rs[0].line, q) for q, rs in by_qid.items() if q not in queries]
    if missing:
        line, qid = min(missing)
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise ImportFailed(
            f"question {qid!r} has no text in the queries file{more}",
            path=source,
            line=line,
            column=1,
        )
    out: list[NewLabel] = []
    for qid, qrows in by_qid.items():
        relevant = sorted(r.doc for r in qrows if r.grade >= 1)
        out.append(
            NewLabel(
                qid=qid,
                question=queries[qid],
                relevant=tuple(relevant),
                judged=tuple(sorted(r.doc for r in qrows if r.grade >= 0)),
                grades={
                    r.doc: r.grade
                    for r in sorted(qrows, key=lambda r: r.doc)
                    if r.grade >= 1 and r.grade != 1
                },
                pooled_unjudged=tuple(sorted(r.doc for r in qrows if r.grade < 0)),
            )
        )
    return out


def judgments(rows: list[QrelRow], queries: dict[str, str], source: Path) -> Judgments:
    """:func:`from_rows`, each question's origin (its first line in ``source``) and the count
    of questions without a judgment."""
    items = from_rows(rows, queries, source)
    first: dict[str, int] = {}
    for row in rows:
        if row.qid not in first:
            first[row.qid] = row.line
    origins = {qid: Origin(source, line) for qid, line in first.items()}
    return Judgments(items, origins, len(set(queries) - set(origins)))


def read_beir(folder: Path, split: str = "test", text_field: str | None = None) -> Judgments:
    """A BEIR folder: ``queries.jsonl`` and ``qrels/<split>.tsv``."""
    queries_path = folder / "queries.jsonl"
    qrels_path = folder / "qrels" / f"{split}.tsv"
    for p in (queries_path, qrels_path):
        if not p.is_file():
            raise ImportUsageError("not found (a BEIR folder has queries.jsonl and qrels/)", path=p)
    queries = read_queries(queries_path, text_field)
    return judgments(read_beir_qrels(qrels_path), queries, qrels_path)


def refuse_case_clashes(labels_dir: Path, qids: Iterable[str]) -> None:
    """Refuse question ids naming, once case is ignored, an existing label file other than
    their own (``Q1`` when ``labels/q1.yaml`` exists; also ``q1`` against ``q1.yml``)."""
    try:
        names = os.listdir(labels_dir)
    except OSError:  # no labels folder yet (or none readable): nothing to collide with
        return
    existing: dict[str, str] = {}
    for name in sorted(names):
        stem, dot, suffix = name.rpartition(".")
        if dot and suffix in ("yaml", "yml"):
            existing.setdefault(fold(stem), name)
    for qid in qids:
        clash = existing.get(fold(qid))
        if clash is None or clash == f"{qid}.yaml":
            continue
        if clash.rpartition(".")[0] == qid:
            raise ImportFailed(
                f"question {qid!r} has a label file already ({clash}); nothing written",
                path=labels_dir / clash,
            )
        raise case_clash(qid, f"the label file {clash}", labels_dir / clash)


def check_provenance(prov: Provenance) -> None:
    """Refuse a pool entry validate would refuse (the schema's ``k`` and ``date``, LP042's
    bound of ``k``, LP003/LP004 in the system name)."""
    shown = quoted(prov.system, repr)
    if not prov.system or any(c.isspace() for c in prov.system):
        raise ImportUsageError(f"--pool-system {shown}: a name without spaces")
    problem = text_problem(prov.system)
    if problem is not None:
        raise ImportUsageError(f"--pool-system {shown} {problem}")
    if prov.k is not None and not 1 <= prov.k <= CUTOFF_MAX:
        raise ImportUsageError(f"--pool-depth {prov.k}: must be from 1 to {CUTOFF_MAX} (LP042)")
    if prov.date is not None and not _is_date(prov.date):
        raise ImportUsageError(f"--pool-date {prov.date!r}: expected a date YYYY-MM-DD")


def _is_date(text: str) -> bool:
    if not DATE_RE.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:  # 2026-02-30
        return False
    return True


def write_labels(
    labels_dir: Path,
    items: list[NewLabel],
    prov: Provenance,
    *,
    force: bool = False,
    unanswered: int = 0,
    origins: Mapping[str, Origin] | None = None,
    limits: Limits | None = None,
    wait: float = 0.0,
) -> ImportResult:
    """Write one label file per item; refuses (writing nothing) to overwrite without ``force``
    and any file validate would refuse (under ``limits``, default: the packaged schema and
    bounds), naming the item's origin. Under the repository lock (``wait``: seconds to wait
    for another writer)."""
    with repolock.held(labels_dir, command="labelpool import", wait=wait):
        return _write_labels(labels_dir, items, prov, force, unanswered, origins, limits)


def _write_labels(
    labels_dir: Path,
    items: list[NewLabel],
    prov: Provenance,
    force: bool,
    unanswered: int,
    origins: Mapping[str, Origin] | None,
    limits: Limits | None,
) -> ImportResult:
    check_provenance(prov)
    for item in items:
        check_id(item.qid, labels_dir)
    seen: dict[str, str] = {}
    for item in items:  # the readers refuse these already; items may come from elsewhere
        first = seen.setdefault(fold(item.qid), item.qid)
        if first != item.qid:
            raise case_clash(item.qid, repr(first), labels_dir)
    refuse_case_clashes(labels_dir, [i.qid for i in items])
    pool = labelfile.PoolEntry(prov.system, prov.k, prov.date)
    pooled = [replace(i, pool=pool) for i in items]
    checked = net.texts(pooled, limits or Limits(), origins or {})
    texts = [(labels_dir / f"{i.qid}.yaml", text) for i, text in zip(items, checked, strict=True)]
    # a file holding exactly what would be written (a killed run's) is no conflict: a rerun
    # completes the import
    existing = [p for p, t in texts if (p.exists() or p.is_symlink()) and not _holds(p, t)]
    if existing and not force:
        shown = ", ".join(str(p) for p in existing[:5])
        more = f" and {len(existing) - 5} more" if len(existing) > 5 else ""
        raise ImportFailed(
            f"{len(existing)} label file(s) exist already: {shown}{more}; "
            "nothing written (use --force to overwrite)"
        )
    atomic.refuse_unwritable([labels_dir])  # a read-only folder: refused, nothing written
    labels_dir.mkdir(parents=True, exist_ok=True)
    # each file atomically (old or new); one sync per chunk of files, not two fsyncs per file
    try:
        atomic.write_many([(p, t.encode("utf-8")) for p, t in texts if not _holds(p, t)])
    except OSError as exc:  # the files before it are written: a rerun completes the import
        raise repolock.failed(exc, "the label files before it are written, the rest not") from None
    written = [path for path, _ in texts]
    return ImportResult(
        written=tuple(written),
        overwritten=tuple(existing),
        judgments=sum(len(i.judged) for i in items),
        relevant=sum(len(i.relevant) for i in items),
        unjudged=sum(len(i.pooled_unjudged) for i in items),
        queries_without_judgments=unanswered,
    )


def _holds(path: Path, text: str) -> bool:
    """True when ``path`` is a regular file (not a symlink) holding exactly ``text``."""
    try:
        return not path.is_symlink() and path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def add_question(
    labels_dir: Path,
    qid: str,
    question: str,
    *,
    limits: Limits | None = None,
    wait: float = 0.0,
) -> Path:
    """Create ``labels/<qid>.yaml`` for a question not judged yet; refuses an existing file
    (but one holding exactly this question's new label: a rerun, done already) and a file
    validate would refuse (under ``limits``). Under the repository lock (``wait``: seconds to
    wait for another writer)."""
    with repolock.held(labels_dir, command="labelpool add", wait=wait):
        return _add_question(labels_dir, qid, question, limits)


def _add_question(labels_dir: Path, qid: str, question: str, limits: Limits | None) -> Path:
    if not ID_RE.fullmatch(qid):
        raise ImportUsageError(
            f"question id {quoted(qid, repr)} is not allowed (letters, digits, '.', '_', '-'; "
            "starting with a letter or digit; at most 128)"
        )
    text = " ".join(question.split())
    if not text:
        raise ImportUsageError("the question text is empty")
    problem = text_problem(text)
    if problem is not None:
        raise ImportUsageError(f"the question text {problem}; nothing written")
    content, why = net.checked_text(NewLabel(qid=qid, question=text), limits or Limits())
    if why is not None:
        raise ImportUsageError(f"question {qid!r}: {why}; nothing written")
    path = labels_dir / f"{qid}.yaml"
    if _holds(path, content):  # a rerun of an add killed after its write: done already
        return path
    if path.exists() or path.is_symlink():
        raise ImportFailed("exists already", path=path)
    refuse_case_clashes(labels_dir, [qid])
    atomic.refuse_unwritable([labels_dir])
    try:
        labels_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # e.g. a file where the labels folder should be
        raise ImportFailed(
            f"cannot create the labels folder: {exc.strerror}", path=labels_dir
        ) from None
    try:
        create_exclusive(path, content)
    except FileExistsError:
        raise ImportFailed("exists already", path=path) from None
    return path


def create_exclusive(path: Path, text: str) -> None:
    """Write a new file atomically; FileExistsError (and nothing written) if ``path`` exists."""
    atomic.write_new(path, text)
