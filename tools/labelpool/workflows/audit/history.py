"""Who judged what, and when: the history of one question's judgments (``labelpool history``).

Two sources, each answering what the other cannot:

* ``git blame --porcelain`` of the label file (honouring ``.git-blame-ignore-revs``, so bulk
  reformatting commits such as a ``labelpool fmt`` over the whole set are looked through) names
  the commit behind each line that carries a judgment today: the document's line in
  ``judged_ids``, and its ``relevant_doc_ids`` / ``grades`` / ``relevant_classes`` lines;
* a walk over every commit that changed the file (``git log --no-merges`` + ``git cat-file
  --batch``), comparing each commit's label with its parent's, finds what blame cannot: removed
  lines, earlier verdicts and who set them, and when the question's text last changed. Because
  states are compared after parsing, a commit that only reformats changes nothing here.

Merge commits are skipped by the walk (a merge's changes are the changes of the commits it
merges); a conflict resolved inside a merge commit is attributed to nobody.

Every commit named keeps its ``Co-authored-by:`` trailers as co-authors
(:mod:`labelpool.workflows.audit.attribution`: a GitHub suggestion accepted by someone else names
the reviewer who wrote it). A shallow clone is refused: it cannot say who wrote a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from labelpool import gitio
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.model import IRRELEVANT, RELEVANT, DuplicateOf, Label
from labelpool.verdicts import JudgeVerdict
from labelpool.workflows.audit import attribution, machines
from labelpool.workflows.audit import record as judges_record
from labelpool.workflows.audit.revisions import (
    ID_PATTERN,
    GitPlace,
    RevisionError,
    git_place,
    parse_label,
)

FIELDS = (
    "judged_ids",
    "relevant_doc_ids",
    "grades",
    "relevant_classes",
    "pooled_unjudged_ids",
    "pending",
)
UNCOMMITTED = gitio.CommitInfo(
    commit=gitio.ZERO_COMMIT,
    author="Not Committed Yet",
    author_mail="",
    author_date="",
    subject="uncommitted changes in the working tree",
)


@dataclass(frozen=True)
class DocState:
    """What the label says about one document at one revision."""

    kind: str  # relevant | class-member | irrelevant | pending | pooled-unjudged
    grade: int | None = None  # for relevant / class-member / irrelevant (0)
    members: tuple[str, ...] = ()  # the document's relevance class, when it has one
    batch: str | None = None  # for pending
    proposed: str | None = None  # a filled but not yet merged verdict, for pending

    def describe(self) -> str:
        if self.kind == "irrelevant":
            return "irrelevant"
        if self.kind in ("relevant", "class-member"):
            text = f"relevant (grade {self.grade})"
            if self.members:
                text += f" in class [{', '.join(self.members)}]"
            if self.kind == "class-member":
                text += " (relevant through its class)"
            return text
        if self.kind == "pending":
            text = f"pending in batch {self.batch}"
            return text + (f" (verdict {self.proposed} not merged yet)" if self.proposed else "")
        return "pooled, not judged"


def _verdict_text(verdict: object) -> str | None:
    if verdict is None:
        return None
    if isinstance(verdict, DuplicateOf):
        return f"duplicate-of {verdict.doc}"
    if verdict in (RELEVANT, IRRELEVANT):
        return str(verdict)
    return f"grade {verdict}"


def doc_state(label: Label, doc: str) -> DocState | None:
    """The state of ``doc`` in ``label`` (None: the label says nothing about it)."""
    if doc in label.gain:
        grade = label.gain[doc]
        members = next((c for c in label.relevant_classes if doc in c), ())
        if grade == 0:
            kind = "irrelevant"
        elif doc in label.relevant_doc_ids or not members:
            kind = "relevant"
        else:
            kind = "class-member"
        return DocState(kind=kind, grade=grade, members=tuple(members))
    for batch in label.pending:
        for entry in batch.docs:
            if entry.doc == doc:
                return DocState(
                    kind="pending", batch=batch.batch, proposed=_verdict_text(entry.verdict)
                )
    if doc in label.pooled_unjudged_ids:
        return DocState(kind="pooled-unjudged")
    return None


def mentioned(label: Label) -> set[str]:
    """Every document the label has something to say about."""
    return set(label.gain) | set(label.pending_ids) | set(label.pooled_unjudged_ids)


@dataclass(frozen=True)
class Change:
    """One commit changed what the label says about a document."""

    info: gitio.CommitInfo
    before: DocState | None
    after: DocState | None


@dataclass(frozen=True)
class LineBlame:
    """The commit behind the line that carries a document (or the question) in one field."""

    field: str
    line: int
    info: gitio.CommitInfo


@dataclass(frozen=True)
class Judgment:
    doc: str
    current: DocState | None  # None: it had a judgment once and no longer has one
    set_by: Change | None  # the commit that made ``current`` what it is
    earlier: tuple[Change, ...]  # older changes, oldest first
    lines: tuple[LineBlame, ...]  # blame of the lines carrying it today
    before_question_edit: bool  # set before the question's text last changed
    # When ``set_by`` merged a verdict filled in a pending batch: the commit that filled it
    # (the judge's own edit of the verdict line, with its date).
    decided_by: Change | None = None
    # the record's verdicts with their judges (issue 24; () when the file names no judge), and
    # the person git credits with the verdict when the record does not name them
    record: tuple[JudgeVerdict, ...] = ()
    git_credits: str | None = None

    @property
    def batch(self) -> str | None:
        """The judging batch ``set_by`` merged this verdict from (None: not from a batch)."""
        was = self.set_by.before if self.set_by is not None else None
        return was.batch if was is not None and was.kind == "pending" else None


@dataclass(frozen=True)
class QuestionHistory:
    question: str  # the question id
    text: str  # the question's current text
    path: str  # the label file, relative to the git top level
    text_changed: gitio.CommitInfo | None  # last commit that edited the text after creation
    question_line: LineBlame | None  # blame of the ``question:`` line
    created: gitio.CommitInfo | None
    judgments: tuple[Judgment, ...]
    # commit -> its co-authors ((name, email), sorted; see attribution): every commit named
    co_authors: dict[str, attribution.CoAuthors] = field(default_factory=dict)
    # a machine judge's identity in the record -> its model and sha256 (see machines)
    machine_judges: dict[str, machines.MachineFacts] = field(default_factory=dict)


class HistoryError(InputError):
    """The history cannot be read; ``str()`` says why (exit 1)."""


def question_history(cfg: Config, question: str, doc: str | None = None) -> QuestionHistory:
    """The history of every judgment of ``question`` (or only of ``doc``)."""
    if not ID_PATTERN.match(question):
        raise HistoryError(f"{question!r} is not a question id")
    try:
        place = git_place(cfg)
    except RevisionError as exc:
        raise HistoryError(str(exc)) from None
    attribution.refuse_if_shallow(place.top, HistoryError)
    path = place.label_path(question)
    if not (place.top / path).is_file() and (place.top / (path[:-5] + ".yml")).is_file():
        path = path[:-5] + ".yml"
    disk = place.top / path
    try:
        commits = gitio.log(place.top, path, rev="HEAD", no_merges=True, reverse=True)
    except gitio.GitError:
        commits = []  # no HEAD yet
    if not commits and not disk.is_file():
        hint = ""
        if question.endswith((".yaml", ".yml")):
            hint = f" (give the question id: {question.rsplit('.', 1)[0]!r})"
        raise HistoryError(f"no such label file, now or in the history of HEAD{hint}", path=path)

    # Every version of the file the walk needs, fetched in one `git cat-file --batch`.
    specs = [f"{c.commit}:{path}" for c in commits]
    specs += [f"{c.parents[0]}:{path}" for c in commits if c.parents]
    contents = dict(zip(specs, gitio.cat_blobs(place.top, specs), strict=True))
    parsed: dict[str, Label | None] = {}

    def label_at(spec: str | None) -> Label | None:
        if spec is None or contents.get(spec) is None:
            return None
        if spec not in parsed:
            try:
                parsed[spec] = parse_label(contents[spec] or b"", spec)
            except RevisionError:
                parsed[spec] = None  # unreadable at that commit: nothing to learn there
        return parsed[spec]

    steps: list[tuple[gitio.CommitInfo, Label | None, Label | None]] = []
    last_good: Label | None = None
    for c in commits:
        parent = f"{c.parents[0]}:{path}" if c.parents else None
        before = label_at(parent)
        if before is None and parent is not None and contents.get(parent) is not None:
            before = last_good  # the parent's version is unreadable: compare with the last good
        after = label_at(f"{c.commit}:{path}")
        if contents.get(f"{c.commit}:{path}") is not None and after is None:
            continue  # an unreadable version: skip it rather than invent removals
        steps.append((c, before, after))
        last_good = after
    head_label = steps[-1][2] if steps else None
    current = head_label
    if disk.is_file():
        try:
            current = parse_label(disk.read_bytes(), path)
        except RevisionError as exc:
            raise HistoryError(str(exc)) from None
        if head_label is None or _differs(place, path, bool(commits)):
            steps.append((UNCOMMITTED, head_label, current))
    elif head_label is not None:
        steps.append((UNCOMMITTED, head_label, None))
    if current is None:
        raise HistoryError(f"the label file was removed; see `git log -- {path}`", path=path)

    changes: dict[str, list[tuple[int, Change]]] = {}
    text_changed: tuple[int, gitio.CommitInfo] | None = None
    created: gitio.CommitInfo | None = None
    for index, (info, before, after) in enumerate(steps):
        if before is None and after is not None and created is None:
            created = info
        if before is not None and after is not None and before.question != after.question:
            text_changed = (index, info)
        docs = (mentioned(before) if before else set()) | (mentioned(after) if after else set())
        for d in docs:
            old = doc_state(before, d) if before else None
            new = doc_state(after, d) if after else None
            if old != new:
                changes.setdefault(d, []).append((index, Change(info=info, before=old, after=new)))

    blamed = _blame_fields(place, path, current)
    wanted = sorted(changes) if doc is None else [doc]
    if doc is not None and doc not in changes:
        raise HistoryError(f"{doc} has no judgment and never had one", path=path)
    judgments = []
    for d in wanted:
        history = changes[d]
        last_index, last = history[-1]
        earlier = tuple(c for _, c in history[:-1])
        decided = _decided_by(last, earlier)
        decided_index = next((i for i, c in history if c is decided), last_index)
        judged_by = judges_record.named(current, d)
        credited = (decided or last).info
        judgments.append(
            Judgment(
                doc=d,
                current=doc_state(current, d),
                set_by=last,
                earlier=earlier,
                lines=tuple(blamed.get(d, ())),
                before_question_edit=text_changed is not None and decided_index < text_changed[0],
                decided_by=decided,
                record=judged_by,
                git_credits=judges_record.git_differs(judged_by, credited),
            )
        )
    named = {info.commit for info, _, _ in steps} | {
        line.info.commit for lines in blamed.values() for line in lines
    }
    authors = attribution.authors_of(place.top, named)
    wanted_machines = machines.identities([j.record for j in judgments])
    file_commits = [c.commit for c in commits]
    known = machines.facts(place.top, cfg.judges_folder, wanted_machines, file_commits)
    return QuestionHistory(
        question=question,
        text=current.question,
        path=path,
        text_changed=None if text_changed is None else text_changed[1],
        question_line=next(iter(blamed.get("\0question", ())), None),
        created=created,
        judgments=tuple(judgments),
        co_authors={c: a.co_authors for c, a in authors.items() if a.co_authors},
        machine_judges=known,
    )


def _decided_by(last: Change, earlier: tuple[Change, ...]) -> Change | None:
    """The change that filled the pending verdict which ``last`` merged (None if none)."""
    was = last.before
    if was is None or was.kind != "pending" or was.proposed is None:
        return None
    for change in reversed(earlier):
        after, before = change.after, change.before
        if after is None or after.kind != "pending" or after.proposed != was.proposed:
            return None
        if before is None or before.proposed != was.proposed:
            return change
    return None


def _differs(place: GitPlace, path: str, has_head: bool) -> bool:
    """True when the working file differs from HEAD's version."""
    if not has_head:
        return True
    out = gitio.git(place.top, "status", "--porcelain", "--", path)
    return bool(out.strip())


