"""The record of who judged (``judge``, ``judge_kind``, ``verdicts``) as edits of a label
file's round-trip tree that keep it canonical, and the text of one verdict line.

The canonical form (docs/formats.md, :mod:`labelpool.verdicts`)::

    judge: Ana Lopez <ana@example.org>
    verdicts:
      help-stores#opening-hours:
        - {judge: Ana Lopez <ana@example.org>, verdict: 2}
        - {judge: umbrela-3, kind: machine, verdict: irrelevant}
        - {adjudicator: Cy Park <cy@example.org>, verdict: 2}

``judge`` and ``judge_kind`` (``machine`` only) at their canonical place; ``verdicts`` a block
mapping in code-point order of its documents, each verdict one flow mapping on one line, keys
``judge`` (or ``adjudicator``), ``kind`` (``machine`` only), ``verdict``; an adjudicator's
line after the judges'. Strings are quoted where a YAML 1.1 or 1.2 reader would misread them
plain (a ``Name <email>`` is plain unless it holds a flow indicator such as ``,``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from labelpool.labelfile.edit import _insertion_point, _put_key
from labelpool.model import CARRIED_KEY, PERSON, DuplicateOf, JudgeVerdict, Verdict
from labelpool.yamlfile.quoting import needs_quotes, scalar
from labelpool.yamlfile.textcheck import ESCAPE_RE
from labelpool.yamlfile.tree import CommentedMap, CommentedSeq, new_map

__all__ = [
    "add_verdict",
    "remove_carried",
    "remove_verdicts",
    "set_carried",
    "set_file_judge",
    "set_verdicts",
    "verdict_entry_text",
    "verdict_map",
    "verdicts_lines",
]

VERDICT_INDENT = 4  # ``    - {...}``: under ``verdicts:`` (0) and the document key (2)

# Characters written as they are inside single quotes (ruamel's printable set; others are
# left to the ruamel dump).
_AS_IS = re.compile("[ -~\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*")


def set_file_judge(data: CommentedMap, judge: str | None, kind: str = PERSON) -> bool:
    """Make ``judge`` the file's judge (``judge_kind: machine`` for a machine, no
    ``judge_kind`` for a person); None removes both. False when nothing changed."""
    before = (data.get("judge"), data.get("judge_kind"))
    if judge is None:
        for key in ("judge", "judge_kind"):
            if key in data:
                del data[key]
    else:
        if str(data.get("judge")) != judge or "judge" not in data:
            _put_key(data, "judge", scalar(judge))
        if kind == PERSON:
            if "judge_kind" in data:
                del data["judge_kind"]
        elif data.get("judge_kind") != kind:
            _put_key(data, "judge_kind", scalar(kind))
    return (data.get("judge"), data.get("judge_kind")) != before


def _verdict_node(verdict: Verdict) -> Any:
    if verdict is None:
        raise ValueError("a recorded verdict is never null")
    if isinstance(verdict, DuplicateOf):
        node = CommentedMap()
        node["duplicate-of"] = scalar(verdict.doc, True)
        node.fa.set_flow_style()
        return node
    if isinstance(verdict, bool):
        raise ValueError(f"verdict {verdict!r} is not relevant, irrelevant, a grade")
    return verdict if isinstance(verdict, int) else scalar(str(verdict), True)


def verdict_map(jv: JudgeVerdict) -> CommentedMap:
    """One verdict line's flow mapping: ``{judge: J, kind: machine, verdict: V}`` (or
    ``{adjudicator: J, verdict: V}``)."""
    if jv.judge is None:
        raise ValueError("a verdict line names its judge")
    node = CommentedMap()
    node["adjudicator" if jv.adjudicator else "judge"] = scalar(jv.judge, True)
    if jv.kind != PERSON:
        node["kind"] = scalar(jv.kind, True)
    node["verdict"] = _verdict_node(jv.verdict)
    node.fa.set_flow_style()
    return node


def _same_seat(entry: Any, jv: JudgeVerdict) -> bool:
    """Whether the line ``entry`` is ``jv``'s judge in ``jv``'s role."""
    if not isinstance(entry, Mapping):
        return False
    role = "adjudicator" if jv.adjudicator else "judge"
    other = "judge" if jv.adjudicator else "adjudicator"
    return role in entry and other not in entry and str(entry[role]) == jv.judge


def _doc_seq(data: CommentedMap, doc: str) -> CommentedSeq:
    """``data['verdicts'][doc]`` (created, at their canonical places, when missing)."""
    mapping = data.get("verdicts")
    if not isinstance(mapping, CommentedMap):
        mapping = new_map()
        _put_key(data, "verdicts", mapping)
    seq = mapping.get(doc)
    if isinstance(seq, CommentedSeq):
        return seq
    seq = CommentedSeq()
    if doc in mapping:
        mapping[doc] = seq
    else:
        pos = _insertion_point([str(k) for k in mapping], doc)
        mapping.insert(pos, scalar(doc), seq)
    mapping.fa.set_block_style()
    return seq


def add_verdict(data: CommentedMap, doc: str, jv: JudgeVerdict) -> bool:
    """Record ``jv`` on ``doc``: a new line (a judge's before any adjudicator's line), or the
    judge's line in that role replaced (the caller decides whether a changed verdict of one
    judge is an error). False when the line was already there."""
    seq = _doc_seq(data, doc)
    node = verdict_map(jv)
    for i, entry in enumerate(seq):
        if _same_seat(entry, jv):
            if _plain(entry) == _plain(node):
                return False
            seq[i] = _merged(entry, node)
            return True
    pos = len(seq)
    if not jv.adjudicator:
        while pos > 0 and isinstance(seq[pos - 1], Mapping) and "adjudicator" in seq[pos - 1]:
            pos -= 1
    seq.insert(pos, node)
    seq.fa.set_block_style()
    return True


def _merged(old: Any, new: CommentedMap) -> CommentedMap:
    """``new`` with the unknown keys of the line it replaces kept (after the known ones)."""
    if isinstance(old, CommentedMap):
        for k, v in old.items():
            if k not in ("judge", "adjudicator", "kind", "verdict"):
                new[k] = v
    return new


def _plain(node: Any) -> Any:
    if isinstance(node, Mapping):
        return {str(k): _plain(v) for k, v in node.items()}
    return node if isinstance(node, int) else str(node)


def set_verdicts(data: CommentedMap, doc: str, jvs: Sequence[JudgeVerdict]) -> bool:
    """Make ``jvs`` (in this order) the verdict lines of ``doc``; none removes its entry
    (and an emptied ``verdicts``). False when nothing changed."""
    if not jvs:
        return remove_verdicts(data, doc)
    nodes = [verdict_map(jv) for jv in jvs]
    mapping = data.get("verdicts")
    current = mapping.get(doc) if isinstance(mapping, CommentedMap) else None
    if isinstance(current, CommentedSeq) and [_plain(e) for e in current] == [
        _plain(n) for n in nodes
    ]:
        return False
    seq = _doc_seq(data, doc)
    old = list(seq)
    del seq[:]
    for node, jv in zip(nodes, jvs, strict=True):
        match = next((e for e in old if _same_seat(e, jv)), None)
        seq.append(_merged(match, node))
    # a line a class carried is no judge's: it stays, after the judges' lines
    seq.extend(e for e in old if isinstance(e, Mapping) and CARRIED_KEY in e)
    seq.fa.set_block_style()
    return True


def set_carried(data: CommentedMap, doc: str, member: str, verdict: Verdict) -> bool:
    """Make ``{class: MEMBER, verdict: V}`` the line a class carried to ``doc`` (added after
    its judges' lines, or the line there replaced). False when it was there already."""
    node = CommentedMap()
    node[CARRIED_KEY] = scalar(member, True)
    node["verdict"] = _verdict_node(verdict)
    node.fa.set_flow_style()
    seq = _doc_seq(data, doc)
    for i, entry in enumerate(seq):
        if isinstance(entry, Mapping) and CARRIED_KEY in entry:
            if _plain(entry) == _plain(node):
                return False
            seq[i] = node
            return True
    seq.append(node)
    seq.fa.set_block_style()
    return True


def remove_carried(data: CommentedMap, doc: str) -> bool:
    """Remove the line a class carried to ``doc`` (its entry too when no line is left)."""
    mapping = data.get("verdicts")
    seq = mapping.get(doc) if isinstance(mapping, CommentedMap) else None
    if not isinstance(seq, CommentedSeq):
        return False
    kept = [e for e in seq if not (isinstance(e, Mapping) and CARRIED_KEY in e)]
    if len(kept) == len(seq):
        return False
    if not kept:
        return remove_verdicts(data, doc)
    del seq[:]
    seq.extend(kept)
    return True


def remove_verdicts(data: CommentedMap, doc: str) -> bool:
    """Remove ``doc``'s verdict lines; an emptied ``verdicts`` goes. False if it had none."""
    mapping = data.get("verdicts")
    if not isinstance(mapping, CommentedMap) or doc not in mapping:
        return False
    del mapping[doc]
    if not mapping:
        del data["verdicts"]
    return True


@lru_cache(maxsize=4096)  # one judge on every line of a file, and of a merge
def _text(value: str, flow: bool = True) -> str | None:
    """``value`` as the dump writes it (in a flow mapping, or as a block key), or None
    (leave it to ruamel)."""
    if not _AS_IS.fullmatch(value) or ESCAPE_RE.search(value) or len(value) > 1000:
        return None
    if not needs_quotes(value, flow):
        return value
    return "'" + value.replace("'", "''") + "'"


# the text of each verdict entry written lately (a merge writes a few distinct entries on
# about 160,000 lines); keyed with the verdict's type, since ``True == 1``
_WRITTEN: dict[tuple[JudgeVerdict, type], str] = {}
_WRITTEN_MAX = 4096


def verdict_entry_text(jv: JudgeVerdict) -> str:
    """The flow mapping of one verdict line as ``labelpool fmt`` writes it (what follows
    ``- ``); a property test holds it to the ruamel dump of :func:`verdict_map`. Raises
    ValueError for a judge or id the dump would write with escapes (none that validate
    accepts needs them)."""
    key = (jv, type(jv.verdict))
    try:
        found = _WRITTEN.get(key)
    except TypeError:  # an unhashable verdict: refused (or written) as it is
        return _entry_text(jv)
    if found is None:
        if len(_WRITTEN) >= _WRITTEN_MAX:
            _WRITTEN.clear()
        found = _WRITTEN[key] = _entry_text(jv)
    return found


def _entry_text(jv: JudgeVerdict) -> str:
    if jv.judge is None:
        raise ValueError("a verdict line names its judge")
    parts: list[str] = []
    who = _text(jv.judge)
    if who is None:
        raise ValueError(f"judge {jv.judge!r} cannot be written on one verdict line")
    parts.append(f"{'adjudicator' if jv.adjudicator else 'judge'}: {who}")
    if jv.kind != PERSON:
        kind = _text(jv.kind)
        if kind is None:
            raise ValueError(f"kind {jv.kind!r} cannot be written on one verdict line")
        parts.append(f"kind: {kind}")
    verdict = jv.verdict
    if verdict is None or isinstance(verdict, bool):
        raise ValueError(f"verdict {verdict!r} is not a recorded verdict")
    if isinstance(verdict, DuplicateOf):
        target = _text(verdict.doc)
        if target is None:
            raise ValueError(f"document {verdict.doc!r} cannot be written on one verdict line")
        parts.append(f"verdict: {{duplicate-of: {target}}}")
    elif isinstance(verdict, int):
        parts.append(f"verdict: {verdict}")
    else:
        parts.append(f"verdict: {verdict}")
    return "{" + ", ".join(parts) + "}"


def verdicts_lines(record: Mapping[str, Iterable[JudgeVerdict]]) -> list[str]:
    """The lines (no newlines) of a whole ``verdicts:`` block for ``record``, documents in
    code-point order, as the dump writes them; [] for an empty record. Raises ValueError as
    :func:`verdict_entry_text` does, and for a document key the dump would quote oddly."""
    lines: list[str] = []
    for doc in sorted(record):
        entries = list(record[doc])
        if not entries:
            continue
        key = _text(doc, flow=False)
        if key is None or len(doc) > 100:
            raise ValueError(f"document {doc!r} cannot be written as a verdicts key")
        lines.append(f"  {key}:")
        lines += [f"{' ' * VERDICT_INDENT}- {verdict_entry_text(jv)}" for jv in entries]
    return ["verdicts:", *lines] if lines else []
