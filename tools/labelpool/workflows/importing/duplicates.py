"""``labelpool import duplicates FILE``: a duplicate map from outside, as proposed classes.

The map (:func:`labelpool.dedup.dupmap.read_map`: ``canonical:dup1,dup2,...`` lines or a
two-column TSV; ``--prefix`` before every id) groups ids that name one text; groups sharing an
id are one group. For each label file, the documents it names (judged, pending, in a class)
that one group holds become a proposal (method ``duplicate-map``, score 1.0), written as
``classes propose`` writes its own (:mod:`labelpool.workflows.classes.write`: on a new branch,
one commit, all or nothing; each reviewed by deleting its ``proposed:`` line). Ids of the map
that no label names are counted, not written. A group that takes in one accepted class of the
file is written as an extension of it (``extends``: a member of the class the map names): the
group's other documents, which join the class once accepted. A group that would overlap a
proposal the file has, or two classes, or hold two versions of one document (with the class it
extends too), is counted and left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from labelpool import corpus, gitio, journal, labelset, repolock
from labelpool.config import Config
from labelpool.dedup.dupmap import read_map
from labelpool.labelfile.classes import Proposal
from labelpool.workflows.classes.propose import Proposed, documents_of, entry, joins
from labelpool.workflows.classes.write import ClassesError, Written, land, proposal_texts
from labelpool.workflows.pool.plan import today

__all__ = ["DuplicatesResult", "import_duplicates"]

METHOD = "duplicate-map"


@dataclass(frozen=True)
class DuplicatesResult:
    proposals: tuple[Proposed, ...]
    groups: int  # groups of the map (after joining groups that share an id)
    ids: int  # distinct ids of the map
    outside: int  # ids of the map no label file names: counted, not written
    overlapping: int  # groups left out: they overlap a proposal of the file, or two classes
    version_pairs: int  # groups left out: they hold two versions of one document
    extends: int = 0  # proposals that extend an accepted class of the file
    written: Written = field(default_factory=Written)

    def to_dict(self) -> dict[str, object]:
        return {
            "proposals": [
                {
                    "question": p.question,
                    "path": str(p.path),
                    "members": list(p.members),
                    "extends": p.extends,
                }
                for p in self.proposals
            ],
            "groups": self.groups,
            "ids": self.ids,
            "outside": self.outside,
            "overlapping": self.overlapping,
            "version_pairs": self.version_pairs,
            "extends": self.extends,
            "written": [str(p) for p in self.written.files],
            "branch": self.written.branch,
            "commit": self.written.commit,
        }


def _components(groups: tuple[tuple[str, ...], ...]) -> dict[str, str]:
    """id -> the representative of its group, groups sharing an id joined (union-find)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for g in groups:
        first = find(g[0])
        for other in g[1:]:
            r = find(other)
            if r != first:
                parent[r] = first
    return {x: find(x) for x in parent}


def _mixes(versions: corpus.Versions, new: list[str], home: tuple[str, ...]) -> bool:
    """Whether ``new``, with the class ``home`` it would join, holds two versions of one
    document."""
    every = [*new, *home]
    return any(versions.supersedes(a, b) for a in new for b in every if a != b) or any(
        versions.supersedes(b, a) for a in new for b in home
    )


def import_duplicates(
    cfg: Config,
    path: Path,
    *,
    prefix: str = "",
    branch: str | None = None,
    commit: bool = True,
    write: bool = True,
    wait: float = 0.0,
) -> DuplicatesResult:
    """Read the map, then (``write``) write its proposals on ``branch``, under the repository
    lock (see the module doc)."""
    dupmap = read_map(path, prefix)
    of = _components(dupmap.groups)
    with repolock.held(cfg.labels_dir, command="labelpool import duplicates", wait=wait):
        top = gitio.toplevel(cfg.root)
        if top is not None:
            journal.recover(top, "classes")
        labels = labelset.load(cfg)
        try:
            versions = corpus.load_versions(cfg)
        except corpus.CorpusError as exc:
            raise ClassesError(str(exc)) from None
        named: set[str] = set()
        proposals: list[Proposed] = []
        overlapping = version_pairs = 0
        for qid in sorted(labels):
            label = labels[qid]
            docs = documents_of(label)
            named.update(docs)
            pending = {d for p in label.proposed_classes for d in p.members}
            found: dict[str, list[str]] = {}
            for d in docs:
                if d in of:
                    found.setdefault(of[d], []).append(d)
            for members in sorted(sorted(m) for m in found.values() if len(m) >= 2):
                homes = [c for c in label.relevant_classes if set(c).intersection(members)]
                home: tuple[str, ...] = homes[0] if len(homes) == 1 else ()
                new = [m for m in members if m not in home]
                if pending.intersection(members) or len(homes) > 1:
                    overlapping += 1
                elif not new:
                    continue  # the class says it already
                elif _mixes(versions, new, home):
                    version_pairs += 1
                else:
                    extends = next((m for m in members if m in home), None)
                    proposals.append(
                        Proposed(
                            qid,
                            labels.paths[qid],
                            tuple(new),
                            METHOD,
                            1.0,
                            "",
                            extends=extends,
                            matched=new[0] if extends is not None else None,
                        )
                    )
        result = DuplicatesResult(
            tuple(proposals),
            len(set(of.values())),
            dupmap.ids,
            sum(1 for x in of if x not in named),
            overlapping,
            version_pairs,
            sum(p.extends is not None for p in proposals),
        )
        if not write or not proposals:
            return result
        by_path: dict[Path, list[Proposal]] = {}
        for p in proposals:
            text = f"proposed: {', '.join(p.members)}{joins(p)} from the duplicate map {path.name}"
            by_path.setdefault(p.path, []).append(entry(p, text))
        changes = proposal_texts(cfg, by_path)
        message = (
            f"labelpool import duplicates: {len(proposals)} classes proposed from {path.name}\n\n"
            "Each waits for review: delete its `proposed:` line to accept it, the entry to "
            f"reject it. Ids of the map no label names: {result.outside}.\n"
        )
        name = branch or f"labelpool/duplicates-{today()}"
        written = land(cfg, changes, branch=name, message=message, commit=commit)
    return DuplicatesResult(**{**result.__dict__, "written": written})
