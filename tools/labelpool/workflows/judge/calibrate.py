"""``labelpool judge --machine NAME --calibrate``: a machine's verdict beside people's.

The documents a person has judged (a named judge of kind person in the record: the file's
``judge`` or a ``verdicts`` line) and this machine has not, in every label file (``--batch``:
the questions the pending batch holds; ``--question``: that one), are asked of the machine;
each grade is written into the document's ``verdicts`` beside the people's
(``{judge: NAME@sha256:..., kind: machine, verdict: G}``), so that ``agreement`` pairs them.
The lists do not change: a machine's verdict never outranks a person's (the write is refused
if they would). A reply with no grade writes nothing (it is in the response cache).

Each write is one label file's, under the repository lock, read again first, checked by
validate's rules before the atomic write. :func:`uncommitted` tells the machine's uncommitted
writes (the file is as at ``HEAD`` but for this machine's verdict lines) from anyone else's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from labelpool import atomic, gitio, labelset, verdicts, yamlfile
from labelpool.config import Config
from labelpool.labelfile import record as record_file
from labelpool.model import MACHINE, PERSON, JudgeVerdict, Label, label_from_data
from labelpool.workflows.judge import fill as fill_mod
from labelpool.workflows.judge import queue as queue_mod
from labelpool.workflows.judge.write import Rules, WriteRefused, _refuse_invalid, locked


def _label(text: str, path: Path) -> Label | None:
    try:
        data = yamlfile.to_plain(yamlfile.loads_roundtrip(text, path))
        return label_from_data(data) if isinstance(data, Mapping) else None
    except (yamlfile.YamlError, KeyError, TypeError, ValueError):
        return None


def read(path: Path) -> Label | None:
    """The label of ``path`` (None when it cannot be read: validate says why)."""
    try:
        return _label(path.read_text(encoding="utf-8"), path)
    except (OSError, UnicodeDecodeError):
        return None


def wanted(label: Label, identity: str) -> list[str]:
    """The documents of ``label`` a person judged and ``identity`` has not."""
    out = []
    for doc in sorted(label.judged):
        rec = verdicts.record(label, doc)
        if any(e.judge == identity for e in rec):
            continue
        if any(e.kind == PERSON and e.judge is not None and not e.adjudicator for e in rec):
            out.append(doc)
    return out


def files(cfg: Config, batch: str | None, question: str | None) -> list[Path]:
    """The label files to calibrate on (see the module doc)."""
    if batch is not None:
        q = queue_mod.load(cfg, verdicts.MACHINE_EMAIL, batch, question, me="")
        paths = [] if q is None else [one.path for one in q.questions]
    else:
        paths = labelset.label_files(cfg.labels_dir)
    if question is not None:
        paths = [p for p in paths if p.stem == question]
    return paths


def _without(label: Label, identity: str) -> Any:
    """What a calibration write must leave as it was: the label but this machine's lines."""
    docs = set(label.judged) | set(label.verdicts)
    rec = {d: tuple(e for e in verdicts.record(label, d) if e.judge != identity) for d in docs}
    return (replace(label, verdicts={}), {d: r for d, r in rec.items() if r})


def add(root: Path, rules: Rules, path: Path, doc: str, identity: str, grade: int) -> str:
    """Write ``identity``'s ``grade`` on ``doc`` beside the people's verdicts of ``path``:
    :data:`fill.WRITTEN`, or :data:`fill.ALREADY` / :data:`fill.GONE`."""
    with locked(root):
        tree = yamlfile.load_roundtrip(path)
        text = tree.text
        label = _label(text, path)
        if label is None or doc not in wanted(label, identity):
            judged = label is not None and any(
                e.judge == identity for e in verdicts.record(label, doc)
            )
            return fill_mod.ALREADY if judged else fill_mod.GONE
        data = tree.data
        rec = verdicts.record(label, doc)
        record_file.set_verdicts(data, doc, (*rec, JudgeVerdict(identity, grade, MACHINE)))
        new_text = yamlfile.dumps(data, path=path)
        after = _label(new_text, path)
        if after is None or _without(after, identity) != _without(label, identity):
            raise WriteRefused(
                "the machine's verdict would change more than its own line", path=path
            )
        if verdicts.grades(after, doc) != verdicts.grades(label, doc):
            raise WriteRefused("the machine's verdict would outrank a person's", path=path)
        _refuse_invalid(path, text, new_text, rules, 1)
        atomic.write_text(path, new_text)
        return fill_mod.WRITTEN


def uncommitted(cfg: Config, identity: str, paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Of ``paths``, (those differing from ``HEAD`` only by this machine's verdict lines,
    those differing otherwise)."""
    top = gitio.toplevel(cfg.root)
    if top is None or gitio.head_commit(cfg.root) is None:
        return [], []
    top = top.resolve()
    rels = [(p.parent.resolve() / p.name).relative_to(top).as_posix() for p in paths]
    olds = gitio.cat_blobs(top, [f"HEAD:{r}" for r in rels])
    ours, other = [], []
    for path, old in zip(paths, olds, strict=True):
        new_text = path.read_text(encoding="utf-8")
        old_text = None if old is None else old.decode("utf-8", "replace")
        if old_text == new_text:
            continue
        before = None if old_text is None else _label(old_text, path)
        after = _label(new_text, path)
        same = before is not None and after is not None
        if same and _without(before, identity) == _without(after, identity):  # type: ignore[arg-type]
            ours.append(path)
        else:
            other.append(path)
    return ours, other
