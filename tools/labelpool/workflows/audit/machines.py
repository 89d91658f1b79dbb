"""What ``labelpool history`` says about a machine judge named in the record: its model and
the full sha256 of its definition and prompt (whose first 12 hex digits are in its identity,
``NAME@sha256:HEX``), and where that was read.

Two sources, the first that answers:

* ``trailer``: the trailers of a commit that changed the label file (newest first), written by
  ``labelpool judge --machine`` (``Labelpool-Judge: IDENTITY``, ``Labelpool-Judge-Kind:
  machine``, ``Labelpool-Model``, ``Labelpool-Judge-Sha256``), taken only when the sha256
  begins with the identity's digits;
* ``definition``: the judge's file (``judges/NAME.yaml``, the configured folder) in the
  working tree, when its identity is the one recorded (a changed file is another judge).

Neither (a squash merge drops the machine's commits; the definition changed since): the
model is not known, and the identity's digits are all that is said. A machine named otherwise
(the oracle, ``qrels:PATH``: a file's verdicts, no model) is no machine judge of this kind:
:func:`is_defined` says which are.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from labelpool import gitio
from labelpool.machine import definition
from labelpool.verdicts import MACHINE, JudgeVerdict

TRAILER = "trailer"
DEFINITION = "definition"
_JUDGE = "labelpool-judge"
_KIND = "labelpool-judge-kind"
_MODEL = "labelpool-model"
_SHA = "labelpool-judge-sha256"


@dataclass(frozen=True)
class MachineFacts:
    """What is known of one machine judge's identity."""

    identity: str
    model: str
    sha256: str  # the full hex digest of the definition then the prompt
    source: str  # TRAILER | DEFINITION
    commit: str | None = None  # the commit whose trailers said so (TRAILER)


def _digits(identity: str) -> tuple[str, str] | None:
    name, sep, digits = identity.partition("@sha256:")
    return (name, digits.lower()) if sep and name and digits else None


def is_defined(identity: str) -> bool:
    """True for a machine judge's identity as a definition file makes it (``NAME@sha256:HEX``)."""
    return _digits(identity) is not None


def identities(records: Collection[tuple[JudgeVerdict, ...]]) -> list[str]:
    """Every machine judge of a definition file named in ``records``, in order of first
    appearance."""
    found: dict[str, None] = {}
    for record in records:
        for e in record:
            if e.judge is not None and e.kind == MACHINE and is_defined(e.judge):
                found.setdefault(e.judge, None)
    return list(found)


def from_trailers(
    top: Path, wanted: Collection[str], commits: Sequence[str]
) -> dict[str, MachineFacts]:
    """identity -> facts, from the trailers of ``commits`` (newest first wins)."""
    idents = gitio.commit_idents(top, [c for c in commits if c != gitio.ZERO_COMMIT])
    out: dict[str, MachineFacts] = {}
    for commit in reversed(commits):
        message = idents.get(commit, ("", "", ""))[2]
        if "labelpool-judge:" not in message.lower():
            continue
        fields: dict[str, str] = {}
        for key, value in gitio.trailers(top, message):
            fields.setdefault(key.lower(), value)
        identity = fields.get(_JUDGE, "")
        parts = _digits(identity)
        sha = fields.get(_SHA, "").lower()
        if identity not in wanted or identity in out or parts is None:
            continue
        if fields.get(_KIND) != MACHINE or not fields.get(_MODEL) or not sha.startswith(parts[1]):
            continue
        out[identity] = MachineFacts(identity, fields[_MODEL], sha, TRAILER, commit)
    return out


def from_definition(folder: Path, identity: str) -> MachineFacts | None:
    """The facts of the judge file of ``identity``'s name when its identity is ``identity``."""
    parts = _digits(identity)
    if parts is None or not definition.NAME_RE.match(parts[0]):
        return None
    path = definition.judge_file(folder, parts[0])
    if not path.is_file():
        return None
    judge, _ = definition.read(path)
    if judge is None or judge.identity != identity:
        return None
    return MachineFacts(identity, judge.model, judge.sha256, DEFINITION)


def facts(
    top: Path, folder: Path, wanted: Sequence[str], commits: Sequence[str]
) -> dict[str, MachineFacts]:
    """identity -> what is known of it, for each of ``wanted`` that either source knows;
    ``commits``: those that changed the label file, oldest first."""
    if not wanted:
        return {}
    out = from_trailers(top, set(wanted), commits)
    for identity in wanted:
        if identity not in out:
            found = from_definition(folder, identity)
            if found is not None:
                out[identity] = found
    return out