_KEY = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_-]*|'[^']*'|\"[^\"]*\")\s*:(\s|$)")


def _blame_fields(place: GitPlace, path: str, label: Label) -> dict[str, list[LineBlame]]:
    """doc -> the blame of each line naming it in a judgment field (``"\\0question"``: the
    ``question:`` line)."""
    try:
        lines = gitio.blame(place.top, path)
    except gitio.GitError:
        return {}
    docs = mentioned(label)
    patterns = {d: _mention(d) for d in docs}
    out: dict[str, list[LineBlame]] = {}
    section = ""
    for bl in lines:
        text = bl.text
        if text and not text[0].isspace() and not text.startswith(("#", "-")):
            match = _KEY.match(text)
            section = match.group("key").strip("'\"") if match else ""
            if section == "question":
                out.setdefault("\0question", []).append(LineBlame("question", bl.line, bl.info))
            rest = text[match.end() :] if match else ""
        else:
            rest = text
        if section not in FIELDS:
            continue
        body = _strip_comment(rest)
        if not body.strip():
            continue
        if section == "pending":  # only the entry's own document, not a duplicate-of target
            match = _PENDING_DOC.search(body)
            if match and match.group(1) in docs:
                out.setdefault(match.group(1), []).append(LineBlame(section, bl.line, bl.info))
            continue
        for d, pattern in patterns.items():
            if pattern.search(body):
                out.setdefault(d, []).append(LineBlame(section, bl.line, bl.info))
    return out


_PENDING_DOC = re.compile(r"[{,\s]doc:\s*['\"]?([^,}'\"\s]+)")


def _strip_comment(text: str) -> str:
    if text.lstrip().startswith("#"):
        return ""
    cut = text.find(" #")
    return text if cut < 0 else text[:cut]


def _mention(doc: str) -> re.Pattern[str]:
    return re.compile(r"(?:^|(?<=[\s\[{,'\"]))" + re.escape(doc) + r"(?=$|[\s\]},'\"]|:(?:\s|$))")
