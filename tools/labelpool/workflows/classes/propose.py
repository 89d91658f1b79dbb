"""``labelpool classes propose``: near-duplicate classes found in the corpus text, proposed.

For each question (``--questions``, default every label), the documents its file names
(judged, relevant, pending, in a class or a proposal) are compared pair by pair
(:func:`labelpool.dedup.pairs.within`: Jaccard of word 5-gram shingles, or containment), or
(``--corpus``) every document of the corpus is compared with them through MinHash LSH
candidates verified exactly (:func:`labelpool.dedup.pairs.across`). Pairs become classes
(:func:`labelpool.dedup.group.grouped`), never two versions of one document in one class:
``linked(a, b)`` is the corpus's supersession (``versions.yaml`` and the version pattern,
through chains, both directions). A group that takes in an accepted class of the file is
written as an extension of it (``extends``: the class member its new members matched): its
new members, which join the class once accepted; one that adds to a proposal waiting for
review is counted, not written. In ``--corpus`` mode a proposal names the
file's documents and the corpus documents that would join them (up to :data:`MAX_JOINING`; a
larger group, a template's boilerplate, names the file's documents only and counts the rest):
once accepted, a run that retrieves one of those unjudged documents finds it judged through the
class, with the class's grade, so acceptance moves scores. Each proposal's
comment line says what differs between the texts (:func:`labelpool.dedup.differ.differing`).
Everything is written on a new branch in one commit (:mod:`.write`), so the pull request is the
review: accepting is deleting a ``proposed:`` line, rejecting is deleting the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from labelpool import corpus, gitio, journal, labelset, repolock
from labelpool.config import Config
from labelpool.dedup import differ, group, pairs
from labelpool.errors import UsageError
from labelpool.labelfile.classes import Proposal
from labelpool.labelset import LabelSet
from labelpool.model import Label, ProposedClass
from labelpool.rules.written import doc_id_problem
from labelpool.words import counted
from labelpool.workflows.classes.write import ClassesError, Written, land, proposal_texts
from labelpool.workflows.pool.plan import today

__all__ = ["ProposeResult", "Proposed", "documents_of", "entry", "joins", "propose"]

Advance = Callable[[], None]
MAX_JOINING = 20  # corpus documents a --corpus proposal names beyond the file's own


@dataclass(frozen=True)
class Proposed:
    """One proposal in one label file."""

    question: str
    path: Path
    members: tuple[str, ...]
    method: str
    score: float
    differs: str  # the words the texts do not share (one line; "" for the same words)
    joining: int = 0  # --corpus: corpus documents the file does not name, named in the class
    unnamed: int = 0  # --corpus: corpus documents that would join, not named (over MAX_JOINING)
    extends: str | None = None  # an extension: the member of the accepted class it joins
    matched: str | None = None  # an extension: its member most like ``extends`` (``differs``)


@dataclass(frozen=True)
class ProposeResult:
    proposals: tuple[Proposed, ...]
    version_pairs: int  # pairs above the threshold set aside: versions of one another
    refused: int  # unions not made: they would put two versions in one class
    extends: int  # proposals that extend an accepted class of the file
    skipped: tuple[tuple[str, str, str], ...]  # (question, document, reason): no text...
    questions: int  # questions compared
    documents: int  # documents compared
    crowded: int = 0  # --corpus groups of more than MAX_JOINING corpus documents: not named
    overlapping: int = 0  # groups that add to a proposal waiting for review: not written
    written: Written = field(default_factory=Written)

    def to_dict(self) -> dict[str, object]:
        return {
            "proposals": [
                {
                    "question": p.question,
                    "path": str(p.path),
                    "members": list(p.members),
                    "method": p.method,
                    "score": p.score,
                    "differs": p.differs,
                    "joining": p.joining,
                    "unnamed": p.unnamed,
                    "extends": p.extends,
                    "matched": p.matched,
                }
                for p in self.proposals
            ],
            "version_pairs": self.version_pairs,
            "refused": self.refused,
            "extends": self.extends,
            "skipped": [{"question": q, "document": d, "reason": r} for q, d, r in self.skipped],
            "questions": self.questions,
            "documents": self.documents,
            "crowded": self.crowded,
            "overlapping": self.overlapping,
            "written": [str(p) for p in self.written.files],
            "branch": self.written.branch,
            "commit": self.written.commit,
        }


def documents_of(label: Label) -> list[str]:
    """Every document a label file names: judged, relevant, pooled, pending, in a class."""
    docs = set(label.judged_ids) | set(label.relevant_doc_ids) | set(label.pooled_unjudged_ids)
    docs |= label.pending_ids | label.class_members
    docs |= {d for p in label.proposed_classes for d in p.members}
    return sorted(docs)


def comment(p: Proposed) -> str:
    """The comment line above a proposal: its members and the words that differ (for an
    extension, between its member ``matched`` and the member of the class it matched)."""
    differs = p.differs or "(nothing: the same words)"
    if p.extends is None:
        return f"proposed: {', '.join(p.members)} differ in: {differs}"
    return (
        f"proposed: {', '.join(p.members)}{joins(p)}; "
        f"{p.matched} and {p.extends} differ in: {differs}"
    )


def joins(p: Proposed) -> str:
    """`` joins the class of MEMBER`` for an extension (``join`` after several), else ``""``."""
    if p.extends is None:
        return ""
    return f" {'join' if len(p.members) > 1 else 'joins'} the class of {p.extends}"


def propose(
    cfg: Config,
    *,
    threshold: float = 0.8,
    containment: float | None = None,
    corpus_wide: bool = False,
    questions: Sequence[str] | None = None,
    branch: str | None = None,
    commit: bool = True,
    write: bool = True,
    wait: float = 0.0,
    advance: Advance = lambda: None,
) -> ProposeResult:
    """Find, then (``write``) write the proposals on ``branch`` (see the module doc), under the
    repository lock (``wait``: seconds to wait for another writer), taken before the labels
    are read."""
    if not 0.0 < threshold <= 1.0:
        raise UsageError(f"--threshold must be in (0, 1], not {threshold}")
    if containment is not None and not 0.0 < containment <= 1.0:
        raise UsageError(f"--containment must be in (0, 1], not {containment}")
    if cfg.corpus is None:
        raise UsageError("no corpus configured: set `corpus` in [tool.labelpool] (pyproject.toml)")
    with repolock.held(cfg.labels_dir, command="labelpool classes propose", wait=wait):
        top = gitio.toplevel(cfg.root)
        if top is not None:
            journal.recover(top, "classes")
        labels = labelset.load(cfg)
        selected = sorted(questions if questions is not None else labels)
        unknown = sorted(set(selected) - set(labels))
        if unknown:
            raise UsageError(f"--questions: no label for {', '.join(unknown)}")
        result = _find(cfg, labels, selected, threshold, containment, corpus_wide, advance)
        if not write or not result.proposals:
            return result
        by_path: dict[Path, list[Proposal]] = {}
        for p in result.proposals:
            by_path.setdefault(p.path, []).append(entry(p, comment(p)))
        changes = proposal_texts(cfg, by_path)
        name = branch or f"labelpool/classes-{today()}"
        written = land(cfg, changes, branch=name, message=_message(result), commit=commit)
    return replace(result, written=written)


def entry(p: Proposed, text: str) -> Proposal:
    """The entry written for ``p`` under the comment line ``text``."""
    if p.extends is None:
        return (p.members, p.method, p.score, text)
    return (p.members, p.method, p.score, text, p.extends)


def _message(result: ProposeResult) -> str:
    files = len({p.path for p in result.proposals})
    return (
        f"labelpool classes propose: {counted(len(result.proposals), 'class', 'classes')} "
        f"proposed\n\nProposed near-duplicate classes in {counted(files, 'label file')}; "
        "each waits for review: delete its `proposed:` line to accept it, the entry to reject "
        f"it. Version pairs set aside: {result.version_pairs}.\n"
    )


def _texts(
    texts: Mapping[str, corpus.Text], docs: Sequence[str], qid: str
) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    out: dict[str, str] = {}
    skipped: list[tuple[str, str, str]] = []
    for d in docs:
        if d not in texts:
            skipped.append((qid, d, "not in the corpus"))
            continue
        out[d] = _text(texts[d])
    return out, skipped


def _find(
    cfg: Config,
    labels: LabelSet,
    selected: list[str],
    threshold: float,
    containment: float | None,
    corpus_wide: bool,
    advance: Advance,
) -> ProposeResult:
    texts = corpus.load_texts(cfg)
    try:
        versions = corpus.load_versions(cfg)
    except corpus.CorpusError as exc:
        raise ClassesError(str(exc)) from None

    def linked(a: str, b: str) -> bool:
        return versions.supersedes(a, b) or versions.supersedes(b, a)

    found_by_q: dict[str, pairs.Found] = {}
    skipped: list[tuple[str, str, str]] = []
    compared = 0
    if corpus_wide:
        targets = {d for q in selected for d in documents_of(labels[q])}
        everything = ((d, _text(texts[d])) for d in texts)
        found_all = pairs.across(
            everything, targets, threshold=threshold, containment=containment, linked=linked
        )
        for q in selected:
            mine = set(documents_of(labels[q]))
            kept = tuple(p for p in found_all.pairs if p.a in mine or p.b in mine)
            found_by_q[q] = pairs.Found(kept, 0, ())
        skipped += [("", d, r) for d, r in found_all.skipped if d in targets]
        skipped += [("", d, "not in the corpus") for d in sorted(targets) if d not in texts]
        version_pairs, compared = found_all.version_pairs, len(targets)
        advance()
    else:
        version_pairs = 0
        for q in selected:
            with_text, gone = _texts(texts, documents_of(labels[q]), q)
            skipped += gone
            found = pairs.within(
                with_text, threshold=threshold, containment=containment, linked=linked
            )
            skipped += [(q, d, r) for d, r in found.skipped]
            version_pairs += found.version_pairs
            found_by_q[q] = found
            compared += len(with_text)
            advance()
    proposals: list[Proposed] = []
    refused = overlapping = crowded = 0
    for q in selected:
        label = labels[q]
        accepted = len(label.relevant_classes)
        existing = [
            *label.relevant_classes,
            *(_pending_group(label, p) for p in label.proposed_classes),
        ]
        found_pairs = found_by_q[q].pairs
        grouping = group.grouped(found_pairs, linked, existing)
        refused += grouping.refused
        mine = set(documents_of(label))
        for p in grouping.proposals:
            if p.joins is not None and p.joins >= accepted:
                overlapping += 1  # it adds to a proposal waiting for review
                continue
            base = set(existing[p.joins]) if p.joins is not None else set()
            new = [m for m in p.members if m not in base]
            own = [m for m in new if m in mine]
            named, unnamed, bad = _joiners([m for m in new if m not in mine])
            skipped += [(q, d, f"document id {r}: not named in a class") for d, r in bad]
            crowded += unnamed > 0
            members = tuple(sorted([*own, *named]))
            if len(members) < (1 if base else 2):
                continue
            if base:
                a, b = _matched(found_pairs, set(members), set(p.members) - base, base)
                extends: str | None = b
            else:
                a, b = own[0], (named or own[1:])[0]
                extends = None
            differs = differ.differing(_text(texts[a]), _text(texts[b]))
            proposals.append(
                Proposed(
                    q,
                    labels.paths[q],
                    members,
                    p.method,
                    p.score,
                    differs,
                    len(named),
                    unnamed,
                    extends,
                    a if base else None,
                )
            )
    return ProposeResult(
        tuple(proposals),
        version_pairs,
        refused,
        sum(p.extends is not None for p in proposals),
        tuple(sorted(skipped)),
        len(selected),
        compared,
        crowded,
        overlapping,
    )


def _pending_group(label: Label, p: ProposedClass) -> tuple[str, ...]:
    """A proposal as an existing group: an extension with the class it extends."""
    home = next((c for c in label.relevant_classes if p.extends in c), ())
    return (*home, *p.members) if p.extends is not None else p.members


def _matched(
    found: Sequence[pairs.Pair], new: set[str], outside: set[str], base: set[str]
) -> tuple[str, str]:
    """(new member, class member) of the strongest pair joining a document
    outside the class ``base`` to one of its members, one of the ``new`` members (those the
    proposal names) first."""

    def ours(p: pairs.Pair) -> tuple[str, str] | None:
        if p.a in outside and p.b in base:
            return p.a, p.b
        if p.b in outside and p.a in base:
            return p.b, p.a
        return None

    best = max(
        (p for p in found if ours(p) is not None),
        key=lambda p: (ours(p)[0] in new, p.score, p.a, p.b),  # type: ignore[index]
    )
    found_pair = ours(best)
    assert found_pair is not None
    return found_pair


def _joiners(outside: list[str]) -> tuple[list[str], int, list[tuple[str, str]]]:
    """Of the corpus documents a ``--corpus`` class would take in beyond the file's own: those
    the proposal names (at most :data:`MAX_JOINING`, each an id a label file can hold), how
    many it does not name (a larger group: a template's boilerplate, counted), and the ids
    validate would refuse, with why."""
    bad = [(d, why) for d in outside if (why := doc_id_problem(d)) is not None]
    named = [d for d in outside if doc_id_problem(d) is None]
    if len(named) > MAX_JOINING:
        return [], len(named), bad
    return named, 0, bad


def _text(t: corpus.Text) -> str:
    return f"{t.title}\n{t.text}" if t.title else t.text
